package org.fjm2.store;

import java.util.List;

/**
 * A connection's durable subscription record ({@code DurableSubscriptionFlyweight}) on its way from the receive
 * thread to the journal writer, which owns the subscriptions.
 *
 * @param type          subscribe, position or unsubscribe ({@code DurableSubscriptionFlyweight.TYPE_*})
 * @param requesterNode the connection's node id (answers name it)
 * @param requestId     0: no answer wanted
 * @param key           client id and subscription name
 * @param topic         subscribe only
 * @param selector      subscribe only; null: none
 * @param noLocal       subscribe only
 * @param shared        subscribe and definition: a shared durable subscription (a name kept apart from unshared ones)
 * @param positions     position and delivered only: per producer stream, the last acknowledged (handed) number
 * @param dueMillis     a subscribe is answered from then on ({@link JournalWriter#LATE_JOIN_SETTLE_MILLIS})
 * @param incarnation   subscribe: derived from the requester and request id (alike at every store that hears it);
 *                      a peer's definition or removed record: as it says
 * @param createdMillis subscribe: the record's send time; definition and removed: as the record says
 */
record DurableRequest(int type, int requesterNode, long requestId, SubscriptionKey key, String topic,
                      String selector, boolean noLocal, boolean shared, List<Position> positions, long dueMillis, long incarnation,
                      long createdMillis)
        implements JournalTask {

    /** The incarnation every store gives the subscription a subscribe record makes (or replaces). */
    static long incarnationOf(int requesterNode, long requestId) {
        long z = ((long) requesterNode << 32) ^ requestId;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return z == 0 ? 1 : z;  // 0 means unknown
    }

    /** One producer stream's position: the last number the subscriber acknowledged. */
    record Position(PositionKey stream, long sequence) {
    }
}
