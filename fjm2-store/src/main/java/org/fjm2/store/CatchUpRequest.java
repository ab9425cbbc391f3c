package org.fjm2.store;

/**
 * A peer store's catch-up request, for the journal writer to answer from what it holds in memory
 * ({@link TopicTails#since}).
 *
 * @param requesterNode the requesting store's node id
 * @param requestId     its id for the request
 * @param topics        the topics the requesting store keeps
 * @param sinceMillis   the messages received at or after this time are wanted (ms since 1970)
 */
record CatchUpRequest(int requesterNode, long requestId, TopicPattern topics, long sinceMillis)
        implements JournalTask {
}
