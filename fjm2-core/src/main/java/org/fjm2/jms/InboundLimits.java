package org.fjm2.jms;

import java.util.concurrent.TimeUnit;

/**
 * The bounds of what the receive path remembers per remote sender (design: every table keyed by a remote id has a
 * cap and expires, so that no sender, genuine or forged, can make a receiver's memory grow without end), and the
 * largest plausible step of a producer's sequence numbers. Each is a constant with its default, documented in the
 * README ("Limits of the receive path") and docs/wire-format.md; tests use smaller ones.
 *
 * @param maxSenders          sending connections (node ids) remembered; beyond, the least recently heard is
 *                            forgotten
 * @param maxStreamsPerSender (producer, priority) streams remembered per sender; beyond, the sender's least recently
 *                            heard stream is forgotten, so one sender cannot push out the others' streams
 * @param maxStreams          streams remembered in all; beyond, the least recently heard sender's oldest stream
 *                            is forgotten
 * @param idleExpiryNanos     a sender or stream not heard for this long is forgotten
 * @param sweepIntervalNanos  how often, at most, the receive thread looks for expired state (it has no timer:
 *                            it looks when an object or loss arrives)
 * @param maxSequenceJump     the largest distance between two sequence numbers of a stream heard one after the
 *                            other that is taken at face value (see {@link ProducerStream})
 */
record InboundLimits(int maxSenders, int maxStreamsPerSender, int maxStreams, long idleExpiryNanos,
                     long sweepIntervalNanos, long maxSequenceJump) {

    /** Default of {@link #maxSenders}: a large group's sending connections. */
    static final int MAX_SENDERS = 1024;
    /** Default of {@link #maxStreamsPerSender}. */
    static final int MAX_STREAMS_PER_SENDER = 4096;
    /** Default of {@link #maxStreams}: about 5 MiB of state at most. */
    static final int MAX_STREAMS = 65_536;
    /** Default of {@link #idleExpiryNanos}: 5 minutes, far above any pause a live producer makes between sends. */
    static final long IDLE_EXPIRY_NANOS = TimeUnit.MINUTES.toNanos(5);
    /** Default of {@link #sweepIntervalNanos}: 1 second. */
    static final long SWEEP_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);
    /**
     * Default of {@link #maxSequenceJump}: 2^20 = 1,048,576 messages, a loss of several seconds at the fastest
     * rates a producer reaches; larger losses are still reported, with an unknown count.
     */
    static final long MAX_SEQUENCE_JUMP = 1L << 20;

    static final InboundLimits DEFAULTS = new InboundLimits(MAX_SENDERS, MAX_STREAMS_PER_SENDER, MAX_STREAMS,
            IDLE_EXPIRY_NANOS, SWEEP_INTERVAL_NANOS, MAX_SEQUENCE_JUMP);

    InboundLimits {
        if (maxSenders < 1 || maxStreamsPerSender < 1 || maxStreams < 1 || idleExpiryNanos < 1
                || sweepIntervalNanos < 1 || maxSequenceJump < 1) {
            throw new IllegalArgumentException("every inbound limit must be positive: " + this);
        }
    }
}
