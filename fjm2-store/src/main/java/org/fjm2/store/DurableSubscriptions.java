package org.fjm2.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable subscriptions the store keeps, by client id + name and by topic, and the tombstones of those removed
 * (so that a peer store that was down when one was unsubscribed learns it, rather than bring it back with its next
 * catch-up answer). Owned by the journal writer thread.
 */
final class DurableSubscriptions {

    /** Subscriptions a store keeps; a subscribe beyond is not answered (the subscriber's creation fails). */
    static final int MAX_SUBSCRIPTIONS = 10_000;
    /** Tombstones kept at most; the oldest goes first. */
    static final int MAX_TOMBSTONES = 10_000;
    /**
     * How long a tombstone is kept: a peer down for longer than this when a subscription was removed keeps its copy
     * (whose pending messages then go with retention).
     */
    static final long TOMBSTONE_MILLIS = 7L * 24 * 3600 * 1000;

    private final Map<SubscriptionKey, Subscription> byKey = new HashMap<>();
    private final Map<String, List<Subscription>> byTopic = new HashMap<>();
    /** Removed subscriptions by key, oldest removal first. */
    private final Map<SubscriptionKey, Subscription> tombstones = new LinkedHashMap<>();

    /** @param recovered live subscriptions and tombstones, as the journal holds them */
    DurableSubscriptions(Collection<Subscription> recovered) {
        List<Subscription> buried = new ArrayList<>();
        for (Subscription s : recovered) {
            if (s.removed()) {
                buried.add(s);
            } else {
                add(s);
            }
        }
        buried.sort(java.util.Comparator.comparingLong(Subscription::removedMillis));
        buried.forEach(t -> tombstones.put(t.key(), t));
    }

    /** The tombstone of a removed subscription of that key, or null. */
    Subscription tombstone(SubscriptionKey key) {
        return tombstones.get(key);
    }

    /** Every tombstone kept. */
    Collection<Subscription> tombstones() {
        return tombstones.values();
    }

    /**
     * Keeps a removed subscription's tombstone (replacing an earlier one of its key); returns a tombstone that had to
     * go to make room (for the journal to delete), or null.
     */
    Subscription bury(Subscription removed) {
        Subscription earlier = tombstones.remove(removed.key());
        tombstones.put(removed.key(), removed);
        if (earlier != null && earlier != removed) {
            return earlier;
        }
        if (tombstones.size() > MAX_TOMBSTONES) {
            Iterator<Subscription> oldest = tombstones.values().iterator();
            Subscription gone = oldest.next();
            oldest.remove();
            return gone;
        }
        return null;
    }

    /** A new subscription of the key: its tombstone, if any, goes (for the journal to delete); null if none. */
    Subscription unbury(SubscriptionKey key) {
        return tombstones.remove(key);
    }

    /** Tombstones removed before {@code beforeMillis}, taken out (for the journal to delete). */
    List<Subscription> expireTombstones(long beforeMillis) {
        List<Subscription> out = new ArrayList<>();
        for (Iterator<Subscription> it = tombstones.values().iterator(); it.hasNext(); ) {
            Subscription t = it.next();
            if (t.removedMillis() >= beforeMillis) {
                break;
            }
            it.remove();
            out.add(t);
        }
        return out;
    }

    Subscription get(SubscriptionKey key) {
        return byKey.get(key);
    }

    boolean full() {
        return byKey.size() >= MAX_SUBSCRIPTIONS;
    }

    int size() {
        return byKey.size();
    }

    void add(Subscription s) {
        byKey.put(s.key(), s);
        byTopic.computeIfAbsent(s.topic(), t -> new ArrayList<>()).add(s);
    }

    void remove(Subscription s) {
        byKey.remove(s.key());
        List<Subscription> ofTopic = byTopic.get(s.topic());
        if (ofTopic != null) {
            ofTopic.remove(s);
            if (ofTopic.isEmpty()) {
                byTopic.remove(s.topic());
            }
        }
    }

    /** Every subscription kept. */
    Collection<Subscription> all() {
        return byKey.values();
    }

    /** Whether a subscription has the message pending (it is for it and not acknowledged). */
    boolean anyPending(StoredMessage m) {
        List<Subscription> ofTopic = byTopic.get(m.topic());
        if (ofTopic == null) {
            return false;
        }
        for (Subscription s : ofTopic) {
            if (s.pending(m)) {
                return true;
            }
        }
        return false;
    }

    /** The message is gone from the store: every subscription that had it pending lost it. */
    void dropped(StoredMessage m) {
        List<Subscription> ofTopic = byTopic.get(m.topic());
        if (ofTopic == null) {
            return;
        }
        for (Subscription s : ofTopic) {
            if (s.pending(m)) {
                s.lost(1);
            }
        }
    }
}
