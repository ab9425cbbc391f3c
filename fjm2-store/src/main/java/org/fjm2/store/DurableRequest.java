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
 * @param positions     position and delivered only: per producer stream, the last acknowledged (handed) number
 * @param dueMillis     a subscribe is answered from then on ({@link JournalWriter#LATE_JOIN_SETTLE_MILLIS})
 */
record DurableRequest(int type, int requesterNode, long requestId, SubscriptionKey key, String topic,
                      String selector, boolean noLocal, List<Position> positions, long dueMillis)
        implements JournalTask {

    /** One producer stream's position: the last number the subscriber acknowledged. */
    record Position(PositionKey stream, long sequence) {
    }
}
