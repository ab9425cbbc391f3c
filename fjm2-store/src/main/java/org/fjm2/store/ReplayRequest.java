package org.fjm2.store;

/**
 * A connection's late join: the last {@code count} messages of {@code topic}, answered once {@code dueMillis} came
 * (see {@link JournalWriter#LATE_JOIN_SETTLE_MILLIS}).
 *
 * @param requesterNode the requesting connection's node id
 * @param requestId     its id for the request
 * @param joinedAtId    the newest journal record id when the journal writer took the request (every message the
 *                      store received before the request is at or below it)
 */
record ReplayRequest(int requesterNode, long requestId, String topic, int count, long dueMillis, long joinedAtId)
        implements JournalTask {

    /** The request as the journal writer takes it: the newest journal id then is where the requester joined. */
    ReplayRequest joinedAt(long newestId) {
        return new ReplayRequest(requesterNode, requestId, topic, count, dueMillis, newestId);
    }
}
