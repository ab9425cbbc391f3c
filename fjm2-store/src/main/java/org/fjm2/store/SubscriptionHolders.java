package org.fjm2.store;

import org.fjm2.jms.wire.DurableSubscriptionFlyweight;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The connections that hold a durable subscription now (a consumer of it is active there): each says so with its
 * subscribe record and then every {@link DurableSubscriptionFlyweight#HOLD_REFRESH_MILLIS}, and releases it when the
 * consumer closes; one not heard for {@link DurableSubscriptionFlyweight#HOLD_TIMEOUT_MILLIS} (it crashed) holds it
 * no more. An unsubscribe from another connection is refused while one does. In memory only (a restarted store learns
 * the holders within a refresh period); owned by the journal writer thread.
 */
final class SubscriptionHolders {

    /**
     * Holders remembered per subscription, the least recently heard going first when more say so (forged records
     * cannot grow the table; a forgotten holder no longer blocks an unsubscribe).
     */
    static final int MAX_HOLDERS = 32;

    /** Node id to when it last said it holds the subscription (ms since the epoch). */
    private final Map<Integer, Long> lastHeard = new LinkedHashMap<>(4, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Long> eldest) {
            return size() > MAX_HOLDERS;
        }
    };

    /** Holders remembered (expired ones included until an unsubscribe looks). */
    int size() {
        return lastHeard.size();
    }

    void held(int node, long nowMillis) {
        lastHeard.put(node, nowMillis);
    }

    void released(int node) {
        lastHeard.remove(node);
    }

    /** The node id of a connection other than {@code node} that holds the subscription; null when none does. */
    Integer heldByOtherThan(int node, long nowMillis) {
        Integer holder = null;
        for (Iterator<Map.Entry<Integer, Long>> it = lastHeard.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Long> e = it.next();
            if (nowMillis - e.getValue() > DurableSubscriptionFlyweight.HOLD_TIMEOUT_MILLIS) {
                it.remove();
            } else if (e.getKey() != node && holder == null) {
                holder = e.getKey();
            }
        }
        return holder;
    }
}
