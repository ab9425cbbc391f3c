package org.fjm2.norm.sender;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Back-pressure between application threads and the sender: an object may only be enqueued when the bytes and
 * objects held by the sender (queued and cached for repair) stay within the cache bounds. Application threads
 * block in {@link #reserve}; the event loop {@link #release}s as objects leave the cache.
 */
public final class TxAdmission {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition space = lock.newCondition();
    /** The byte bound: the configured one, or more on a long path ({@link PathCache}); guarded by the lock. */
    private long maxBytes;
    private final int maxObjects;
    private long bytes;
    private int objects;
    private volatile int waiters;
    private boolean closed;
    /** The bounds are multiplied (see {@link #overflow}). */
    private boolean overflow;

    private final Runnable onWaiting;

    /** {@code onWaiting} runs when a thread starts waiting, so that the event loop evicts what it can. */
    public TxAdmission(long maxBytes, int maxObjects, Runnable onWaiting) {
        this.maxBytes = maxBytes;
        this.maxObjects = maxObjects;
        this.onWaiting = onWaiting;
    }

    /**
     * Reserves room for one object of {@code size} bytes, waiting up to the timeout; false on timeout. An object
     * larger than the byte bound is admitted alone, once the cache is empty.
     *
     * @throws IllegalStateException when the sender is closed
     */
    public boolean reserve(int size, long timeout, TimeUnit unit) throws InterruptedException {
        long remaining = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (!closed && (objects + 1 > maxObjects() || (objects > 0 && bytes + size > maxBytes()))) {
                if (remaining <= 0) {
                    return false;
                }
                waiters++;
                onWaiting.run();
                try {
                    remaining = space.awaitNanos(remaining);
                } finally {
                    waiters--;
                }
            }
            if (closed) {
                throw new IllegalStateException("sender is closed");
            }
            bytes += size;
            objects++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Lets the sender hold a multiple of its bounds (or back to once): the event loop allows it while only receivers
     * that fell silent hold the oldest object ({@link CacheEviction#SILENT_RECEIVER_OVERFLOW}). Waiters retry.
     */
    public void overflow(boolean allowed) {
        lock.lock();
        try {
            if (overflow != allowed) {
                overflow = allowed;
                space.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Event loop: the byte bound from now on (waiters retry when it grew). */
    void bytesBound(long bytes) {
        lock.lock();
        try {
            boolean grew = bytes > maxBytes;
            maxBytes = bytes;
            if (grew) {
                space.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    private long maxBytes() {
        return overflow ? CacheEviction.SILENT_RECEIVER_OVERFLOW * maxBytes : maxBytes;
    }

    private int maxObjects() {
        return overflow ? CacheEviction.SILENT_RECEIVER_OVERFLOW * maxObjects : maxObjects;
    }

    /** Whether the bytes or objects held exceed {@code numerator / denominator} of their (undoubled) bounds. */
    public boolean holdsMoreThan(int numerator, int denominator) {
        lock.lock();
        try {
            return (long) objects * denominator > (long) maxObjects * numerator
                    || bytes * denominator > maxBytes * numerator;
        } finally {
            lock.unlock();
        }
    }

    /** Gives back the room of an object that left the sender. */
    public void release(int size) {
        lock.lock();
        try {
            bytes -= size;
            objects--;
            space.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Whether an application thread is waiting for room (the event loop then evicts what it can). */
    public boolean hasWaiters() {
        return waiters > 0;
    }

    /** Wakes every waiter with an IllegalStateException; later reservations fail the same way. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            space.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public long bytesHeld() {
        lock.lock();
        try {
            return bytes;
        } finally {
            lock.unlock();
        }
    }

    public int objectsHeld() {
        lock.lock();
        try {
            return objects;
        } finally {
            lock.unlock();
        }
    }
}
