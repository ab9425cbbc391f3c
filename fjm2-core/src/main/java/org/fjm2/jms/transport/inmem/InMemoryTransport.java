package org.fjm2.jms.transport.inmem;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransmitListener;
import org.fjm2.jms.transport.TransportCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One member of an {@code inmem://} group. A transmit thread takes objects from the bounded per-priority
 * {@link TransmitQueue} and hands a retained duplicate to every other member's bounded receive queue (waiting
 * while a receiver's queue is full, which is the back-pressure of a slow receiver); a receive thread per member
 * calls its {@link ObjectListener}; the transmit thread tells the {@link TransmitListener} when its queue drained.
 * Loss injection decides per object and receiver, with a seeded random.
 */
final class InMemoryTransport implements ObjectTransport {

    private static final Logger LOG = LoggerFactory.getLogger(InMemoryTransport.class);
    private static final long RECEIVER_WAIT_SLICE_MS = 100;
    /** How long close() lets queued objects go out before it drops them (counted in the log). */
    static final long CLOSE_DRAIN_TIMEOUT_MS = 5000;

    private final InMemoryGroup group;
    private final int nodeId;
    private final InMemorySettings settings;
    private final TransmitQueue transmitQueue;
    private final ReceiveQueue receiveQueue;
    private final Random lossRandom;
    private final Thread transmitThread;
    private final AtomicLong objectsSent = new AtomicLong();
    private final AtomicLong bytesSent = new AtomicLong();
    private final AtomicLong objectsReceived = new AtomicLong();
    private final AtomicLong bytesReceived = new AtomicLong();
    private final AtomicLong objectsLost = new AtomicLong();
    private volatile ObjectListener listener;
    private volatile TransmitListener transmitListener;
    private volatile Thread receiveThread;
    private volatile boolean closed;

    InMemoryTransport(InMemoryGroup group, int nodeId, InMemorySettings settings) {
        this.group = group;
        this.nodeId = nodeId;
        this.settings = settings;
        this.transmitQueue = new TransmitQueue(settings.transmitQueueObjects(), settings.transmitQueueBytes());
        this.receiveQueue = new ReceiveQueue(settings.receiveQueueObjects());
        this.lossRandom = new Random(settings.seed() * 0x9E3779B97F4A7C15L + nodeId);
        this.transmitThread = new Thread(this::transmitLoop, "fjm2-inmem-tx-" + group.name() + "-" + nodeId);
        this.transmitThread.setDaemon(true);
        this.transmitThread.start();
    }

    @Override
    public int localNodeId() {
        return nodeId;
    }

    @Override
    public int maxObjectSize() {
        return settings.maxObjectSize();
    }

    @Override
    public void start(ObjectListener objectListener) {
        if (listener != null) {
            throw new IllegalStateException("already started");
        }
        listener = objectListener;
        Thread thread = new Thread(this::receiveLoop, "fjm2-inmem-rx-" + group.name() + "-" + nodeId);
        thread.setDaemon(true);
        receiveThread = thread;
        thread.start();
    }

    @Override
    public void transmitListener(TransmitListener listener) {
        transmitListener = listener;
    }

    @Override
    public boolean send(ByteBuf object, int priority, long timeout, TimeUnit unit) throws InterruptedException {
        checkSendable(object, priority);
        return transmitQueue.offer(object, priority, timeout, unit);
    }

    @Override
    public boolean trySend(ByteBuf object, int priority) {
        checkSendable(object, priority);
        return transmitQueue.tryOffer(object, priority);
    }

    /** Releases the object and throws when it may not be sent at all. */
    private void checkSendable(ByteBuf object, int priority) {
        if (priority < 0 || priority > 9 || object.readableBytes() > settings.maxObjectSize() || closed) {
            int size = object.readableBytes();
            object.release();
            if (closed) {
                throw new IllegalStateException("transport closed");
            }
            throw new IllegalArgumentException(priority < 0 || priority > 9
                    ? "priority must be 0..9, got " + priority
                    : "object of " + size + " bytes exceeds maxObjectSize " + settings.maxObjectSize());
        }
    }

    @Override
    public int pendingObjects() {
        return transmitQueue.size();
    }

    @Override
    public TransportCounters counters() {
        return new TransportCounters(objectsSent.get(), bytesSent.get(), objectsReceived.get(),
                bytesReceived.get(), 0, 0, 0, objectsLost.get());
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (Thread.currentThread() != transmitThread) {
            try {
                int pending = transmitQueue.size();
                if (!transmitQueue.awaitDrained(CLOSE_DRAIN_TIMEOUT_MS, TimeUnit.MILLISECONDS)) {
                    LOG.warn("inmem node {} closing with {} object(s) still queued after {} ms: dropped", nodeId,
                            transmitQueue.size(), CLOSE_DRAIN_TIMEOUT_MS);
                } else if (pending > 0) {
                    LOG.debug("inmem node {} sent its last {} object(s) before closing", nodeId, pending);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closed = true;
        group.leave(this);
        transmitQueue.close();
        receiveQueue.close();
        joinUnlessSelf(transmitThread);
        joinUnlessSelf(receiveThread);
    }

    private static void joinUnlessSelf(Thread thread) {
        if (thread == null || thread == Thread.currentThread()) {
            return;
        }
        try {
            thread.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Called by the group when another member left: like a NORM receiver's inactivity timeout firing. */
    void senderGone(int senderNodeId) {
        receiveQueue.putEvent(new Delivery(Delivery.GONE, senderNodeId, null));
    }

    private void transmitLoop() {
        int[] priority = new int[1];
        try {
            while (!closed) {
                ByteBuf object = transmitQueue.take(priority);
                if (object == null) {
                    return;
                }
                try {
                    fanOut(object);
                } finally {
                    object.release();
                    transmitQueue.transmitted();
                }
                TransmitListener l = transmitListener;
                if (l != null && transmitQueue.size() == 0) {
                    l.onTransmitIdle();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.error("inmem transmit thread of node {} failed", nodeId, e);
        }
    }

    private void fanOut(ByteBuf object) throws InterruptedException {
        objectsSent.incrementAndGet();
        bytesSent.addAndGet(object.readableBytes());
        for (InMemoryTransport member : group.members()) {
            if (member == this) {
                continue;
            }
            boolean lost = settings.lossRate() > 0 && lossRandom.nextDouble() < settings.lossRate();
            Delivery delivery = lost
                    ? new Delivery(Delivery.LOST, nodeId, null)
                    : new Delivery(Delivery.OBJECT, nodeId, object.retainedDuplicate());
            while (!member.receiveQueue.offer(delivery, RECEIVER_WAIT_SLICE_MS)) {
                if (closed) {
                    delivery.release();
                    return;
                }
            }
        }
    }

    private void receiveLoop() {
        ObjectListener l = listener;
        try {
            while (true) {
                Delivery delivery = receiveQueue.take();
                if (delivery == null) {
                    return;
                }
                try {
                    switch (delivery.kind) {
                        case Delivery.OBJECT -> {
                            objectsReceived.incrementAndGet();
                            bytesReceived.addAndGet(delivery.object.readableBytes());
                            l.onObject(delivery.sender, delivery.object);
                        }
                        case Delivery.LOST -> {
                            objectsLost.incrementAndGet();
                            l.onObjectsLost(delivery.sender, 1,
                                    "inmem loss injection (lossRate=" + settings.lossRate() + ")");
                        }
                        default -> l.onSenderGone(delivery.sender);
                    }
                } catch (RuntimeException e) {
                    LOG.error("listener of inmem node {} threw; continuing", nodeId, e);
                } finally {
                    delivery.release();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One entry of a receive queue: an object, a lost object, or a sender that left. */
    private static final class Delivery {
        static final int OBJECT = 0;
        static final int LOST = 1;
        static final int GONE = 2;

        final int kind;
        final int sender;
        final ByteBuf object;

        Delivery(int kind, int sender, ByteBuf object) {
            this.kind = kind;
            this.sender = sender;
            this.object = object;
        }

        void release() {
            if (object != null) {
                object.release();
            }
        }
    }

    /** A bounded FIFO of deliveries; events (sender gone) bypass the bound so that leaving never blocks. */
    private static final class ReceiveQueue {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition notFull = lock.newCondition();
        private final Condition notEmpty = lock.newCondition();
        private final ArrayDeque<Delivery> queue = new ArrayDeque<>();
        private final int capacity;
        private boolean closed;

        ReceiveQueue(int capacity) {
            this.capacity = capacity;
        }

        /** Queues, waiting up to waitMs for room; false when still full. A closed queue swallows (releases). */
        boolean offer(Delivery delivery, long waitMs) throws InterruptedException {
            lock.lockInterruptibly();
            try {
                long remaining = TimeUnit.MILLISECONDS.toNanos(waitMs);
                while (!closed && queue.size() >= capacity) {
                    if (remaining <= 0) {
                        return false;
                    }
                    remaining = notFull.awaitNanos(remaining);
                }
                if (closed) {
                    delivery.release();
                    return true;
                }
                queue.addLast(delivery);
                notEmpty.signal();
                return true;
            } finally {
                lock.unlock();
            }
        }

        void putEvent(Delivery delivery) {
            lock.lock();
            try {
                if (!closed) {
                    queue.addLast(delivery);
                    notEmpty.signal();
                }
            } finally {
                lock.unlock();
            }
        }

        Delivery take() throws InterruptedException {
            lock.lockInterruptibly();
            try {
                while (!closed && queue.isEmpty()) {
                    notEmpty.await();
                }
                if (closed) {
                    return null;
                }
                Delivery delivery = queue.pollFirst();
                notFull.signal();
                return delivery;
            } finally {
                lock.unlock();
            }
        }

        void close() {
            lock.lock();
            try {
                closed = true;
                for (Delivery d; (d = queue.pollFirst()) != null; ) {
                    d.release();
                }
                notFull.signalAll();
                notEmpty.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
