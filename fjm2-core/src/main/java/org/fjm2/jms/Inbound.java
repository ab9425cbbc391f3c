package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import io.netty.util.collection.IntObjectHashMap;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The receive path of a connection, run on the transport's receive thread (which owns all its state): checks
 * a batch's framing, then per record tracks the (sender, producer, priority) sequence (duplicates dropped,
 * gaps counted and reported as {@link MessagesLostException}), skips topics nobody here listens to without
 * decoding them, drops expired messages, decodes the rest once and fans them out to the matching consumers.
 * Malformed input is counted and dropped; nothing is thrown back into the transport.
 */
final class Inbound implements ObjectListener {

    private static final Logger LOG = LoggerFactory.getLogger(Inbound.class);
    private static final String START_OF_STREAM_LOST = "the producer's first messages, sent after this connection "
            + "started, never arrived (the start of its stream was lost)";

    /** What the receive path needs from its connection. */
    interface Owner {
        void reportAsync(jakarta.jms.JMSException problem);

        void transmitIdle();
    }

    private final SubscriptionTable subscriptions;
    private final ConnectionCounters counters;
    private final MessageDecoder decoder;
    private final Owner owner;
    private final BatchHeaderFlyweight batchHeader = new BatchHeaderFlyweight();
    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private final IntObjectHashMap<SenderState> senders = new IntObjectHashMap<>();
    /**
     * Objects the transport reported lost from senders of which no batch has arrived yet: their messages have no
     * sequence numbers to count, so they are reported (count unknown) with the sender's first batch or departure.
     */
    private final IntObjectHashMap<PendingLoss> lostBeforeFirstBatch = new IntObjectHashMap<>();
    private final List<Fjm2MessageConsumer> scratch = new ArrayList<>();
    /** Listener threads to wake once the batch being processed is queued. */
    private final PendingWakes wakes = new PendingWakes();
    private final LossReports losses;
    private final LogLimiter malformedLog;
    /** A squelch can cost hundreds of objects at once: one line a second, with the objects since the last line. */
    private final LogLimiter lossLog;
    private long objectsLostSinceLine;
    /** A sender that started after this (our start plus the clock skew allowed) was heard from its first message. */
    private final long listeningSinceMillis;

    /**
     * @param startMillis     when this connection started (wall clock): streams of senders that started well after
     *                        it must be heard from their first message
     * @param clockSkewMillis how far apart the clocks of this host and a sender's may be
     */
    Inbound(SubscriptionTable subscriptions, ConnectionCounters counters, MessageDecoder decoder, Owner owner,
            long startMillis, long clockSkewMillis) {
        this(subscriptions, counters, decoder, owner, startMillis, clockSkewMillis, InboundLimits.DEFAULTS,
                System::nanoTime);
    }

    /**
     * @param limits    the bounds of the per-sender state
     * @param nanoClock {@code System.nanoTime}, or a clock a test moves
     */
    Inbound(SubscriptionTable subscriptions, ConnectionCounters counters, MessageDecoder decoder, Owner owner,
            long startMillis, long clockSkewMillis, InboundLimits limits, LongSupplier nanoClock) {
        this.subscriptions = subscriptions;
        this.counters = counters;
        this.decoder = decoder;
        this.owner = owner;
        this.listeningSinceMillis = startMillis + clockSkewMillis;
        this.losses = new LossReports(counters, subscriptions, owner, nanoClock);
        this.malformedLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, nanoClock);
        this.lossLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, nanoClock);
    }

    @Override
    public void onObject(int senderNodeId, ByteBuf object) {
        try {
            processBatch(senderNodeId, object);
        } catch (MalformedWireException | RuntimeException e) {
            counters.malformedBatches.increment();
            if (malformedLog.allow()) {
                LOG.warn("dropped a malformed batch from node {}: {} ({} more malformed since the last line)",
                        Integer.toUnsignedString(senderNodeId), e.toString(), malformedLog.takeSuppressed());
            }
        } finally {
            wakes.wakeAll();
        }
    }

    private void processBatch(int sender, ByteBuf buf) throws MalformedWireException {
        int start = buf.readerIndex();
        int end = buf.writerIndex();
        if (end - start < BatchHeaderFlyweight.LENGTH) {
            throw new MalformedWireException("object of " + (end - start) + " bytes is shorter than a batch header");
        }
        batchHeader.wrap(buf, start);
        if (batchHeader.magic() != BatchHeaderFlyweight.MAGIC) {
            throw new MalformedWireException("not an FJM2-JMS batch (magic " + Integer.toHexString(batchHeader.magic())
                    + ")");
        }
        if (batchHeader.version() != BatchHeaderFlyweight.VERSION) {
            throw new MalformedWireException("unsupported FJM2-JMS wire version " + batchHeader.version());
        }
        long epoch = batchHeader.epoch();
        int count = batchHeader.recordCount();
        int first = start + BatchHeaderFlyweight.LENGTH;
        checkFraming(buf, first, end, count);
        SenderState state = senders.get(sender);
        if (state == null || state.epoch != epoch) {
            long senderStart = batchHeader.senderStartMillis();
            state = new SenderState(epoch, senderStart >= 0 && senderStart > listeningSinceMillis);
            senders.put(sender, state);
            reportLostBeforeFirstBatch(sender);
        }
        for (int i = 0, pos = first; i < count; i++) {
            int length = buf.getInt(pos);
            processRecord(sender, state, buf, pos, length);
            pos += length;
        }
    }

    private static void checkFraming(ByteBuf buf, int first, int end, int count) throws MalformedWireException {
        if (count < 0) {
            throw new MalformedWireException("negative record count " + count);
        }
        int pos = first;
        for (int i = 0; i < count; i++) {
            if (end - pos < 4) {
                throw new MalformedWireException("record " + i + " of " + count + " starts past the end");
            }
            int length = buf.getInt(pos);
            if (length < MessageHeaderFlyweight.FIXED_LENGTH || length > end - pos) {
                throw new MalformedWireException("record " + i + " has bad length " + length);
            }
            pos += length;
        }
        if (pos != end) {
            throw new MalformedWireException((end - pos) + " bytes after the last record");
        }
    }

    private void processRecord(int sender, SenderState state, ByteBuf buf, int pos, int length) {
        header.wrap(buf, pos);
        int priority = header.priority();
        int topicLength = header.topicLength();
        if (priority > 9 || MessageHeaderFlyweight.FIXED_LENGTH + topicLength > length) {
            counters.malformedMessages.increment();
            return;
        }
        int producer = header.producerId();
        long sequence = header.sequence();
        long gap = state.track(producer, priority, sequence);
        if (gap < 0) {
            counters.duplicatesDiscarded.increment();
            return;
        }
        SubscriptionTable.Subscription subscription = subscriptions.lookup(buf, header.topicOffset(), topicLength);
        if (gap > 0) {
            String topic = subscription != null ? subscription.topic().name()
                    : buf.toString(header.topicOffset(), topicLength, StandardCharsets.UTF_8);
            reportGap(sender, state, producer, priority, gap, topic);
        }
        if (subscription == null) {
            return;
        }
        long expiration = header.expiration();
        if (expiration != 0 && System.currentTimeMillis() >= expiration) {
            counters.messagesExpired.increment();
            return;
        }
        long deliveryTime = header.deliveryTime();
        Fjm2Message message;
        try {
            message = decoder.decode(buf, pos, length, subscription.topic(), state.epoch);
        } catch (MalformedWireException | RuntimeException e) {
            // Its sequence number is used: the message it carried is lost for good, and reported like any loss.
            counters.malformedMessages.increment();
            losses.report(new MessagesLostException(subscription.topic().name(), sender, producer, priority, 1,
                    "a message could not be decoded: " + describe(e)));
            return;
        }
        counters.messagesReceived.increment();
        fanOut(subscription, message, false, deliveryTime, scratch, wakes);
    }

    /** A malformed input's reason is its message; anything else is named by its class too. */
    private static String describe(Exception e) {
        return e instanceof MalformedWireException ? e.getMessage() : e.toString();
    }

    private void reportGap(int sender, SenderState state, int producer, int priority, long gap, String topic) {
        String reason = state.lastGapIsStartOfStream ? START_OF_STREAM_LOST
                : state.lossReason != null ? state.lossReason : "gap in the producer's sequence numbers";
        state.pendingLostObjects = 0;
        losses.report(new MessagesLostException(topic, sender, producer, priority, gap, reason));
    }

    /**
     * Hands a decoded message to every consumer of the subscription that wants it (noLocal, selector): copies
     * first, the original last, so no consumer can touch a message still being copied.
     */
    static void fanOut(SubscriptionTable.Subscription subscription, Fjm2Message message, boolean local,
                       long deliveryTime, List<Fjm2MessageConsumer> scratch, PendingWakes wakes) {
        scratch.clear();
        for (Fjm2MessageConsumer consumer : subscription.consumers()) {
            if (consumer.wants(message, local)) {
                scratch.add(consumer);
            }
        }
        int n = scratch.size();
        for (int i = 0; i < n; i++) {
            scratch.get(i).accept(i == n - 1 ? message : message.copy(), deliveryTime, wakes);
        }
        scratch.clear();
    }

    @Override
    public void onObjectsLost(int senderNodeId, int objectCount, String reason) {
        try {
            recordObjectsLost(senderNodeId, objectCount, reason);
        } catch (RuntimeException e) {
            receiveFailure("a loss report", senderNodeId, e);
        }
    }

    /** Nothing may be thrown back into the transport's loop: a line a second at most, with the count, no trace. */
    private void receiveFailure(String what, int senderNodeId, RuntimeException e) {
        if (malformedLog.allow()) {
            LOG.error("failed on {} from node {}: {} ({} more failures or malformed inputs since the last line)", what,
                    Integer.toUnsignedString(senderNodeId), e.toString(), malformedLog.takeSuppressed());
        }
    }

    private void recordObjectsLost(int senderNodeId, int objectCount, String reason) {
        SenderState state = senders.get(senderNodeId);
        if (state != null) {
            state.pendingLostObjects += objectCount;
            state.lossReason = reason;
        } else {
            PendingLoss pending = lostBeforeFirstBatch.get(senderNodeId);
            if (pending == null) {
                pending = new PendingLoss();
                lostBeforeFirstBatch.put(senderNodeId, pending);
            }
            pending.objects += objectCount;
            pending.reason = reason;
        }
        objectsLostSinceLine += objectCount;
        if (lossLog.allow()) {
            LOG.warn("{} object(s) lost for good (last from node {}: {}); the messages are counted and reported "
                    + "per producer", objectsLostSinceLine, Integer.toUnsignedString(senderNodeId), reason);
            objectsLostSinceLine = 0;
            lossLog.takeSuppressed();
        }
    }

    /** The sender's first batch arrived (or it left): report what it lost before, if anything. */
    private void reportLostBeforeFirstBatch(int senderNodeId) {
        PendingLoss pending = lostBeforeFirstBatch.remove(senderNodeId);
        if (pending == null) {
            return;
        }
        reportUnknownCount(senderNodeId, pending.objects
                + " object(s) lost before the first message received from this sender (" + pending.reason + ")");
    }

    /** Loss whose messages cannot be counted (no sequence numbers to compare): logged and reported with count -1. */
    private void reportUnknownCount(int senderNodeId, String what) {
        losses.report(new MessagesLostException(null, senderNodeId, 0, 0, -1, what));
    }

    @Override
    public void onSenderGone(int senderNodeId) {
        try {
            forgetSender(senderNodeId);
        } catch (RuntimeException e) {
            receiveFailure("a sender's departure", senderNodeId, e);
        }
    }

    private void forgetSender(int senderNodeId) {
        reportLostBeforeFirstBatch(senderNodeId);
        SenderState state = senders.remove(senderNodeId);
        if (state != null && state.pendingLostObjects > 0) {
            reportUnknownCount(senderNodeId, state.pendingLostObjects + " object(s) lost before the sender went away");
        }
    }

    @Override
    public void onTransmitIdle() {
        owner.transmitIdle();
    }

    /** Objects lost from a sender before its first batch arrived. */
    private static final class PendingLoss {
        long objects;
        String reason;
    }

    /** What the receive path remembers of one sending connection. */
    private static final class SenderState {
        final long epoch;
        /**
         * Whether the sender's connection started after ours (clock skew allowed for): then every stream of it was
         * heard from its first message, numbered 1, and a first message numbered higher reveals lost ones.
         */
        final boolean startedAfterUs;
        /** Last sequence per producer, indexed by priority. */
        final IntObjectHashMap<long[]> lastSequence = new IntObjectHashMap<>();
        /** Whether the gap {@link #track} returned last is the missing start of a stream (for the report). */
        boolean lastGapIsStartOfStream;
        long pendingLostObjects;
        String lossReason;

        SenderState(long epoch, boolean startedAfterUs) {
            this.epoch = epoch;
            this.startedAfterUs = startedAfterUs;
        }

        /**
         * -1: duplicate; 0: in order (or first seen of a stream that may have begun before we listened); n > 0: n
         * messages missing before this one.
         */
        long track(int producer, int priority, long sequence) {
            long[] last = lastSequence.get(producer);
            if (last == null) {
                last = new long[10];
                lastSequence.put(producer, last);
            }
            long previous = last[priority];
            if (previous != 0 && sequence <= previous) {
                return -1;
            }
            last[priority] = sequence;
            lastGapIsStartOfStream = previous == 0 && startedAfterUs && sequence > 1;
            if (previous == 0) {
                return lastGapIsStartOfStream ? sequence - 1 : 0;
            }
            return sequence - previous - 1;
        }
    }
}
