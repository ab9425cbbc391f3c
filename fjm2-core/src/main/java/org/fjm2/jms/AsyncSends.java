package org.fjm2.jms;

import jakarta.jms.CompletionListener;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A session's asynchronous sends (with a CompletionListener): done in order on the session's send thread, started
 * with the first of them; the send may wait for room in the transport there instead of in the application's thread.
 * The listeners are told in the same order on the session's completion thread, each once its message is complete: at
 * once, or, for a PERSISTENT message under {@code storeQuorum}, once the stores acknowledged it. The send thread goes
 * on with the next send meanwhile, so asynchronous PERSISTENT sends are pipelined (one at a time, each waiting for
 * its stores' fsync, they went at 215 msgs/s in {@code bench persistent}).
 */
final class AsyncSends {

    /** A send to run on the send thread; returns what its completion waits for (null: nothing). */
    @FunctionalInterface
    interface Send {
        SessionSends.QuorumWait run() throws JMSException;
    }

    private final String threadName;
    private final Object lock = new Object();
    private ExecutorService sends;
    private ExecutorService completions;
    private volatile Thread sendThread;
    private volatile Thread completionThread;

    AsyncSends(String threadName) {
        this.threadName = threadName;
    }

    void submit(Message message, CompletionListener listener, Send send) {
        if (listener == null) {
            throw new IllegalArgumentException("CompletionListener must not be null");
        }
        synchronized (lock) {
            if (sends == null) {
                sends = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, threadName + "-send");
                    t.setDaemon(true);
                    sendThread = t;
                    return t;
                });
                completions = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, threadName);
                    t.setDaemon(true);
                    completionThread = t;
                    return t;
                });
            }
            ExecutorService completing = completions;
            sends.execute(() -> {
                SessionSends.QuorumWait wait = null;
                Exception failure = null;
                Error fatal = null;
                try {
                    wait = send.run();
                } catch (JMSException | RuntimeException e) {
                    failure = e;
                } catch (Error e) {     // the listener hears of it too, rather than never
                    JMSException failed = new JMSException("asynchronous send failed: " + e);
                    failed.initCause(e);
                    failure = failed;
                    fatal = e instanceof VirtualMachineError ? e : null;
                }
                SessionSends.QuorumWait stores = wait;
                Exception failed = failure;
                completing.execute(() -> tell(message, listener, stores, failed));
                if (fatal != null) {
                    throw fatal;
                }
            });
        }
    }

    /**
     * On the completion thread, in send order: the send's failure, else the stores' acknowledgements (when the
     * message waits for any), decide what the listener is told.
     */
    private static void tell(Message message, CompletionListener listener, SessionSends.QuorumWait stores,
                             Exception failure) {
        try {
            if (failure instanceof JMSException e) {
                throw e;
            }
            if (failure != null) {
                throw new JMSException(failure.toString());
            }
            if (stores != null) {
                stores.await();
            }
        } catch (JMSException e) {
            listener.onException(message, e);
            return;
        } catch (RuntimeException e) {
            listener.onException(message, new JMSException(e.toString()));
            return;
        }
        listener.onCompletion(message);
    }

    /** Whether the caller is one of this session's threads for asynchronous sends (a listener runs there). */
    boolean isCompletionThread() {
        Thread current = Thread.currentThread();
        return current == completionThread || current == sendThread;
    }

    /** Lets the sends already submitted finish and their listeners be told, waiting up to the timeout. */
    void close(long timeoutMillis) {
        synchronized (lock) {
            if (sends != null) {
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
                sends.shutdown();
                try {
                    sends.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS);
                    completions.shutdown();
                    completions.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
