package org.fjm2.jms;

import jakarta.jms.JMSException;
import org.fjm2.jms.wire.StoreAckFlyweight;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * {@code storeQuorum=N}: what the stores of the group acknowledged of this connection's PERSISTENT messages, and the
 * wait of a send for N of them. The receive thread records acknowledgements ({@link #onAck}); sending threads wait
 * ({@link #await}). Both meet under this object's monitor: the only state here shared between threads, kept small.
 *
 * <p>A waiting send counts a store once one of its acknowledged ranges covers the message's sequence number. The
 * state is kept per (store, producer, priority) as a few ranges, so an acknowledgement that arrived before the
 * sender started waiting counts too (no race between the send and a fast store).
 */
final class StoreQuorum {

    /** Ranges remembered per store and stream: a store's range restarts only after it missed messages. */
    static final int MAX_RANGES_PER_STREAM = 4;
    /** Stores remembered for the message of a failed send (the first ones heard). */
    static final int MAX_STORES_NAMED = 32;

    private final int quorum;
    private final int nodeId;
    private final long epoch;
    /** (producer, priority) -> store name -> acknowledged ranges, ascending, disjoint. Guarded by this. */
    private final Map<Long, Map<String, List<long[]>>> acknowledged = new HashMap<>();
    /** Every store heard on this connection, by name, with its node id. Guarded by this. */
    private final Map<String, Integer> storesHeard = new LinkedHashMap<>();

    /**
     * @param quorum stores a PERSISTENT send waits for; 0: none
     * @param nodeId this connection's node id, @param epoch its epoch: acknowledgements name both
     */
    StoreQuorum(int quorum, int nodeId, long epoch) {
        this.quorum = quorum;
        this.nodeId = nodeId;
        this.epoch = epoch;
    }

    boolean required() {
        return quorum > 0;
    }

    /** On the receive thread: an acknowledgement record of a store (its framing checked). */
    void onAck(int storeNode, StoreAckFlyweight ack) {
        if (quorum == 0) {
            return;
        }
        synchronized (this) {
            String store = ack.storeName();
            if (storesHeard.size() < MAX_STORES_NAMED) {
                storesHeard.putIfAbsent(store, storeNode);
            }
            boolean changed = false;
            for (int i = 0; i < ack.entryCount(); i++) {
                if (ack.publisherNode(i) != nodeId || ack.publisherEpoch(i) != epoch) {
                    continue;
                }
                long first = ack.firstSequence(i);
                long last = ack.lastSequence(i);
                if (first < 1 || last < first) {
                    continue;
                }
                List<long[]> ranges = acknowledged.computeIfAbsent(key(ack.producerId(i), ack.priority(i)),
                        k -> new HashMap<>()).computeIfAbsent(store, s -> new ArrayList<>());
                merge(ranges, first, last);
                changed = true;
            }
            if (changed) {
                notifyAll();
            }
        }
    }

    /** Adds first..last to disjoint ascending ranges, joining what touches; drops the oldest beyond the cap. */
    private static void merge(List<long[]> ranges, long first, long last) {
        long lo = first;
        long hi = last;
        for (int i = ranges.size() - 1; i >= 0; i--) {
            long[] r = ranges.get(i);
            if (r[1] + 1 >= lo && r[0] <= hi + 1) {
                lo = Math.min(lo, r[0]);
                hi = Math.max(hi, r[1]);
                ranges.remove(i);
            }
        }
        int at = 0;
        while (at < ranges.size() && ranges.get(at)[0] < lo) {
            at++;
        }
        ranges.add(at, new long[] {lo, hi});
        while (ranges.size() > MAX_RANGES_PER_STREAM) {
            ranges.remove(0);
        }
    }

    /**
     * Waits until {@code quorum} stores acknowledged the message, at most {@code timeoutMillis}.
     *
     * @throws JMSException naming the stores that answered, when the quorum did not come in time
     */
    void await(String messageId, int producerId, int priority, long sequence, long timeoutMillis)
            throws JMSException {
        awaitUntil(() -> messageId, producerId, priority, sequence, System.nanoTime() + timeoutMillis * 1_000_000L,
                timeoutMillis);
    }

    /**
     * The same, until {@code deadline} (System.nanoTime()); {@code timeoutMillis} is what the error names, and
     * {@code messageId} is asked only for an error (a send that succeeds builds no text).
     */
    void awaitUntil(Supplier<String> messageId, int producerId, int priority, long sequence, long deadline,
                    long timeoutMillis) throws JMSException {
        long key = key(producerId, priority);
        synchronized (this) {
            while (true) {
                Map<String, List<long[]>> byStore = acknowledged.get(key);
                if (byStore != null && countCovering(byStore, sequence) >= quorum) {
                    return;
                }
                long leftNanos = deadline - System.nanoTime();
                if (leftNanos <= 0) {
                    throw noQuorum(messageId.get(), storesCovering(byStore, sequence), timeoutMillis);
                }
                try {
                    wait(Math.max(1, leftNanos / 1_000_000L));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new JMSException("interrupted while waiting for storeQuorum=" + quorum
                            + " acknowledgements of " + messageId.get());
                }
            }
        }
    }

    private static boolean covers(List<long[]> ranges, long sequence) {
        for (long[] r : ranges) {
            if (r[0] <= sequence && sequence <= r[1]) {
                return true;
            }
        }
        return false;
    }

    private static int countCovering(Map<String, List<long[]>> byStore, long sequence) {
        int n = 0;
        for (List<long[]> ranges : byStore.values()) {
            if (covers(ranges, sequence)) {
                n++;
            }
        }
        return n;
    }

    private static List<String> storesCovering(Map<String, List<long[]>> byStore, long sequence) {
        List<String> stores = new ArrayList<>();
        if (byStore != null) {
            byStore.forEach((store, ranges) -> {
                if (covers(ranges, sequence)) {
                    stores.add(store);
                }
            });
        }
        return stores;
    }

    private JMSException noQuorum(String messageId, List<String> answered, long timeoutMillis) {
        return new JMSException("PERSISTENT message " + messageId + " not on disk at storeQuorum=" + quorum
                + " stores within sendTimeoutMillis=" + timeoutMillis + ": acknowledged by " + answered.size()
                + (answered.isEmpty() ? "" : " " + describe(new TreeSet<>(answered))) + "; stores heard on the group: "
                + (storesHeard.isEmpty() ? "none" : describe(storesHeard.keySet()))
                + " (the message was sent; whether a store has it is unknown)", "FJM2_STORE_QUORUM");
    }

    private String describe(Iterable<String> names) {
        StringBuilder sb = new StringBuilder();
        for (String name : names) {
            Integer node = storesHeard.get(name);
            sb.append(sb.length() == 0 ? "" : ", ").append(name);
            if (node != null) {
                sb.append(" (node ").append(Integer.toUnsignedString(node)).append(')');
            }
        }
        return sb.toString();
    }

    private static long key(int producerId, int priority) {
        return ((long) producerId << 8) | priority;
    }
}
