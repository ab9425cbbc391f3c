package org.fjm2.jms;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The threads a connection owns besides the transport's and the sessions': each is one thread with one job, named
 * after the node, daemon (an application that forgets close() can still exit), and started on its first task.
 * <ul>
 *   <li>timer: batch linger, the flush on the transport's drained signal, delivery delays, overflow reports; it
 *       never waits (see {@link Outbound});</li>
 *   <li>flush: the batch flushes the timer could not do at once, waiting for room in the transport;</li>
 *   <li>events: calls the ExceptionListener, so that a slow listener delays nothing else.</li>
 * </ul>
 */
final class ConnectionThreads {

    /** How long close() lets the ExceptionListener finish the reports already queued. */
    static final long EVENTS_DRAIN_SECONDS = 5;

    private final ScheduledThreadPoolExecutor timer;
    private final ExecutorService flush;
    private final ExecutorService events;

    ConnectionThreads(String node) {
        this.timer = new ScheduledThreadPoolExecutor(1, daemon("fjm2-timer-" + node));
        this.timer.setRemoveOnCancelPolicy(true);
        this.flush = Executors.newSingleThreadExecutor(daemon("fjm2-flush-" + node));
        this.events = Executors.newSingleThreadExecutor(daemon("fjm2-events-" + node));
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    ExecutorService flush() {
        return flush;
    }

    ExecutorService events() {
        return events;
    }

    /**
     * Stops the timer and the flush thread at once (the batcher has sent what it could) and lets the events
     * thread deliver the reports already queued, for up to {@link #EVENTS_DRAIN_SECONDS}.
     */
    void close() {
        timer.shutdownNow();
        flush.shutdownNow();
        events.shutdown();
        try {
            events.awaitTermination(EVENTS_DRAIN_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
