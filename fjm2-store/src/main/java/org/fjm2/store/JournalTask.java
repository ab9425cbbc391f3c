package org.fjm2.store;

/** What the receive thread hands the journal writer: a message to journal, a late join or a durable subscription record. */
sealed interface JournalTask permits PendingWrite, ReplayRequest, DurableRequest {
}
