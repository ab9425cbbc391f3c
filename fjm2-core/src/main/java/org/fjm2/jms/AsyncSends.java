package org.fjm2.jms;

import jakarta.jms.CompletionListener;
import jakarta.jms.JMSException;
import jakarta.jms.Message;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A session's asynchronous sends (with a CompletionListener): done in order on the session's completion thread,
 * started with the first of them, which then calls the listener. The send itself may wait for room in the transport
 * there instead of in the application's thread.
 */
final class AsyncSends {

    /** A send to run on the completion thread. */
    @FunctionalInterface
    interface Send {
        void run() throws JMSException;
    }

    private final String threadName;
    private final Object lock = new Object();
    private ExecutorService completions;
    private volatile Thread completionThread;

    AsyncSends(String threadName) {
        this.threadName = threadName;
    }

    void submit(Message message, CompletionListener listener, Send send) {
        if (listener == null) {
            throw new IllegalArgumentException("CompletionListener must not be null");
        }
        synchronized (lock) {
            if (completions == null) {
                completions = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, threadName);
                    t.setDaemon(true);
                    completionThread = t;
                    return t;
                });
            }
            completions.execute(() -> {
                try {
                    send.run();
                } catch (JMSException e) {
                    listener.onException(message, e);
                    return;
                } catch (RuntimeException e) {
                    listener.onException(message, new JMSException(e.toString()));
                    return;
                }
                listener.onCompletion(message);
            });
        }
    }

    boolean isCompletionThread() {
        return Thread.currentThread() == completionThread;
    }

    /** Lets the sends already submitted finish, waiting up to the timeout. */
    void close(long timeoutMillis) {
        synchronized (lock) {
            if (completions != null) {
                completions.shutdown();
                try {
                    completions.awaitTermination(timeoutMillis, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
