package org.fjm2.store;

/**
 * The journal's record ids, one sequence for messages and subscriptions (Artemis' ids must be unique): the newest
 * given so far and the next. Used by the journal writer thread only.
 */
final class JournalIds {

    private long next;

    /** @param newest the newest id the journal held when opened (0: none) */
    JournalIds(long newest) {
        this.next = newest + 1;
    }

    /** The newest id given (a late join or a new subscription counts from the record after it). */
    long newest() {
        return next - 1;
    }

    /** A new id. */
    long allocate() {
        return next++;
    }
}
