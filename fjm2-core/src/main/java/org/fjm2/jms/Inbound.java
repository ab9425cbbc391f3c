package org.fjm2.jms;

import org.fjm2.norm.util.LogLimiter;
import io.netty.buffer.ByteBuf;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.wire.BatchFraming;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.ControlRecords;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.SharedMemberFlyweight;
import org.fjm2.jms.wire.StoreAckFlyweight;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The receive path of a connection, run on the transport's receive thread (which owns all its state): checks
 * a batch's framing, then per record tracks the (sender, producer, priority) sequence (duplicates dropped,
 * gaps counted and reported as {@link MessagesLostException}, implausible jumps held back: {@link ProducerStream}),
 * skips topics nobody here listens to without decoding them, drops expired messages, decodes the rest once and fans
 * them out to the matching consumers; a message that cannot be decoded is reported lost. What it remembers per
 * sender and producer is bounded and expires ({@link SenderStates}). Malformed input is counted and dropped; nothing
 * is thrown back into the transport.
 */
final class Inbound implements ObjectListener {

    private static final Logger LOG = LoggerFactory.getLogger(Inbound.class);
    private static final String START_OF_STREAM_LOST = "the producer's first messages, sent after this connection "
            + "started, never arrived (the start of its stream was lost)";

    /** Hears the stores' acknowledgements (records on {@link StoreAckFlyweight#TOPIC}), on the receive thread. */
    interface StoreAcknowledgements {
        void onAck(int storeNode, StoreAckFlyweight ack);
    }

    /** What the receive path needs from its connection. */
    interface Owner {
        void reportAsync(jakarta.jms.JMSException problem);
    }

    private final SubscriptionTable subscriptions;
    private final ConnectionCounters counters;
    private final MessageDecoder decoder;
    private final Owner owner;
    private final BatchHeaderFlyweight batchHeader = new BatchHeaderFlyweight();
    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private final InboundLimits limits;
    private final LongSupplier nanoClock;
    /**
     * Senders and their producer streams; a sender known only from objects the transport reported lost (no batch
     * yet) is kept too: its messages have no sequence numbers to count, so they are reported (count unknown) with
     * its first batch, or when it goes away or is forgotten.
     */
    private final SenderStates senders;
    private final List<Fjm2MessageConsumer> scratch = new ArrayList<>();
    /** Listener threads to wake once the batch being processed is queued. */
    private final PendingWakes wakes = new PendingWakes();
    private final StoreAckFlyweight storeAck = new StoreAckFlyweight();
    /** Set before the transport starts (then only read on the receive thread). */
    private StoreAcknowledgements storeAcknowledgements = (node, ack) -> { };
    private final StoreReplayFlyweight replay = new StoreReplayFlyweight();
    private final MessageHeaderFlyweight replayedHeader = new MessageHeaderFlyweight();
    /** Set before the transport starts; null: no late joins to serve. */
    private LateJoins lateJoins;
    /** Set before the transport starts; null: no durable subscriptions to serve. */
    private DurableSubscriptions durables;
    /** Set before the transport starts; null: no shared subscriptions to serve. */
    private SharedSubscriptions shared;
    private final SharedMemberFlyweight sharedMember = new SharedMemberFlyweight();
    private long ownEpoch;
    private final LossReports losses;
    private final LogLimiter malformedLog;
    private final LogLimiter implausibleLog;
    /** A squelch can cost hundreds of objects at once: one line a second, with the objects since the last line. */
    private final LogLimiter lossLog;
    private long objectsLostSinceLine;
    /** When the event at hand arrived (the clock is read once per object, not per record). */
    private long nowNanos;

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
        this.limits = limits;
        this.nanoClock = nanoClock;
        // A sender that started after this (our start plus the clock skew allowed) was heard from its first message.
        this.senders = new SenderStates(limits, startMillis + clockSkewMillis, counters, this::reportForgotten,
                nanoClock);
        this.losses = new LossReports(counters, subscriptions, owner, nanoClock);
        this.malformedLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, nanoClock);
        this.implausibleLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, nanoClock);
        this.lossLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, nanoClock);
    }

    /** Who hears the stores' acknowledgements; call before the transport starts. */
    void storeAcknowledgements(StoreAcknowledgements listener) {
        this.storeAcknowledgements = listener;
    }

    /** Who waits for the stores' answers to late joins, and this connection's epoch (for noLocal). */
    void lateJoins(LateJoins joins, long epoch) {
        this.lateJoins = joins;
        this.ownEpoch = epoch;
    }

    /** Who waits for the stores' answers to durable subscription requests. */
    void durableSubscriptions(DurableSubscriptions durableSubscriptions) {
        this.durables = durableSubscriptions;
    }

    /** Who hears the members of shared subscriptions. */
    void sharedSubscriptions(SharedSubscriptions sharedSubscriptions) {
        this.shared = sharedSubscriptions;
    }

    /** Senders remembered (for tests). */
    int trackedSenders() {
        return senders.senderCount();
    }

    /** Producer streams remembered, over all senders (for tests). */
    int trackedStreams() {
        return senders.streamCount();
    }

    /** Every event starts here: the time it arrived, and the expiry of what was not heard for long. */
    private void arrived() {
        nowNanos = nanoClock.getAsLong();
        senders.sweepIfDue(nowNanos);
    }

    @Override
    public void onObject(int senderNodeId, ByteBuf object) {
        try {
            arrived();
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
        int first = BatchFraming.check(buf, batchHeader);
        long epoch = batchHeader.epoch();
        int count = batchHeader.recordCount();
        SenderState state = senders.sender(sender, nowNanos);
        if (!state.hasEpoch || state.epoch != epoch) {
            reportPendingLoss(state, state.hasEpoch
                    ? "from the sender's previous connection, not revealed by any later message of it"
                    : "before the first message received from this sender");
            senders.startEpoch(state, epoch, batchHeader.senderStartMillis());
        }
        for (int i = 0, pos = first; i < count; i++) {
            int length = buf.getInt(pos);
            processRecord(sender, state, buf, pos, length);
            pos += length;
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
        if (sequence < 1) {
            counters.malformedMessages.increment();
            return;
        }
        ProducerStream stream = senders.stream(state, producer, priority, nowNanos);
        long previous = stream.last();
        long verdict = stream.accept(sequence, state.heardFromStart, limits.maxSequenceJump());
        if (verdict == ProducerStream.DUPLICATE) {
            counters.duplicatesDiscarded.increment();
            return;
        }
        if (verdict == ProducerStream.IMPLAUSIBLE) {
            dropImplausible(sender, producer, priority, sequence, previous);
            return;
        }
        if (ControlRecords.isAck(buf, header.topicOffset(), topicLength)) {
            // Control traffic of the stores, not a message for consumers; acknowledgements are cumulative ranges,
            // so a lost one costs nothing the next does not bring (no loss report to the application).
            acceptStoreAck(sender, buf, pos, length);
            return;
        }
        if (ControlRecords.isReplay(buf, header.topicOffset(), topicLength)) {
            acceptReplay(sender, buf, pos, length);
            return;
        }
        if (ControlRecords.isShared(buf, header.topicOffset(), topicLength)) {
            acceptSharedMember(sender, buf, pos, length);
            return;
        }
        if (ControlRecords.isRequest(buf, header.topicOffset(), topicLength)
                || ControlRecords.isDurable(buf, header.topicOffset(), topicLength)) {
            return; // for the stores
        }
        SubscriptionTable.Subscription subscription = subscriptions.lookup(buf, header.topicOffset(), topicLength);
        if (verdict != 0) {
            String topic = subscription != null ? subscription.topic().name()
                    : buf.toString(header.topicOffset(), topicLength, StandardCharsets.UTF_8);
            String reason = verdict == ProducerStream.RESTARTED ? restartReason(previous, sequence)
                    : previous == 0 ? START_OF_STREAM_LOST
                    : state.lossReason != null ? state.lossReason : "gap in the producer's sequence numbers";
            // A gap (or a new start) accounts for the objects the transport reported lost.
            state.pendingLostObjects = 0;
            losses.report(new MessagesLostException(topic, sender, producer, priority,
                    verdict == ProducerStream.RESTARTED ? -1 : verdict, reason));
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
        subscription.fanOut(message, false, deliveryTime, scratch, wakes);
    }

    private void acceptSharedMember(int sender, ByteBuf buf, int pos, int length) {
        if (shared == null) {
            return;
        }
        try {
            shared.heard(sharedMember.wrap(buf, pos, length));
        } catch (MalformedWireException e) {
            malformedRecord(sender, "shared subscription record", e);
        }
    }

    /** A control record that does not parse: counted, logged at most once a second, dropped. */
    private void malformedRecord(int sender, String what, MalformedWireException e) {
        counters.malformedMessages.increment();
        if (malformedLog.allow()) {
            LOG.warn("dropped a malformed {} from node {}: {} ({} more malformed since the last line)", what,
                    Integer.toUnsignedString(sender), e.getMessage(), malformedLog.takeSuppressed());
        }
    }

    private void acceptStoreAck(int sender, ByteBuf buf, int pos, int length) {
        try {
            storeAcknowledgements.onAck(sender, storeAck.wrap(buf, pos, length));
        } catch (MalformedWireException e) {
            malformedRecord(sender, "store acknowledgement", e);
        }
    }

    /**
     * A store's answer to a late join: if it is for one of this connection's consumers, its messages are decoded and
     * handed to the join, which switches the consumer to live messages once the answer is complete.
     */
    private void acceptReplay(int store, ByteBuf buf, int pos, int length) {
        LateJoin join;
        List<LateJoin.Held> messages = new ArrayList<>();
        try {
            replay.wrapReplay(buf, pos, length);
            if (durables != null && durables.confirm(replay.requesterNode(), replay.replayRequestId(),
                    replay.flags())) {
                return;
            }
            join = lateJoins == null ? null : lateJoins.find(replay.requesterNode(), replay.replayRequestId());
            if (join == null) {
                return;
            }
            LateJoin.Target consumer = join.target();
            byte[] topic = consumer.topic().utf8();
            while (replay.nextEntry()) {
                int at = replay.entryRecordOffset();
                replayedHeader.wrap(buf, at);
                if (!ControlRecords.isTopic(buf, replayedHeader.topicOffset(), replayedHeader.topicLength(), topic)
                        || expired(replayedHeader)) {
                    continue;
                }
                Fjm2Message m = decoder.decode(buf, at, replay.entryRecordLength(), consumer.topic(),
                        replay.entryEpoch());
                if (consumer.wantsReplayed(m, replay.entryEpoch() == ownEpoch)) {
                    if (replay.entryRedelivered()) {
                        SessionAcknowledgements.markRedelivered(m);     // a durable subscriber was handed it before
                    }
                    messages.add(new LateJoin.Held(m, replayedHeader.deliveryTime()));
                }
            }
        } catch (MalformedWireException | RuntimeException e) {
            counters.malformedMessages.increment();
            if (malformedLog.allow()) {
                LOG.warn("dropped a malformed store answer from node {}: {} ({} more malformed since the last line)",
                        Integer.toUnsignedString(store), e.toString(), malformedLog.takeSuppressed());
            }
            return;
        }
        boolean incomplete = (replay.flags() & StoreReplayFlyweight.FLAG_INCOMPLETE) != 0;
        boolean otherKind = (replay.flags() & StoreReplayFlyweight.FLAG_OTHER_KIND) != 0;
        if (join.replayed(store, messages, replay.last(), incomplete, otherKind)) {
            lateJoins.finished(join);
            if (join.incomplete()) {
                losses.report(new MessagesLostException(join.target().topic().name(), store, 0, 0, -1,
                        "the store's answer to a returning durable subscriber lacks messages it no longer held "
                                + "(retention, or its memory bound for durable subscriptions)"));
            }
        }
    }

    private static boolean expired(MessageHeaderFlyweight record) {
        long expiration = record.expiration();
        return expiration != 0 && System.currentTimeMillis() >= expiration;
    }

    /** A malformed input's reason is its message; anything else is named by its class too. */
    private static String describe(Exception e) {
        return e instanceof MalformedWireException ? e.getMessage() : e.toString();
    }

    private String restartReason(long previous, long sequence) {
        return "the producer's sequence number moved from " + (previous == 0 ? "the start of its stream" : previous)
                + " to " + sequence + ", further than the " + limits.maxSequenceJump() + " a step may take: it "
                + "numbered again, lost more messages than that, or a forged number came first; counting continues "
                + "from " + sequence;
    }

    /** Counted and logged (a line a second at most), not reported as loss: it may be forged. */
    private void dropImplausible(int sender, int producer, int priority, long sequence, long previous) {
        counters.implausibleSequences.increment();
        if (implausibleLog.allow()) {
            LOG.warn("dropped a message from node {}, producer {}, priority {}: its sequence number {} is further than"
                            + " {} from the last one, {} (forged or corrupted, or the producer numbers again or lost"
                            + " that many: then the next message continues from it and the stream moves there) ({}"
                            + " more since the last line)", Integer.toUnsignedString(sender),
                    Integer.toHexString(producer), priority, sequence, limits.maxSequenceJump(), previous,
                    implausibleLog.takeSuppressed());
        }
    }

    @Override
    public void onObjectsLost(int senderNodeId, int objectCount, String reason) {
        try {
            arrived();
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
        SenderState state = senders.sender(senderNodeId, nowNanos);
        state.pendingLostObjects += objectCount;
        state.lossReason = reason;
        objectsLostSinceLine += objectCount;
        if (lossLog.allow()) {
            LOG.warn("{} object(s) lost for good (last from node {}: {}); the messages are counted and reported "
                    + "per producer", objectsLostSinceLine, Integer.toUnsignedString(senderNodeId), reason);
            objectsLostSinceLine = 0;
            lossLog.takeSuppressed();
        }
    }

    /**
     * Objects the transport reported lost whose messages no sequence gap revealed, now that none will (a new epoch,
     * or the sender is forgotten): reported with an unknown count, as no sequence numbers tell how many messages
     * they held.
     */
    private void reportPendingLoss(SenderState state, String when) {
        if (state.pendingLostObjects == 0) {
            return;
        }
        losses.report(new MessagesLostException(null, state.nodeId(), 0, 0, -1, state.pendingLostObjects
                + " object(s) lost " + when + " (" + state.lossReason + ")"));
        state.pendingLostObjects = 0;
    }

    /** @param why follows "the sender", e.g. "went away" */
    private void reportForgotten(SenderState state, String why) {
        reportPendingLoss(state, state.hasEpoch ? "before the sender " + why
                : "before the first message received from this sender, which " + why);
    }

    @Override
    public void onSenderGone(int senderNodeId) {
        try {
            arrived();
            SenderState state = senders.find(senderNodeId);
            if (state != null) {
                senders.forget(state, "went away");
            }
        } catch (RuntimeException e) {
            receiveFailure("a sender's departure", senderNodeId, e);
        }
    }
}
