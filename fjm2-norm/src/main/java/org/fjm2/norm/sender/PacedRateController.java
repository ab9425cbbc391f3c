package org.fjm2.norm.sender;

/** A rate controller that paces with a {@link Pacer}: subclasses decide the rate, the pacer enforces it. */
abstract class PacedRateController implements RateController {

    final Pacer pacer;

    PacedRateController(long bitsPerSecond) {
        this.pacer = new Pacer(bitsPerSecond);
    }

    @Override
    public final long delayNanos(int bytes, long now) {
        return pacer.delayNanos(now);
    }

    @Override
    public final void onSent(int bytes, long now) {
        pacer.onSent(bytes, now);
        afterSent(bytes, now);
    }

    /** A datagram of {@code bytes} left at {@code now} (subclasses that measure what is sent). */
    void afterSent(int bytes, long now) {
    }

    @Override
    public final long rateBitsPerSecond() {
        return pacer.rate();
    }
}
