package org.fjm2.norm.api;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters of one session. Written only by the session's event loop (single writer, ordered stores), read from
 * any thread (JMX, status lines, tests).
 */
public final class NormCounters {

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
        /** Unexpected exceptions while handling input (a bug: logged with a stack trace once a second at most). */
        INTERNAL_ERRORS
    }

    private static final Counter[] ALL = Counter.values();
    private final AtomicLongArray values = new AtomicLongArray(ALL.length);

    /** Adds to a counter (event loop only). */
    public void add(Counter counter, long delta) {
        int i = counter.ordinal();
        values.lazySet(i, values.get(i) + delta);
    }

    public void increment(Counter counter) {
        add(counter, 1);
    }

    /** Adds one from any thread: only for counters the event loop never writes (e.g. {@code PRODUCER_WAITS}). */
    public void incrementFromAnyThread(Counter counter) {
        values.incrementAndGet(counter.ordinal());
    }

    public long get(Counter counter) {
        return values.get(counter.ordinal());
    }

    /** A copy of every counter, for reports. */
    public Map<Counter, Long> snapshot() {
        Map<Counter, Long> map = new EnumMap<>(Counter.class);
        for (Counter c : ALL) {
            map.put(c, values.get(c.ordinal()));
        }
        return map;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Counter c : ALL) {
            long v = values.get(c.ordinal());
            if (v != 0) {
                sb.append(sb.length() == 0 ? "" : " ").append(c.name().toLowerCase()).append('=').append(v);
            }
        }
        return sb.toString();
    }
}
