package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ResourceAllocationException;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Batches outgoing messages, one open batch per JMS priority, encoded straight into a pooled buffer. A batch
 * goes to the transport (with its priority) when it reaches {@code maxBatchBytes}, when the transport has
 * nothing queued (so a lone message leaves at once), when the transport reports it drained
 * ({@link #transmitIdle()}), or after {@code batchLingerMicros}. A message that does not fit an open batch
 * flushes it and starts a new one; a message larger than the transport's object limit is refused.
 *
 * <p>Sequence numbers are assigned under the batch lock, so the order of numbers is the order in the batches,
 * which the transport keeps per priority.
 *
 * <p>Who waits: a producer's send() may wait for room in the transport (back-pressure is its job). The timer thread
 * (linger expiries, the drained signal) never waits, neither for room in the transport nor for a batch lock: it
 * also runs delivery delays, overflow reports and the linger of every other priority, and one wait (up to
 * {@code sendTimeoutMillis} while a subscriber keeps the sender's cache full) would hold them all up. What it cannot
 * flush at once — the lock is taken, mostly by a producer waiting for room, or the transport has no room now — it
 * hands to the flush thread, which waits like a producer. A thread must wait there rather than retry later: the
 * NORM engine makes room in a full cache (evicting past {@code maxHold}) only while a sender waits in enqueue.
 */
final class Outbound {

    private static final Logger LOG = LoggerFactory.getLogger(Outbound.class);
    private static final int PRIORITIES = 10;
    /** First capacity of a batch opened while the transport is idle (it grows as messages are added). */
    static final int SMALL_BATCH_CAPACITY = 1024;

    /** Where the batcher reports messages it could not send after their send() calls had returned. */
    interface DroppedBatches {
        void batchDropped(int priority, int messages, String reason);
    }

    private final ObjectTransport transport;
    private final long epoch;
    private final int maxBatchBytes;
    private final long lingerMicros;
    private final long sendTimeoutMillis;
    private final ScheduledExecutorService timer;
    private final Executor flushThread;
    private final ConnectionCounters counters;
    private final DroppedBatches dropped;
    private final LocalDelivery localDelivery;
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final Batch[] batches = new Batch[PRIORITIES];
    private final Runnable flushOpenTask = this::flushOpenBatches;
    private volatile boolean closed;

    /**
     * @param timer       runs linger expiries and the flush on the drained signal; never made to wait
     * @param flushThread one thread that does the flushes the timer could not do at once, waiting as they need
     */
    Outbound(ObjectTransport transport, long epoch, ConnectionSettings settings, ScheduledExecutorService timer,
             Executor flushThread, ConnectionCounters counters, LocalDelivery localDelivery, DroppedBatches dropped) {
        this.transport = transport;
        this.epoch = epoch;
        this.maxBatchBytes = Math.min(settings.maxBatchBytes(), transport.maxObjectSize());
        this.lingerMicros = settings.batchLingerMicros();
        this.sendTimeoutMillis = settings.sendTimeoutMillis();
        this.timer = timer;
        this.flushThread = flushThread;
        this.counters = counters;
        this.localDelivery = localDelivery;
        this.dropped = dropped;
        for (int p = 0; p < PRIORITIES; p++) {
            batches[p] = new Batch(p);
        }
    }

    /**
     * Encodes and queues one message (non-transacted send); assigns and stamps its message id.
     *
     * @param sendTime     the send time in ms (wire timestamp)
     * @param deliveryTime when a delivery delay is set, the earliest delivery time in ms; else 0
     * @return the sequence number given to the message (in its producer's stream of its priority)
     */
    long send(Fjm2Message message, Fjm2Topic destination, Fjm2Topic replyTo, ProducerState producer,
              long sendTime, long deliveryTime, boolean noMessageId, boolean noTimestamp)
            throws JMSException, InterruptedException {
        Batch batch = batches[message.getJMSPriority()];
        batch.lock.lockInterruptibly();
        try {
            checkOpen();
            int priority = batch.priority;
            long sequence = producer.nextSequence(priority);
            int record = -1;
            for (int attempt = 0; attempt < 2 && record < 0; attempt++) {
                ByteBuf buf = batch.open();
                int mark = buf.writerIndex();
                try {
                    record = MessageEncoder.encode(buf, message, destination, replyTo, producer.id, sequence,
                            sendTime, deliveryTime, noMessageId, noTimestamp, null);
                } catch (IndexOutOfBoundsException tooBig) {
                    buf.writerIndex(mark);
                    if (batch.records == 0) {
                        producer.undoSequence(priority);
                        throw new ResourceAllocationException("message too large: it does not fit the transport's "
                                + "object limit of " + transport.maxObjectSize() + " bytes (maxObjectSize)");
                    }
                    flushLocked(batch);
                } catch (IllegalArgumentException badField) {
                    buf.writerIndex(mark);
                    producer.undoSequence(priority);
                    throw new MessageFormatException("cannot encode message: " + badField.getMessage());
                }
            }
            if (!noMessageId) {
                message.assignMessageId(epoch, producer.id, priority, sequence);
            }
            appended(batch, record);
            return sequence;
        } finally {
            batch.lock.unlock();
        }
    }

    /**
     * Queues a record encoded earlier (a transaction's send), numbering it now: the transaction's records get
     * their sequence numbers at commit, so a rollback leaves no gap.
     *
     * @return the sequence number given to the record
     */
    long sendEncoded(ByteBuf source, int offset, int length, ProducerState producer, int priority)
            throws JMSException, InterruptedException {
        Batch batch = batches[priority];
        batch.lock.lockInterruptibly();
        try {
            checkOpen();
            ByteBuf buf = batch.open();
            if (batch.records > 0 && buf.writerIndex() + length > buf.maxCapacity()) {
                flushLocked(batch);
                buf = batch.open();
            }
            if (buf.writerIndex() + length > buf.maxCapacity()) {
                throw new ResourceAllocationException("message too large for the transport's object limit of "
                        + transport.maxObjectSize() + " bytes (maxObjectSize)");
            }
            long sequence = producer.nextSequence(priority);
            batch.header.wrap(source, offset).sequence(sequence);
            int record = buf.writerIndex();
            buf.writeBytes(source, offset, length);
            appended(batch, record);
            return sequence;
        } finally {
            batch.lock.unlock();
        }
    }

    private void appended(Batch batch, int record) throws JMSException, InterruptedException {
        ByteBuf buf = batch.buffer;
        int length = buf.writerIndex() - record;
        batch.records++;
        counters.messagesSent.increment();
        counters.messageBytesSent.add(length);
        localDelivery.deliver(batch.priority, buf, record, length);
        if (buf.readableBytes() >= maxBatchBytes || transport.pendingObjects() == 0 || lingerMicros == 0) {
            flushLocked(batch);
        } else if (!batch.lingerScheduled) {
            batch.lingerScheduled = true;
            timer.schedule(batch.lingerTask, lingerMicros, TimeUnit.MICROSECONDS);
        }
    }

    /** Sends the batch, waiting for room in the transport up to sendTimeoutMillis (not on the timer thread). */
    private void flushLocked(Batch batch) throws JMSException, InterruptedException {
        ByteBuf buf = batch.buffer;
        if (buf == null || batch.records == 0) {
            return;
        }
        int records = batch.sealed();
        batch.buffer = null;
        batch.records = 0;
        boolean sent;
        try {
            sent = transport.send(buf, batch.priority, sendTimeoutMillis, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw refused(batch, records, e);
        }
        if (!sent) {
            counters.messagesDroppedAtSend.add(records);
            String reason = "transport still full after sendTimeoutMillis=" + sendTimeoutMillis;
            dropped.batchDropped(batch.priority, records, reason);
            throw new ResourceAllocationException(records + " message(s) not sent: " + reason);
        }
        counters.batchesSent.increment();
    }

    /**
     * Sends the batch if the transport has room now, never waiting; false leaves it open, as it was.
     */
    private boolean flushLockedIfRoom(Batch batch) throws JMSException {
        ByteBuf buf = batch.buffer;
        if (buf == null || batch.records == 0) {
            return true;
        }
        int records = batch.sealed();
        boolean sent;
        try {
            sent = transport.trySend(buf, batch.priority);
        } catch (IllegalStateException | IllegalArgumentException e) {
            batch.buffer = null; // released by the transport
            batch.records = 0;
            throw refused(batch, records, e);
        }
        if (sent) {
            batch.buffer = null;
            batch.records = 0;
            counters.batchesSent.increment();
        }
        return sent;
    }

    /** A batch the transport refused outright (closed, or too large): counted, reported, and thrown. */
    private JMSException refused(Batch batch, int records, RuntimeException e) {
        counters.messagesDroppedAtSend.add(records);
        dropped.batchDropped(batch.priority, records, e.getMessage());
        return new jakarta.jms.IllegalStateException("transport refused a batch: " + e.getMessage());
    }

    /**
     * The transport drained: send every open batch now (on the timer thread; the caller must not block). Most
     * drains find no batch open (a lone message left at once), and waking the timer thread for nothing would cost
     * a context switch per message; a batch opened just after the peek is sent by its linger timer.
     */
    void transmitIdle() {
        if (!closed && hasOpenBatch()) {
            try {
                timer.execute(flushOpenTask);
            } catch (RejectedExecutionException e) {
                // closing: close() flushes
            }
        }
    }

    private boolean hasOpenBatch() {
        for (Batch batch : batches) {
            if (batch.records > 0) {
                return true;
            }
        }
        return false;
    }

    /** Sends every open batch, highest priority first. */
    void flushAll() throws JMSException, InterruptedException {
        for (int p = PRIORITIES - 1; p >= 0; p--) {
            Batch batch = batches[p];
            batch.lock.lockInterruptibly();
            try {
                flushLocked(batch);
            } finally {
                batch.lock.unlock();
            }
        }
    }

    /**
     * Sends the batches that look open (timer thread). The unlocked peek at the record count may miss a batch opened
     * this instant; its linger timer (or the next idle signal) sends it.
     */
    private void flushOpenBatches() {
        for (int p = PRIORITIES - 1; p >= 0; p--) {
            Batch batch = batches[p];
            if (batch.records > 0) {
                flushWithoutWaiting(batch, false);
            }
        }
    }

    /**
     * The timer thread's flush: at once, or handed to the flush thread (see the class comment for why it never
     * waits).
     *
     * @param lingerExpired the batch's linger timer fired (it may be scheduled again from now on)
     */
    private void flushWithoutWaiting(Batch batch, boolean lingerExpired) {
        if (!batch.lock.tryLock()) {
            handOff(batch);
            return;
        }
        try {
            if (lingerExpired) {
                batch.lingerScheduled = false;
            }
            if (!flushLockedIfRoom(batch)) {
                handOff(batch);
            }
        } catch (JMSException e) {
            LOG.debug("background flush failed (already counted and reported): {}", e.getMessage());
        } finally {
            batch.lock.unlock();
        }
    }

    /** Queues the batch's waiting flush on the flush thread, unless one is queued already. */
    private void handOff(Batch batch) {
        if (closed || !batch.handOffQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            flushThread.execute(batch.waitingFlushTask);
        } catch (RejectedExecutionException e) {
            batch.handOffQueued.set(false); // closing: close() flushes
        }
    }

    /** Flushes what is open, then refuses further sends. */
    void close() {
        try {
            flushAll();
        } catch (JMSException e) {
            LOG.warn("could not send the last batches on close: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        closed = true;
        for (Batch batch : batches) {
            batch.lock.lock();
            try {
                if (batch.buffer != null) {
                    batch.buffer.release();
                    batch.buffer = null;
                }
            } finally {
                batch.lock.unlock();
            }
        }
    }

    private void checkOpen() throws jakarta.jms.IllegalStateException {
        if (closed) {
            throw new jakarta.jms.IllegalStateException("connection closed");
        }
    }

    /** The open batch of one priority. Guarded by its lock. */
    private final class Batch {
        final int priority;
        final ReentrantLock lock = new ReentrantLock();
        final Runnable lingerTask;
        final Runnable waitingFlushTask;
        final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
        final BatchHeaderFlyweight batchHeader = new BatchHeaderFlyweight();
        /** A waiting flush is queued on the flush thread (at most one per batch). */
        final AtomicBoolean handOffQueued = new AtomicBoolean();
        ByteBuf buffer;
        /** Written under the lock; read without it only as a hint (volatile for visibility). */
        volatile int records;
        boolean lingerScheduled;

        Batch(int priority) {
            this.priority = priority;
            this.lingerTask = () -> flushWithoutWaiting(this, true);
            this.waitingFlushTask = this::flushWaiting;
        }

        ByteBuf open() {
            if (buffer == null) {
                // An idle transport sends this batch with its first message: start small (a 64 KB buffer per lone
                // 100-byte message would fill the cache's memory with empty space); under load start full-sized.
                int initial = transport.pendingObjects() == 0 ? SMALL_BATCH_CAPACITY : maxBatchBytes + 1024;
                buffer = allocator.directBuffer(Math.min(initial, transport.maxObjectSize()),
                        transport.maxObjectSize());
                BatchHeaderFlyweight.writeEmpty(buffer, epoch);
            }
            return buffer;
        }

        /** Writes the record count into the batch header; returns it. */
        int sealed() {
            batchHeader.wrap(buffer, 0).recordCount(records);
            return records;
        }

        /**
         * On the flush thread: what the timer could not flush at once, now with waiting allowed. It clears
         * {@code lingerScheduled} too, in case a linger expiry was handed over: the next batch then gets a linger
         * of its own (at worst one spare linger runs and finds nothing to send).
         */
        private void flushWaiting() {
            handOffQueued.set(false);
            try {
                lock.lockInterruptibly();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            try {
                lingerScheduled = false;
                flushLocked(this);
            } catch (JMSException e) {
                LOG.debug("handed-over flush failed (already counted and reported): {}", e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                lock.unlock();
            }
        }
    }
}
