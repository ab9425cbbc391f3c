package org.fjm2.store;

import org.fjm2.jms.JmsParameters;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The newest messages of every topic, in memory, for late joins and peer stores' catch-up (the Artemis journal is
 * written, not read, while the store runs): at most {@link #MESSAGES_PER_TOPIC} per topic and {@link #MAX_BYTES} in all, the oldest going
 * first. Owned by the journal writer thread.
 */
final class TopicTails {

    /** As many as a late join may ask for. */
    static final int MESSAGES_PER_TOPIC = JmsParameters.LATE_JOIN_MAX;
    /** Memory for all tails together. */
    static final long MAX_BYTES = 64L << 20;

    private final Map<String, ArrayDeque<StoredMessage>> byTopic = new HashMap<>();
    /** Every message held, oldest first: what the byte bound evicts. */
    private final ArrayDeque<StoredMessage> all = new ArrayDeque<>();
    private long bytes;

    void add(StoredMessage m) {
        ArrayDeque<StoredMessage> tail = byTopic.computeIfAbsent(m.topic(), t -> new ArrayDeque<>());
        tail.addLast(m);
        all.addLast(m);
        bytes += m.record().length;
        if (tail.size() > MESSAGES_PER_TOPIC) {
            tail.removeFirst(); // its bytes count until the byte bound reaches it in 'all'
        }
        while (bytes > MAX_BYTES) {
            StoredMessage oldest = all.removeFirst();
            bytes -= oldest.record().length;
            ArrayDeque<StoredMessage> itsTail = byTopic.get(oldest.topic());
            if (itsTail != null && itsTail.peekFirst() == oldest) {
                itsTail.removeFirst();
                if (itsTail.isEmpty()) {
                    byTopic.remove(oldest.topic());
                }
            }
        }
    }

    /**
     * A peer store's catch-up answer, oldest first: every message held that arrived at or after {@code sinceMillis},
     * of the topics {@code topics} names, none older than {@code oldestKeptId}. What is held is at most
     * {@link #MAX_BYTES}: a store down for longer than that takes to arrive gets the newest part only.
     */
    List<StoredMessage> since(long sinceMillis, TopicPattern topics, long oldestKeptId) {
        List<StoredMessage> out = new ArrayList<>();
        for (StoredMessage m : all) {
            if (m.storedAtMillis() >= sinceMillis && m.id() >= oldestKeptId && topics.matches(m.topic())) {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Per producer stream, the last number of the topic's newest messages held (at most {@link #MESSAGES_PER_TOPIC}):
     * where a subscription made now starts (what a peer's catch-up brings of those streams up to there was published
     * before it). Bounded work per subscribe record, whoever sends them; a stream whose last message of the topic is
     * older than those gets no mark.
     */
    Map<PositionKey, Long> lastSequences(String topic) {
        Map<PositionKey, Long> out = new HashMap<>();
        ArrayDeque<StoredMessage> tail = byTopic.get(topic);
        if (tail != null) {
            for (StoredMessage m : tail) {
                out.merge(PositionKey.of(m), m.sequence(), Math::max);
            }
        }
        return out;
    }

    /**
     * A late join's answer, oldest first: the newest {@code count} messages of the topic up to {@code joinedAtId}
     * (the newest message when the request came), and every one after it (the requester sorts out which of those it
     * got live); none older than {@code oldestKeptId}.
     */
    List<StoredMessage> answer(String topic, int count, long joinedAtId, long oldestKeptId) {
        ArrayDeque<StoredMessage> tail = byTopic.get(topic);
        List<StoredMessage> newest = new ArrayList<>();
        if (tail == null) {
            return newest;
        }
        Iterator<StoredMessage> backwards = tail.descendingIterator();
        int beforeJoin = 0;
        while (beforeJoin < count && backwards.hasNext()) {
            StoredMessage m = backwards.next();
            if (m.id() < oldestKeptId) {
                break; // retention dropped it from the journal
            }
            newest.add(m);
            if (m.id() <= joinedAtId) {
                beforeJoin++;
            }
        }
        java.util.Collections.reverse(newest);
        return newest;
    }
}
