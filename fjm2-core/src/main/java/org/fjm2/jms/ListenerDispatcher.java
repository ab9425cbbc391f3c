package org.fjm2.jms;

import jakarta.jms.MessageListener;
import org.fjm2.jms.message.Fjm2Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The one thread of a session that calls its consumers' MessageListeners, one message at a time, as the
 * specification requires (a session is single-threaded). It sleeps until {@link #wake()} and while delivery is
 * paused (connection stopped); {@link #awaitIdle()} lets stop() and close() wait for a listener in progress.
 */
final class ListenerDispatcher implements Runnable {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerDispatcher.class);

    /** What the dispatcher asks of its session. */
    interface Deliveries {
        List<Fjm2MessageConsumer> listenerConsumers();

        /** Calls the listener and does the acknowledgement work around it. */
        void deliverToListener(Fjm2MessageConsumer consumer, MessageListener listener, Fjm2Message message);
    }

    private final Deliveries deliveries;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final Condition idle = lock.newCondition();
    private final Thread thread;
    private boolean signalled;
    private boolean paused;
    private boolean closed;
    private boolean inListener;

    ListenerDispatcher(Deliveries deliveries, String name, boolean paused) {
        this.deliveries = deliveries;
        this.paused = paused;
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    boolean isDispatcherThread() {
        return Thread.currentThread() == thread;
    }

    void wake() {
        lock.lock();
        try {
            signalled = true;
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    void paused(boolean value) {
        lock.lock();
        try {
            paused = value;
            signalled = true;
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Waits until no listener is running (never call it from the dispatcher thread itself). */
    void awaitIdle() throws InterruptedException {
        lock.lock();
        try {
            while (inListener) {
                idle.await();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops the thread after the listener in progress, if any, returns; waits for it unless called from it. */
    void close() {
        lock.lock();
        try {
            closed = true;
            work.signal();
        } finally {
            lock.unlock();
        }
        if (!isDispatcherThread()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void run() {
        try {
            while (awaitWork()) {
                boolean delivered;
                do {
                    delivered = false;
                    for (Fjm2MessageConsumer consumer : deliveries.listenerConsumers()) {
                        MessageListener listener = consumer.listener();
                        if (listener == null) {
                            continue;
                        }
                        Fjm2Message message = consumer.pollForListener();
                        if (message != null) {
                            if (!enterListener()) {
                                consumer.redeliver(List.of(message)); // paused meanwhile: put it back, unchanged
                                break;
                            }
                            try {
                                deliveries.deliverToListener(consumer, listener, message);
                            } finally {
                                leaveListener();
                            }
                            delivered = true;
                        }
                    }
                } while (delivered);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.error("listener dispatcher {} failed", thread.getName(), e);
        }
    }

    private boolean awaitWork() throws InterruptedException {
        lock.lock();
        try {
            while (!closed && (paused || !signalled)) {
                work.await();
            }
            signalled = false;
            return !closed;
        } finally {
            lock.unlock();
        }
    }

    private boolean enterListener() {
        lock.lock();
        try {
            if (paused || closed) {
                signalled = true;
                return false;
            }
            inListener = true;
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void leaveListener() {
        lock.lock();
        try {
            inListener = false;
            idle.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
