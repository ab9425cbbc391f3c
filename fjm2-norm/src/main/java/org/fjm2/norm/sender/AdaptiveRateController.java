package org.fjm2.norm.sender;

/**
 * A rate that follows the receivers, below the configured rate (the ceiling): additive-increase, multiplicative-
 * decrease driven by the sender's own feedback. Every NACK means some receiver lost data — on a LAN or loopback
 * almost always because its socket buffer overflowed while it was busy — so the rate drops by {@link #DECREASE}
 * (once per two GRTTs, since one overrun makes many NACKs); every watermark round acknowledged by all tracked
 * receivers with no NACK in between raises it by {@link #INCREASE_FRACTION} of the ceiling. It never goes below
 * {@link #FLOOR_FRACTION} of the ceiling.
 *
 * <p>This is flow control against receiver overrun, not TCP-friendly congestion control: on a path with random
 * loss it would throttle for nothing, so it is an option ({@code rateControl=adaptive}), and NORM-CC remains the
 * answer for shared links. Owned by the session's event loop.
 */
public final class AdaptiveRateController extends PacedRateController {

    /** Factor applied to the rate on a loss. */
    static final double DECREASE = 0.7;
    /** Share of the ceiling added after each clean acknowledgement round. */
    static final double INCREASE_FRACTION = 1.0 / 256;
    /** Lowest rate, as a share of the ceiling. */
    static final double FLOOR_FRACTION = 1.0 / 64;

    private final long ceiling;
    private double rate;
    private final LossBackoff backoff;
    private boolean lossSinceRound;

    public AdaptiveRateController(long ceilingBitsPerSecond) {
        super(ceilingBitsPerSecond);
        this.ceiling = ceilingBitsPerSecond;
        this.backoff = new LossBackoff(DECREASE, Math.max(8_000L, (long) (ceilingBitsPerSecond * FLOOR_FRACTION)));
        this.rate = ceilingBitsPerSecond;
    }

    @Override
    public void onLoss(long now, long grttNanos) {
        lossSinceRound = true;
        rate = backoff.afterLoss(rate, now, grttNanos);
        pacer.rate((long) rate);
    }

    @Override
    public void onRoundAcknowledged(long now) {
        if (!lossSinceRound && rate < ceiling) {
            rate = Math.min(ceiling, rate + ceiling * INCREASE_FRACTION);
            pacer.rate((long) rate);
        }
        lossSinceRound = false;
    }
}
