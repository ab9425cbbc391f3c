package org.fjm2.store;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.wire.BatchFraming;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.ControlRecords;
import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.fjm2.norm.util.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The store's receive path, on the transport's receive thread: checks each batch's framing (as every FJM2 receiver
 * does, {@link BatchFraming}), follows every producer stream ({@link StreamTracker}), and hands each PERSISTENT
 * message of a kept topic, as the publisher encoded it, to the journal writer. Messages are never decoded beyond
 * their fixed header and topic: the store keeps bytes. Malformed input is counted and dropped.
 */
final class StoreReceiver implements ObjectListener {

    private static final Logger LOG = LoggerFactory.getLogger(StoreReceiver.class);

    private final TopicPattern topics;
    private final JournalTasks writer;
    private final StoreCounters counters;
    private final StreamTracker streams = new StreamTracker();
    private final BatchHeaderFlyweight batchHeader = new BatchHeaderFlyweight();
    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private final StoreReplayFlyweight request = new StoreReplayFlyweight();
    private final DurableSubscriptionFlyweight durableRecord = new DurableSubscriptionFlyweight();
    private final LogLimiter malformedLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private final LogLimiter lossLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    /** Longest topic pattern a peer store's catch-up request may name. */
    static final int MAX_PEER_PATTERN_CHARS = 1024;
    /** Most wildcards in it. */
    static final int MAX_PEER_PATTERN_WILDCARDS = 16;
    /** This store's catch-up while it runs (set before the transport starts delivering); null: none. */
    private volatile CatchUp catchUp;
    /** Set by close: what arrives from then on is neither stored nor acknowledged. */
    private volatile boolean stopped;

    StoreReceiver(TopicPattern topics, JournalTasks writer, StoreCounters counters) {
        this.topics = topics;
        this.writer = writer;
        this.counters = counters;
    }

    /** Journals what the peers' answer to this catch-up brings (and tells it what arrives live meanwhile). */
    void catchingUp(CatchUp c) {
        this.catchUp = c;
    }

    /** Takes nothing more, so that the journal writer can finish what it has and the last acks go out. */
    void stop() {
        stopped = true;
    }

    @Override
    public void onObject(int senderNodeId, ByteBuf object) {
        if (stopped) {
            return;
        }
        try {
            int pos = BatchFraming.check(object, batchHeader);
            long epoch = batchHeader.epoch();
            int count = batchHeader.recordCount();
            for (int i = 0; i < count; i++) {
                int length = object.getInt(pos);
                record(senderNodeId, epoch, object, pos, length);
                pos += length;
            }
        } catch (MalformedWireException | RuntimeException e) {
            malformed(senderNodeId, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closing
        }
    }

    private void record(int sender, long epoch, ByteBuf buf, int pos, int length) throws InterruptedException {
        header.wrap(buf, pos);
        int priority = header.priority();
        int topicLength = header.topicLength();
        long sequence = header.sequence();
        if (priority > 9 || sequence < 1 || MessageHeaderFlyweight.FIXED_LENGTH + topicLength > length) {
            malformed(sender, "record with priority " + priority + ", sequence " + sequence);
            return;
        }
        if (ControlRecords.isAck(buf, header.topicOffset(), topicLength)) {
            return; // another store's traffic
        }
        if (ControlRecords.isReplay(buf, header.topicOffset(), topicLength)) {
            replay(sender, buf, pos, length); // a peer's answer to this store's catch-up, or another's traffic
            return;
        }
        if (ControlRecords.isRequest(buf, header.topicOffset(), topicLength)) {
            request(sender, buf, pos, length);
            return;
        }
        if (ControlRecords.isDurable(buf, header.topicOffset(), topicLength)) {
            durable(sender, buf, pos, length);
            return;
        }
        StreamKey stream = new StreamKey(sender, epoch, header.producerId(), priority);
        long runStart = streams.accept(stream, sequence);
        if (runStart == StreamTracker.DUPLICATE) {
            counters.duplicates.increment();
            return;
        }
        if ((header.flags() & MessageHeaderFlyweight.FLAG_PERSISTENT) == 0) {
            counters.messagesNotKept.increment();
            return;
        }
        if (!topics.matches(buf.toString(header.topicOffset(), topicLength, StandardCharsets.UTF_8))) {
            streams.notKept(stream, sequence);
            counters.messagesNotKept.increment();
            return;
        }
        CatchUp c = catchUp;
        if (c != null) {
            c.live(stream, sequence);
        }
        byte[] journalRecord = JournalRecordCodec.encode(sender, epoch, System.currentTimeMillis(), buf, pos,
                length);
        writer.submit(new PendingWrite(stream, runStart, sequence, journalRecord));
    }

    /** A connection's late join: answered by the journal writer, which holds the topics' newest messages. */
    private void request(int sender, ByteBuf buf, int pos, int length) throws InterruptedException {
        try {
            request.wrapRequest(buf, pos, length);
        } catch (MalformedWireException e) {
            malformed(sender, e.getMessage());
            return;
        }
        if (request.isCatchUp()) {
            catchUpRequest(sender);
            return;
        }
        if (!topics.matches(request.requestTopic())) {
            return; // a topic this store does not keep: its empty answer would hide a store's that keeps it
        }
        writer.submit(new ReplayRequest(sender, request.requestId(), request.requestTopic(),
                request.requestCount(), System.currentTimeMillis() + JournalWriter.LATE_JOIN_SETTLE_MILLIS, 0));
    }

    /**
     * A peer store's catch-up request: answered by the journal writer from what it holds. Its topic pattern is
     * bounded before it is compiled (a pattern of many wildcards would cost the matcher time per message).
     */
    private void catchUpRequest(int sender) throws InterruptedException {
        String pattern = request.requestTopic();
        long wildcards = pattern.chars().filter(ch -> ch == '*').count();
        if (pattern.length() > MAX_PEER_PATTERN_CHARS || wildcards > MAX_PEER_PATTERN_WILDCARDS) {
            malformed(sender, "catch-up request with a topic pattern of " + pattern.length() + " characters and "
                    + wildcards + " wildcards");
            return;
        }
        TopicPattern topics;
        try {
            topics = TopicPattern.parse(pattern);
        } catch (IllegalArgumentException e) {
            malformed(sender, "catch-up request: " + e.getMessage());
            return;
        }
        writer.submit(new CatchUpRequest(sender, request.requestId(), topics, request.catchUpSinceMillis()));
    }

    /** A replay record: journals what this store lacks of a peer's answer to its catch-up, ignores the rest. */
    private void replay(int sender, ByteBuf buf, int pos, int length) throws InterruptedException {
        CatchUp c = catchUp;
        if (c == null || c.finished()) {
            return;
        }
        List<PendingWrite> writes;
        try {
            writes = c.answer(buf, pos, length, System.currentTimeMillis());
        } catch (MalformedWireException e) {
            malformed(sender, e.getMessage());
            return;
        }
        if (writes == null) {
            return;
        }
        for (PendingWrite w : writes) {
            writer.submit(w);
        }
        counters.messagesCaughtUp.add(writes.size());
        if (c.lastRecordRead()) {
            c.answerEnded();
        }
    }

    /**
     * A durable subscription record, of a connection or of a peer store catching this one up: for the journal
     * writer, which owns the subscriptions.
     */
    private void durable(int sender, ByteBuf buf, int pos, int length) throws InterruptedException {
        try {
            durableRecord.wrap(buf, pos, length);
        } catch (MalformedWireException e) {
            malformed(sender, e.getMessage());
            return;
        }
        if (durableRecord.topic() != null && !topics.matches(durableRecord.topic())) {
            return; // a subscription on a topic this store does not keep: stores that keep it answer
        }
        List<DurableRequest.Position> positions = new ArrayList<>(durableRecord.entryCount());
        for (int i = 0; i < durableRecord.entryCount(); i++) {
            positions.add(new DurableRequest.Position(new PositionKey(durableRecord.entryEpoch(i),
                    durableRecord.entryProducer(i), durableRecord.entryPriority(i)), durableRecord.entrySequence(i)));
        }
        boolean subscribe = durableRecord.type() == DurableSubscriptionFlyweight.TYPE_SUBSCRIBE;
        writer.submit(new DurableRequest(durableRecord.type(), sender, durableRecord.requestId(),
                new SubscriptionKey(durableRecord.clientId(), durableRecord.name()), durableRecord.topic(),
                durableRecord.selector(), durableRecord.noLocal(), durableRecord.shared(), positions,
                System.currentTimeMillis() + JournalWriter.LATE_JOIN_SETTLE_MILLIS,
                subscribe ? DurableRequest.incarnationOf(sender, durableRecord.requestId())
                        : durableRecord.incarnation(),
                subscribe ? durableRecord.sentMillis() : durableRecord.createdMillis()));
    }

    private void malformed(int sender, String what) {
        counters.malformed.increment();
        if (malformedLog.allow()) {
            LOG.warn("dropped malformed input from node {}: {} ({} more since the last line)",
                    Integer.toUnsignedString(sender), what, malformedLog.takeSuppressed());
        }
    }

    @Override
    public void onObjectsLost(int senderNodeId, int objectCount, String reason) {
        counters.objectsLost.add(objectCount);
        if (lossLog.allow()) {
            LOG.warn("{} object(s) of node {} never reached the store ({}): their messages are not stored and not "
                    + "acknowledged ({} more reports since the last line)", objectCount,
                    Integer.toUnsignedString(senderNodeId), reason, lossLog.takeSuppressed());
        }
    }

    @Override
    public void onSenderGone(int senderNodeId) {
        // Its streams age out of the tracker; a sender that comes back starts a new epoch.
    }
}
