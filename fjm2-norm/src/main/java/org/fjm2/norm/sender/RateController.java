package org.fjm2.norm.sender;

/**
 * Decides when the sender may put the next datagram on the wire: a fixed rate ({@link FixedRateController}), or a
 * rate that follows the receivers' feedback ({@link AdaptiveRateController}, {@link AutoRateController}), or NORM-CC
 * congestion control (RFC 5740 section 5.5, {@link CcRateController}). The transmit loop only talks to this
 * interface; each controller uses the inputs that concern it and ignores the others.
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

    /**
     * NORM-CC feedback (EXT_CC_FEEDBACK in a NACK or ACK) of {@code nodeId}: cc_flags, the round trip in seconds,
     * the loss event fraction, the rate it reports in bytes per second, and cc_sequence; already checked for
     * impossible values but the cc_sequence, which only the controller can judge. Returns false when the feedback
     * is impossible (a cc_sequence far from any probe sent). Only NORM-CC uses it.
     */
    default boolean onCcFeedback(int nodeId, int flags, double rttSeconds, double loss, double reportedBytesPerSecond,
                                 int ccSequence, long now) {
        return true;
    }

    /**
     * A NORM_CMD(CC) probe with {@code ccSequence} goes out at {@code now}; {@code grttSeconds} is the advertised
     * GRTT.
     */
    default void onProbeSent(long now, double grttSeconds, int ccSequence) {
    }

    /**
     * The interval to the next probe: {@code scheduledNanos}, the GRTT probing schedule, unless the controller needs
     * probes at its own pace (NORM-CC: once per limiting receiver's round trip).
     */
    default long probeIntervalNanos(long scheduledNanos, long grttNanos) {
        return scheduledNanos;
    }

    /** The limiting receivers to list in probes (NORM-CC), or null. */
    default CcNodes ccNodes() {
        return null;
    }

    /** Whether the probes' node list entries carry START (NORM-CC's slow start). */
    default boolean ccSlowStart() {
        return false;
    }
}
