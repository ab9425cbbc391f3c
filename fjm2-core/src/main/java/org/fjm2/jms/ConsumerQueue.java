package org.fjm2.jms;

import org.fjm2.jms.message.Fjm2Message;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The messages waiting for one consumer: one FIFO per JMS priority (higher first, order kept within a
 * priority), bounded by message count and encoded bytes. When full, the {@link OverflowPolicy} picks the
 * message to drop and {@link #offer} returns it so the caller can count and report it: the receive thread never
 * waits for a slow consumer, so one slow consumer cannot stall the others. Before that, a queue past a quarter of
 * its bound marks the connection's {@link DeliveryBacklog} until it drains to an eighth, which slows the publishers.
 */
final class ConsumerQueue {

    private static final int PRIORITIES = 10;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition available = lock.newCondition();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<Fjm2Message>[] byPriority = new ArrayDeque[PRIORITIES];
    private final int maxMessages;
    private final long maxBytes;
    private final OverflowPolicy policy;
    private int count;
    private long bytes;
    private final DeliveryBacklog backlog;
    private boolean paused;
    private boolean closed;
    private boolean backedUp;

    ConsumerQueue(int maxMessages, long maxBytes, OverflowPolicy policy, boolean paused, DeliveryBacklog backlog) {
        this.maxMessages = maxMessages;
        this.maxBytes = maxBytes;
        this.policy = policy;
        this.paused = paused;
        this.backlog = backlog;
        for (int i = 0; i < PRIORITIES; i++) {
            byPriority[i] = new ArrayDeque<>();
        }
    }

    /** Queues the message; returns the one dropped to make room (possibly this one), or null. */
    Fjm2Message offer(Fjm2Message message) {
        lock.lock();
        try {
            if (closed) {
                return null;
            }
            Fjm2Message dropped = null;
            if (count >= maxMessages || (count > 0 && bytes + message.wireSize() > maxBytes)) {
                if (policy == OverflowPolicy.DROP_NEWEST) {
                    return message;
                }
                dropped = removeOldestOfLowestPriority();
            }
            byPriority[message.getJMSPriority()].addLast(message);
            count++;
            bytes += message.wireSize();
            checkHighWater();
            available.signal();
            return dropped;
        } finally {
            lock.unlock();
        }
    }

    private Fjm2Message removeOldestOfLowestPriority() {
        for (ArrayDeque<Fjm2Message> queue : byPriority) {
            Fjm2Message m = queue.pollFirst();
            if (m != null) {
                count--;
                bytes -= m.wireSize();
                return m;
            }
        }
        return null;
    }

    /** Puts messages back in front (recover, rollback, listener failure), in the given order; ignores the bound. */
    void pushFront(List<Fjm2Message> messages) {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            for (int i = messages.size() - 1; i >= 0; i--) {
                Fjm2Message m = messages.get(i);
                byPriority[m.getJMSPriority()].addFirst(m);
                count++;
                bytes += m.wireSize();
            }
            checkHighWater();
            available.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next message, waiting while the queue is empty or delivery is paused (connection stopped): up to
     * {@code timeoutNanos}, forever when negative. Null on timeout or close.
     */
    Fjm2Message poll(long timeoutNanos) throws InterruptedException {
        long remaining = timeoutNanos;
        lock.lockInterruptibly();
        try {
            while (!closed && (paused || count == 0)) {
                if (timeoutNanos < 0) {
                    available.await();
                } else {
                    if (remaining <= 0) {
                        return null;
                    }
                    remaining = available.awaitNanos(remaining);
                }
            }
            return closed ? null : take();
        } finally {
            lock.unlock();
        }
    }

    /** The next message or null, none while delivery is paused (connection stopped): a sibling's borrow. */
    Fjm2Message pollIfDelivering() {
        lock.lock();
        try {
            return closed || paused || count == 0 ? null : take();
        } finally {
            lock.unlock();
        }
    }

    /** The next message or null, ignoring the pause (the listener dispatcher keeps its own). */
    Fjm2Message pollNow() {
        lock.lock();
        try {
            return closed || count == 0 ? null : take();
        } finally {
            lock.unlock();
        }
    }

    private Fjm2Message take() {
        for (int p = PRIORITIES - 1; p >= 0; p--) {
            Fjm2Message m = byPriority[p].pollFirst();
            if (m != null) {
                count--;
                bytes -= m.wireSize();
                checkLowWater();
                return m;
            }
        }
        return null;
    }

    private void checkHighWater() {
        if (!backedUp && (count * 4L >= maxMessages || bytes * 4 >= maxBytes)) {
            backedUp = true;
            backlog.enter();
        }
    }

    private void checkLowWater() {
        if (backedUp && count * 8L <= maxMessages && bytes * 8 <= maxBytes) {
            backedUp = false;
            backlog.leave();
        }
    }

    void paused(boolean value) {
        lock.lock();
        try {
            paused = value;
            available.signalAll();
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    long bytes() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    /** Drops everything and wakes every waiting receive(), which then returns null. */
    void close() {
        lock.lock();
        try {
            closed = true;
            for (ArrayDeque<Fjm2Message> queue : byPriority) {
                queue.clear();
            }
            count = 0;
            bytes = 0;
            checkLowWater();
            available.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
