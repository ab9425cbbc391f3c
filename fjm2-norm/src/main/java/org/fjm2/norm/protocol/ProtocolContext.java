package org.fjm2.norm.protocol;

import java.util.SplittableRandom;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormListener;

/**
 * What the sender and the receivers of one session share: settings, this node's id, the clock, timers, output,
 * counters, the listener and the session's seeded random generator. Every method is called on the session's
 * event loop only.
 */
public interface ProtocolContext {

    NormConfig config();

    int nodeId();

    /** Current time ({@link System#nanoTime()}), read once per event-loop pass. */
    long nanoTime();

    /**
     * When the session opened ({@link System#nanoTime()}): a sender that started later had this node as a receiver
     * from its start (see the receiver's SenderStart). By default long before any sender.
     */
    default long openedNanos() {
        return Long.MIN_VALUE / 2;
    }

    /**
     * A monotonic microsecond clock for NORM_CMD(CC) send times and grtt_response echoes (never zero, so that a
     * zero grtt_response keeps meaning "none").
     */
    long micros();

    TimerQueue timers();

    PacketOutput output();

    NormCounters counters();

    NormListener listener();

    /** Seeded generator for NACK back-off (the seed is logged when the session starts). */
    SplittableRandom random();

    /**
     * The next message sequence number of this node (RFC 5740 common header): one counter for every message the
     * session sends, data and feedback alike, so (source_id, sequence) identifies a message (loss estimation,
     * duplicate filtering in FJM2D).
     */
    int nextSequence();

    /** The sequence number the next message will carry (flow control counts the messages sent since a report). */
    int currentSequence();

    /** Asks the event loop to run the transmit loop again as soon as possible (new data or repairs pending). */
    void wakeTransmitter();

    /**
     * Whether the application asked receivers to hold back their watermark acknowledgements (NORM_ACK(FLUSH))
     * because what they already received waits to be consumed: see {@link NormSession#holdAcknowledgementsWhile}.
     */
    boolean acknowledgementsHeld();

    /**
     * The session's limits on log lines caused by other nodes: log a line about {@code kind} only when this allows
     * it, and report {@code remoteEvents().takeSuppressed(kind)} with it.
     */
    org.fjm2.norm.util.LogLimiters<RemoteEvent> remoteEvents();
}
