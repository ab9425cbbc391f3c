package org.fjm2.jms;

import org.fjm2.norm.util.LogLimiter;
import jakarta.jms.ExceptionListener;
import jakarta.jms.JMSException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hands problems to the connection's ExceptionListener on the connection's events thread, so that a slow listener
 * delays nothing else, with at most {@link #MAX_PENDING_REPORTS} waiting or running: a broken or hostile sender can
 * cause loss reports faster than any listener takes them, and each waiting report is memory. Beyond the bound a
 * report is dropped (whoever made it has already counted and logged the problem), and the log says so when dropping
 * begins and, at most once a second, how many the listener missed. A listener that throws is logged at most once a
 * second too, with the number of throws.
 */
final class ExceptionReports {

    private static final Logger LOG = LoggerFactory.getLogger(ExceptionReports.class);

    /** Reports waiting for (or in) the ExceptionListener at most. */
    static final int MAX_PENDING_REPORTS = 10_000;

    private final ExecutorService events;
    private volatile ExceptionListener listener;
    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicLong missed = new AtomicLong();
    /** Used on the events thread only. */
    private final LogLimiter missedLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);
    /** Used on the events thread only. */
    private final LogLimiter throwsLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);

    ExceptionReports(ExecutorService events) {
        this.events = events;
    }

    ExceptionListener listener() {
        return listener;
    }

    void listener(ExceptionListener value) {
        listener = value;
    }

    /**
     * Hands a problem to the listener, if one is set; never blocks, any thread. Without a listener nothing happens
     * here: whoever reports a problem has logged it.
     */
    void report(JMSException problem) {
        ExceptionListener l = listener;
        if (l != null) {
            report(l, problem);
        }
    }

    private void report(ExceptionListener listener, JMSException problem) {
        if (pending.incrementAndGet() > MAX_PENDING_REPORTS) {
            pending.decrementAndGet();
            if (missed.getAndIncrement() == 0) {
                LOG.warn("the ExceptionListener is {} reports behind: further reports are dropped until it catches up"
                        + " (each problem is still counted and logged)", MAX_PENDING_REPORTS);
            }
            return;
        }
        try {
            events.execute(() -> deliver(listener, problem));
        } catch (RejectedExecutionException closing) {
            pending.decrementAndGet();
            LOG.debug("not reporting after close: {}", problem.getMessage());
        }
    }

    private void deliver(ExceptionListener listener, JMSException problem) {
        try {
            if (missed.get() > 0 && missedLog.allow()) {
                LOG.warn("the ExceptionListener missed {} report(s) while it was {} behind", missed.getAndSet(0),
                        MAX_PENDING_REPORTS);
            }
            listener.onException(problem);
        } catch (RuntimeException e) {
            if (throwsLog.allow()) {
                LOG.warn("ExceptionListener threw ({} more times since the last line)", throwsLog.takeSuppressed(), e);
            }
        } finally {
            pending.decrementAndGet();
        }
    }
}
