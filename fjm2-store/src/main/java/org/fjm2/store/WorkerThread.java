package org.fjm2.store;

/**
 * A store thread that owns one part (the journal writer, the acknowledgement publisher): runs {@link #work} until
 * {@link #close} asks it to finish, and close waits for it to have done what it was given.
 */
abstract class WorkerThread implements Runnable {

    private final Thread thread;
    private volatile boolean running = true;

    WorkerThread(String name) {
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    final void start() {
        thread.start();
    }

    /** False once close was called: finish what is queued, then return from {@link #run}. */
    final boolean running() {
        return running;
    }

    /** Asks the thread to finish its queue and waits for it, at most the timeout. */
    final void close(long timeoutMillis) {
        running = false;
        try {
            thread.join(timeoutMillis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
