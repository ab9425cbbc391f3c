package org.fjm2.store;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The durable subscriptions the store keeps, by client id + name and by topic. Owned by the journal writer thread.
 */
final class DurableSubscriptions {

    /** Subscriptions a store keeps; a subscribe beyond is not answered (the subscriber's creation fails). */
    static final int MAX_SUBSCRIPTIONS = 10_000;

    private final Map<SubscriptionKey, Subscription> byKey = new HashMap<>();
    private final Map<String, List<Subscription>> byTopic = new HashMap<>();

    DurableSubscriptions(Collection<Subscription> recovered) {
        recovered.forEach(this::add);
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
