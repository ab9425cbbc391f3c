package org.fjm2.store;

/** Where the receive thread hands what the journal writer does ({@link JournalWriter}). */
interface JournalTasks {

    /** Hands the task over; waits while the hand-off is full (the store never drops what it was sent). */
    void submit(JournalTask task) throws InterruptedException;
}
