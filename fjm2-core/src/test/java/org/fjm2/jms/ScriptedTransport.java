package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransportCounters;
import org.fjm2.jms.wire.BatchHeaderFlyweight;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A transport for batcher tests, driven by the test: it reports as many queued objects as the test says, and while
 * the test declares it {@link #full(boolean) full}, {@code send} waits (like a sender cache with no room) and
 * {@code trySend} refuses. Sent objects are counted and released.
 */
final class ScriptedTransport implements ObjectTransport {

    final AtomicInteger sent = new AtomicInteger();
    /** Messages (records) in the objects sent. */
    final AtomicInteger recordsSent = new AtomicInteger();
    /** Threads waiting in send() for room now. */
    final AtomicInteger waitingSenders = new AtomicInteger();
    volatile int pending;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition room = lock.newCondition();
    private boolean full;
    private volatile CountDownLatch sends = new CountDownLatch(0);

    /** A latch counted down by the next {@code count} objects sent. */
    CountDownLatch expectSends(int count) {
        sends = new CountDownLatch(count);
        return sends;
    }

    /** While full, send() waits and trySend() refuses. */
    void full(boolean value) {
        lock.lock();
        try {
            full = value;
            room.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int localNodeId() {
        return 1;
    }

    @Override
    public int maxObjectSize() {
        return 64 * 1024;
    }

    @Override
    public void start(ObjectListener listener) {
    }

    @Override
    public boolean send(ByteBuf object, int priority, long timeout, TimeUnit unit) throws InterruptedException {
        long remaining = unit.toNanos(timeout);
        lock.lock();
        try {
            waitingSenders.incrementAndGet();
            try {
                while (full) {
                    if (remaining <= 0) {
                        object.release();
                        return false;
                    }
                    remaining = room.awaitNanos(remaining);
                }
            } finally {
                waitingSenders.decrementAndGet();
            }
        } finally {
            lock.unlock();
        }
        accept(object);
        return true;
    }

    @Override
    public boolean trySend(ByteBuf object, int priority) {
        lock.lock();
        try {
            if (full) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        accept(object);
        return true;
    }

    private void accept(ByteBuf object) {
        recordsSent.addAndGet(new BatchHeaderFlyweight().wrap(object, object.readerIndex()).recordCount());
        object.release();
        sent.incrementAndGet();
        sends.countDown();
    }

    @Override
    public int pendingObjects() {
        return pending;
    }

    @Override
    public TransportCounters counters() {
        return TransportCounters.ZERO;
    }

    @Override
    public void close() {
        full(false);
    }
}
