package org.fjm2.norm.sender;

/**
 * The multiplicative decrease of a rate on loss, at most once per two GRTTs: one overrun makes many NACKs (from every
 * receiver, over a repair cycle), and each must not cut the rate again. Never below the floor. Owned by the session's
 * event loop, like the controllers that use it.
 */
final class LossBackoff {

    private final double factor;
    private final double floor;
    private long lastDecreaseNanos;
    private boolean decreased;

    LossBackoff(double factor, double floor) {
        this.factor = factor;
        this.floor = floor;
    }

    /** The rate after a loss at {@code now}: lowered, or as it was when the last decrease is under two GRTTs old. */
    double afterLoss(double rate, long now, long grttNanos) {
        if (decreased && now - lastDecreaseNanos < 2 * grttNanos) {
            return rate;
        }
        decreased = true;
        lastDecreaseNanos = now;
        return Math.max(floor, rate * factor);
    }
}
