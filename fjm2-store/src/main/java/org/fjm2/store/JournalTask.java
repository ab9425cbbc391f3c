package org.fjm2.store;

/**
 * What the receive thread hands the journal writer: a message to journal, a late join, a durable subscription record
 * or a peer store's catch-up request.
 */
sealed interface JournalTask permits PendingWrite, ReplayRequest, DurableRequest, CatchUpRequest {
}
