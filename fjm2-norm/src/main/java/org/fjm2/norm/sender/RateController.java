package org.fjm2.norm.sender;

/**
 * Decides when the sender may put the next datagram on the wire: a fixed rate ({@link FixedRateController}), or a
 * rate that follows the receivers' feedback ({@link AdaptiveRateController}). NORM-CC congestion control (RFC 5740
 * section 5.5) plugs in here too, which is why the transmit loop only talks to this interface.
 */
public interface RateController {

    /** Nanoseconds to wait before a datagram of {@code bytes} may leave at {@code now}; 0 or less means now. */
    long delayNanos(int bytes, long now);

    /** A datagram of {@code bytes} left at {@code now}. */
    void onSent(int bytes, long now);

    /** Current rate in bits per second (advertised in NORM_CMD(CC) probes). */
    long rateBitsPerSecond();

    /** A datagram of {@code bytes} that went out was a repair (counted in {@link #onSent} too). */
    default void onRepairSent(int bytes) {
    }

    /** A receiver reported missing data (a NACK) at {@code now}; {@code grttNanos} is the current GRTT. */
    default void onLoss(long now, long grttNanos) {
    }

    /**
     * A receiver that reports its receive window NACKed: its socket cannot have been overrun (flow control keeps the
     * sender within its window), so the loss is the path's. By default the same as any loss.
     */
    default void onPacedReceiverLoss(long now, long grttNanos) {
        onLoss(now, grttNanos);
    }

    /** Every tracked receiver acknowledged a watermark: a round trip of the whole group without trouble, or not. */
    default void onRoundAcknowledged(long now) {
    }

    /**
     * A receiver reported progress (receiver-paced flow control), or nobody is there to report: the rate may grow.
     * {@code grttNanos} is the current GRTT.
     */
    default void onProgress(long now, long grttNanos) {
    }
}
