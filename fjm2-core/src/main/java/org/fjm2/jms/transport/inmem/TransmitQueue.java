package org.fjm2.jms.transport.inmem;

import io.netty.buffer.ByteBuf;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The sender's queue of objects not yet transmitted: one FIFO per priority (higher drains first), bounded by
 * object count and bytes. Producers block while it is full; the transmit thread blocks while it is empty.
 */
final class TransmitQueue {

    static final int PRIORITIES = 10;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notFull = lock.newCondition();
    private final Condition notEmpty = lock.newCondition();
    @SuppressWarnings("unchecked")
    private final ArrayDeque<ByteBuf>[] byPriority = new ArrayDeque[PRIORITIES];
    private final int maxObjects;
    private final long maxBytes;
    private final Condition drained = lock.newCondition();
    private int objects;
    private long bytes;
    /** An object taken but not yet fully handed to the receivers. */
    private boolean inFlight;
    private boolean closed;

    TransmitQueue(int maxObjects, long maxBytes) {
        this.maxObjects = maxObjects;
        this.maxBytes = maxBytes;
        for (int i = 0; i < PRIORITIES; i++) {
            byPriority[i] = new ArrayDeque<>();
        }
    }

    /** Queues the object, waiting up to the timeout for room; false on timeout. Releases it unless queued. */
    boolean offer(ByteBuf object, int priority, long timeout, TimeUnit unit) throws InterruptedException {
        long remaining = unit.toNanos(timeout);
        int size = object.readableBytes();
        boolean queued = false;
        lock.lockInterruptibly();
        try {
            while (!closed && isFull(size)) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = notFull.awaitNanos(remaining);
            }
            if (closed) {
                throw new IllegalStateException("transport closed");
            }
            add(object, priority, size);
            queued = true;
            return true;
        } finally {
            lock.unlock();
            if (!queued) {
                object.release();
            }
        }
    }

    /**
     * Queues the object if there is room now, never waiting (the lock is held only for short updates); false when
     * full, and then the caller still owns the object.
     */
    boolean tryOffer(ByteBuf object, int priority) {
        int size = object.readableBytes();
        lock.lock();
        try {
            if (closed) {
                object.release();
                throw new IllegalStateException("transport closed");
            }
            if (isFull(size)) {
                return false;
            }
            add(object, priority, size);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** An object larger than the byte bound still goes through alone, or it could never be sent. */
    private boolean isFull(int size) {
        return objects >= maxObjects || (objects > 0 && bytes + size > maxBytes);
    }

    private void add(ByteBuf object, int priority, int size) {
        byPriority[priority].addLast(object);
        objects++;
        bytes += size;
        notEmpty.signal();
    }

    /** The highest-priority oldest object, waiting for one; null once closed. Sets {@code prio[0]}. */
    ByteBuf take(int[] prio) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (!closed && objects == 0) {
                notEmpty.await();
            }
            if (closed) {
                return null;
            }
            for (int p = PRIORITIES - 1; p >= 0; p--) {
                ByteBuf object = byPriority[p].pollFirst();
                if (object != null) {
                    objects--;
                    bytes -= object.readableBytes();
                    inFlight = true;
                    notFull.signalAll();
                    prio[0] = p;
                    return object;
                }
            }
            throw new IllegalStateException("object count out of step with the queues");
        } finally {
            lock.unlock();
        }
    }

    /** The transmit thread finished handing out the object it took. */
    void transmitted() {
        lock.lock();
        try {
            inFlight = false;
            if (objects == 0) {
                drained.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Waits until everything queued was handed out, up to the timeout; true when drained. */
    boolean awaitDrained(long timeout, TimeUnit unit) throws InterruptedException {
        long remaining = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (!closed && (objects > 0 || inFlight)) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = drained.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return objects;
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter and releases what is still queued. */
    void close() {
        lock.lock();
        try {
            closed = true;
            for (ArrayDeque<ByteBuf> queue : byPriority) {
                for (ByteBuf object; (object = queue.pollFirst()) != null; ) {
                    object.release();
                }
            }
            objects = 0;
            bytes = 0;
            notFull.signalAll();
            notEmpty.signalAll();
            drained.signalAll();
        } finally {
            lock.unlock();
        }
    }
}
