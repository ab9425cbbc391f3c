package org.fjm2.store;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A durable subscription as the store keeps it: what it is on (topic, selector, noLocal, as the subscriber said),
 * from which journal record on its messages are for it ({@code createdAfterId}), and per producer stream the last
 * number the subscriber acknowledged. A message of its topic after {@code createdAfterId} that its position does not
 * cover is pending: replayed on the subscriber's return. The selector and noLocal are applied by the subscriber (it
 * decodes the messages); the store keeps them to tell a changed subscription (JMS: a new one) from the same.
 * Its {@code incarnation} and {@code created} time come from the subscribe record that made it, so every store that
 * heard that record names it alike, and a peer that was down can tell this subscription from an earlier or later one
 * of the same name. A removed subscription (unsubscribed or replaced) is kept a while as a tombstone
 * ({@link #removedMillis} not 0), so that a peer that missed the removal learns it rather than bring it back.
 * Owned by the journal writer thread.
 */
final class Subscription {

    /**
     * Producer streams remembered per subscription, the least recently moved going first (a message of a forgotten
     * stream the store still holds would be replayed again).
     */
    static final int MAX_STREAMS = 4096;

    private final SubscriptionKey key;
    private final long journalId;
    private String topic;
    private String selector;
    private boolean noLocal;
    private long createdAfterId;
    /** 0: unknown (a subscription journaled before stores named them). */
    private long incarnation;
    private long createdMillis;
    /** A shared durable subscription (createSharedDurableConsumer): JMS keeps its name apart from unshared ones. */
    private boolean shared;
    /** When it was removed; 0 while it lives. */
    private long removedMillis;
    private final Map<PositionKey, Long> positions = streamMarks();
    /**
     * Per producer stream the last number the subscriber was handed (acknowledged or not): kept in memory only, so a
     * store restart forgets it (replayed messages are then not flagged redelivered).
     */
    private final Map<PositionKey, Long> handed = streamMarks();
    /** Pending messages dropped (retention, memory bound) since the subscriber was last told. */
    private long lost;
    /**
     * When the store last heard the subscriber (its subscribe, position or delivered records), and whether its last
     * session ended with a close (whose last position record asks for an answer) rather than a crash. In memory
     * only, like {@link #handed}.
     */
    private long lastHeardMillis;
    private boolean closedCleanly = true;
    /** The connections with an active consumer of it (in memory only). */
    private final SubscriptionHolders holders = new SubscriptionHolders();
    /** For the answer to the current return: messages stored up to then count as handed before (a crash). */
    private long handedUpToMillis = Long.MIN_VALUE;

    /** Per stream a number, at most {@link #MAX_STREAMS}, the least recently moved going first. */
    private static Map<PositionKey, Long> streamMarks() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<PositionKey, Long> eldest) {
                return size() > MAX_STREAMS;
            }
        };
    }

    Subscription(SubscriptionKey key, long journalId, String topic, String selector, boolean noLocal,
                 long createdAfterId) {
        this(key, journalId, topic, selector, noLocal, createdAfterId, 0, 0);
    }

    Subscription(SubscriptionKey key, long journalId, String topic, String selector, boolean noLocal,
                 long createdAfterId, long incarnation, long createdMillis) {
        this.incarnation = incarnation;
        this.createdMillis = createdMillis;
        this.key = key;
        this.journalId = journalId;
        this.topic = topic;
        this.selector = selector;
        this.noLocal = noLocal;
        this.createdAfterId = createdAfterId;
    }

    SubscriptionKey key() {
        return key;
    }

    long journalId() {
        return journalId;
    }

    String topic() {
        return topic;
    }

    String selector() {
        return selector;
    }

    boolean noLocal() {
        return noLocal;
    }

    boolean shared() {
        return shared;
    }

    void shared(boolean isShared) {
        shared = isShared;
    }

    long createdAfterId() {
        return createdAfterId;
    }

    long incarnation() {
        return incarnation;
    }

    long createdMillis() {
        return createdMillis;
    }

    long removedMillis() {
        return removedMillis;
    }

    boolean removed() {
        return removedMillis != 0;
    }

    /** Whether {@code otherCreatedMillis} and {@code otherIncarnation} name a later subscription than this one. */
    boolean olderThan(long otherCreatedMillis, long otherIncarnation) {
        return otherCreatedMillis > createdMillis
                || (otherCreatedMillis == createdMillis && otherIncarnation > incarnation);
    }

    /** A legacy subscription (no incarnation) learns the one its peers know it by. */
    void named(long newIncarnation, long newCreatedMillis) {
        incarnation = newIncarnation;
        createdMillis = newCreatedMillis;
    }

    /** Removed at {@code nowMillis}: from now on a tombstone (its position no longer matters). */
    void remove(long nowMillis) {
        removedMillis = Math.max(1, nowMillis);
        positions.clear();
        handed.clear();
    }

    /** Recovered from the journal as a tombstone. */
    void removedAt(long millis) {
        removedMillis = millis;
    }

    Map<PositionKey, Long> positions() {
        return positions;
    }

    /** Whether the subscriber asks for this subscription as it is (JMS: otherwise it is replaced by a new one). */
    boolean sameAs(String otherTopic, String otherSelector, boolean otherNoLocal) {
        return topic.equals(otherTopic) && Objects.equals(selector, otherSelector) && noLocal == otherNoLocal;
    }

    /** JMS: a subscription asked for with another topic, selector or noLocal is a new one, from now on. */
    void replace(String newTopic, String newSelector, boolean newNoLocal, long newCreatedAfterId,
                 long newIncarnation, long newCreatedMillis) {
        incarnation = newIncarnation;
        createdMillis = newCreatedMillis;
        removedMillis = 0;
        topic = newTopic;
        selector = newSelector;
        noLocal = newNoLocal;
        createdAfterId = newCreatedAfterId;
        positions.clear();
        handed.clear();
        lost = 0;
        handedUpToMillis = Long.MIN_VALUE;
    }

    /** The subscriber acknowledged up to {@code sequence} of the stream (never moves back). */
    void acknowledged(PositionKey stream, long sequence) {
        positions.merge(stream, sequence, Math::max);
    }

    /** The subscriber was handed up to {@code sequence} of the stream (never moves back). */
    void handed(PositionKey stream, long sequence) {
        handed.merge(stream, sequence, Math::max);
    }

    /** Whether the subscriber was handed the message before, or may have been (its replay is a redelivery). */
    boolean handedBefore(StoredMessage m) {
        if (m.storedAtMillis() <= handedUpToMillis) {
            return true;
        }
        Long last = handed.get(PositionKey.of(m));
        return last != null && m.sequence() <= last;
    }

    /**
     * The subscriber comes back. If its last session did not end with a close, it may have been handed messages in
     * its last {@code crashMarginMillis} whose delivered record never came: every message the store received up to
     * that long after it last heard the subscriber counts as handed before (JMSRedelivered may be set on a message
     * that was not delivered, never left unset on one that was).
     */
    void returning(long nowMillis, long crashMarginMillis) {
        handedUpToMillis = closedCleanly ? Long.MIN_VALUE : lastHeardMillis + crashMarginMillis;
        closedCleanly = false;
        lastHeardMillis = nowMillis;
    }

    SubscriptionHolders holders() {
        return holders;
    }

    /** A record of the subscriber arrived; {@code closing}: the last one of a session that closes. */
    void heard(long nowMillis, boolean closing) {
        lastHeardMillis = Math.max(lastHeardMillis, nowMillis);
        if (closing) {
            closedCleanly = true;
        }
    }

    /** Whether the message is for this subscription and not yet acknowledged. */
    boolean pending(StoredMessage m) {
        if (m.id() <= createdAfterId || !topic.equals(m.topic())) {
            return false;
        }
        Long last = positions.get(PositionKey.of(m));
        return last == null || m.sequence() > last;
    }

    void lost(long messages) {
        lost += messages;
    }

    /** Dropped pending messages not yet told; zeroed (the answer that tells it is on its way). */
    long takeLost() {
        long n = lost;
        lost = 0;
        return n;
    }
}
