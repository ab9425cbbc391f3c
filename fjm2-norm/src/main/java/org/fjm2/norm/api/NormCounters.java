package org.fjm2.norm.api;

import org.fjm2.norm.util.EnumCounters;

/**
 * Counters of one session. Written only by the session's event loop (single writer, ordered stores), read from
 * any thread (JMX, metrics, status lines, tests).
 */
public final class NormCounters extends EnumCounters<NormCounters.Counter> {

    /** What is counted. */
    public enum Counter {
        PACKETS_SENT, BYTES_SENT, PACKETS_RECEIVED, BYTES_RECEIVED,
        MALFORMED_DROPPED, UNAUTHENTIC_DROPPED, OWN_PACKETS_IGNORED, RX_LOSS_INJECTED, TX_LOSS_INJECTED,
        OBJECTS_ENQUEUED, OBJECTS_SENT, OBJECTS_RECEIVED, OBJECTS_LOST, OBJECTS_PURGED,
        DATA_SENT, REPAIRS_SENT, PARITY_SENT, INFO_SENT,
        NACKS_SENT, NACKS_SUPPRESSED, NACKS_RECEIVED, ACKS_SENT, ACKS_RECEIVED,
        FLUSHES_SENT, SQUELCHES_SENT, SQUELCHES_RECEIVED, PROBES_SENT,
        DUPLICATE_SEGMENTS, FEC_DECODES, UNSUPPORTED_OBJECTS, SENDERS_GONE, TRANSMIT_ERRORS,
        /** Application threads that had to wait for room in the sender's cache (back-pressure). */
        PRODUCER_WAITS,
        /** Authentic datagrams seen before (group security). */
        REPLAYS_DROPPED,
        /** Authentic datagrams dated older than the maximum age (group security). */
        STALE_DROPPED,
        /** Remote senders forgotten to make room for new ones (maxRemoteSenders). */
        REMOTE_SENDERS_EVICTED,
        /** Receivers the sender stopped tracking to make room for new ones (maxReceivers). */
        RECEIVERS_EVICTED,
        /** Receivers an acknowledgement round stopped waiting for because they fell silent (receiverSilence). */
        RECEIVERS_SUSPENDED,
        /** NACKs and ACKs that carried this receiver's NORM-CC feedback (EXT_CC_FEEDBACK). */
        CC_FEEDBACK_SENT,
        /** NORM-CC feedback a congestion-controlled sender took into account. */
        CC_FEEDBACK_RECEIVED,
        /**
         * NORM-CC input with impossible values, counted and ignored: feedback with a zero rate, a round trip beyond
         * {@code grttMax} or a cc_sequence far ahead of any probe sent; a CC node list entry for us with such a round
         * trip.
         */
        CC_DROPPED,
        /** Receive-window reports sent to flow-controlled senders (receiver-paced flow control). */
        FLOW_REPORTS_SENT,
        /** Receive-window reports received from receivers. */
        FLOW_REPORTS_RECEIVED,
        /** Times the sender stopped because a receiver's window was full (it resumes on the receiver's report). */
        FLOW_WINDOW_WAITS,
        /** Receivers that fell silent with their window full and were no longer paced for until they reported. */
        FLOW_WINDOWS_RELEASED,
        /** Stream bytes delivered to the application (NORM_OBJECT_STREAM). */
        STREAM_BYTES_RECEIVED,
        /** Stream bytes reported as gaps: lost beyond repair, skipped by a receiver that fell behind. */
        STREAM_BYTES_LOST,
        /** Stream bytes written by the application and sent (first transmission). */
        STREAM_BYTES_SENT,
        /**
         * NACKs sent during the hold-off after a NACK, for losses beyond what it asked for (a sender advertising a
         * back-off factor of 0: a small group).
         */
        NACKS_BEYOND_HORIZON,
        /**
         * Repairs a sender made pending during its hold-off for objects its last cycle did not repair (no
         * aggregation: back-off factor 0, no parity).
         */
        REPAIRS_IN_HOLDOFF,
        /** Unexpected exceptions while handling input (a bug: logged with a stack trace once a second at most). */
        INTERNAL_ERRORS
    }

    public NormCounters() {
        super(Counter.class);
    }
}
