package org.fjm2.store;

/** What the receive thread hands the journal writer: a message to journal, or a late join to answer. */
sealed interface JournalTask permits PendingWrite, ReplayRequest {
}
