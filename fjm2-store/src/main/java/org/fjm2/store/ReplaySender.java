package org.fjm2.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Answers a late join: multicasts the messages as replay records ({@link StoreReplayFlyweight}) for the requesting
 * connection, in objects of at most {@link #MAX_OBJECT_BYTES}, the last one flagged. Used by the journal writer
 * thread, which owns the tails it answers from.
 */
final class ReplaySender {

    private static final Logger LOG = LoggerFactory.getLogger(ReplaySender.class);
    /** Largest answer object (capped by the transport's own limit). */
    static final int MAX_OBJECT_BYTES = 1 << 20;
    /** How long an answer may wait for room in the transport. */
    static final long SEND_TIMEOUT_MILLIS = 10_000;
    /** Batch and record header room in an answer object besides its entries. */
    private static final int HEADER_ROOM = 512;

    private final ObjectTransport transport;
    private final String storeName;
    private final long epoch;
    private final int maxObjectBytes;
    private long sequence;
    /**
     * Numbers the store's records at priority 4 (its catch-up request, the positions it sends a peer catching up):
     * their own producer stream, the store's producer id at that priority.
     */
    private final AtomicLong controlSequence = new AtomicLong();

    ReplaySender(ObjectTransport transport, String storeName, long epoch) {
        this.transport = transport;
        this.storeName = storeName;
        this.epoch = epoch;
        this.maxObjectBytes = Math.min(MAX_OBJECT_BYTES, transport.maxObjectSize());
    }

    /** A store's catch-up request to its peers ({@link CatchUp}); false when it could not be sent in time. */
    boolean sendCatchUpRequest(CatchUp catchUp, TopicPattern topics) throws InterruptedException {
        ByteBuf batch = PooledByteBufAllocator.DEFAULT.directBuffer(HEADER_ROOM + topics.toString().length() * 3);
        BatchHeaderFlyweight.writeEmpty(batch, epoch);
        StoreReplayFlyweight.writeCatchUpRequest(batch, StoreReplayFlyweight.STORE_PRODUCER_ID,
                controlSequence.incrementAndGet(),
                catchUp.requestId(), topics.toString(), catchUp.sinceMillis());
        return sendRecord(batch, StoreReplayFlyweight.PRIORITY);
    }

    /**
     * What a subscription is (topic, selector, noLocal, incarnation, creation), for a peer catching up: one made
     * while it was down is made there too. Before the subscription's position records.
     */
    void sendDefinition(Subscription s) throws InterruptedException {
        ByteBuf batch = PooledByteBufAllocator.DEFAULT.directBuffer(HEADER_ROOM + 3 * (s.key().clientId().length()
                + s.key().name().length() + s.topic().length() + (s.selector() == null ? 0 : s.selector().length())));
        BatchHeaderFlyweight.writeEmpty(batch, epoch);
        DurableSubscriptionFlyweight.writeDefinition(batch, StoreReplayFlyweight.STORE_PRODUCER_ID,
                controlSequence.incrementAndGet(), s.key().clientId(), s.key().name(), s.topic(), s.selector(),
                s.noLocal(), s.shared(), s.incarnation(), s.createdMillis());
        sendControl(batch, s, "definition");
    }

    /** A removed subscription's tombstone, for a peer catching up: its copy, if it has one, goes too. */
    void sendRemoved(Subscription tombstone) throws InterruptedException {
        ByteBuf batch = PooledByteBufAllocator.DEFAULT.directBuffer(HEADER_ROOM + 3 * (tombstone.key().clientId()
                .length() + tombstone.key().name().length()));
        BatchHeaderFlyweight.writeEmpty(batch, epoch);
        DurableSubscriptionFlyweight.writeRemoved(batch, StoreReplayFlyweight.STORE_PRODUCER_ID,
                controlSequence.incrementAndGet(), tombstone.key().clientId(), tombstone.key().name(),
                tombstone.incarnation(), tombstone.createdMillis());
        sendControl(batch, tombstone, "removal");
    }

    /** At the answer's transport priority, as the positions (see there). */
    private void sendControl(ByteBuf batch, Subscription s, String what) throws InterruptedException {
        if (!sendRecord(batch, StoreReplayFlyweight.PRIORITY)) {
            LOG.warn("the {} of durable subscription {} could not be sent to a peer within {} ms", what, s.key(),
                    SEND_TIMEOUT_MILLIS);
        }
    }

    /**
     * A subscription's whole position as position records (as its subscriber sends them): every store takes each
     * stream's number only when it is further than its own, so the peer catching up moves on and the others stay.
     */
    void sendPositions(Subscription s) throws InterruptedException {
        List<Map.Entry<PositionKey, Long>> entries = new ArrayList<>(s.positions().entrySet());
        for (int from = 0; from < entries.size(); from += DurableSubscriptionFlyweight.MAX_POSITION_ENTRIES) {
            int to = Math.min(entries.size(), from + DurableSubscriptionFlyweight.MAX_POSITION_ENTRIES);
            ByteBuf batch = PooledByteBufAllocator.DEFAULT.directBuffer(HEADER_ROOM + 2 * DurableSubscriptionFlyweight
                    .MAX_NAME_BYTES + (to - from) * DurableSubscriptionFlyweight.POSITION_ENTRY_LENGTH);
            BatchHeaderFlyweight.writeEmpty(batch, epoch);
            int record = DurableSubscriptionFlyweight.beginNumberedEntries(batch,
                    StoreReplayFlyweight.STORE_PRODUCER_ID, controlSequence.incrementAndGet(),
                    DurableSubscriptionFlyweight.TYPE_POSITION, s.key().clientId(), s.key().name());
            for (Map.Entry<PositionKey, Long> e : entries.subList(from, to)) {
                PositionKey k = e.getKey();
                DurableSubscriptionFlyweight.writePositionEntry(batch, k.epoch(), k.producer(), k.priority(),
                        e.getValue());
            }
            DurableSubscriptionFlyweight.endPosition(batch, record, to - from);
            // at the answer's transport priority: a higher one may overtake queued objects of a lower one, and the
            // peer must read the positions before the answer's end releases its acknowledgements
            if (!sendRecord(batch, StoreReplayFlyweight.PRIORITY)) {
                LOG.warn("the position of durable subscription {} could not be sent to a peer within {} ms", s.key(),
                        SEND_TIMEOUT_MILLIS);
                return;
            }
        }
    }

    /** Sends the messages (oldest first) in as few objects as fit; the last object is flagged, also when empty. */
    void answer(ReplayRequest request, List<StoredMessage> messages) throws InterruptedException {
        answer(request, messages, 0, m -> false);
    }

    /**
     * As above; the last object carries {@code flags} besides {@link StoreReplayFlyweight#FLAG_LAST} (a durable
     * subscription's answer: unknown subscription, incomplete).
     */
    void answer(ReplayRequest request, List<StoredMessage> messages, int flags) throws InterruptedException {
        answer(request, messages, flags, m -> false);
    }

    /** As above, the entries of the messages {@code redelivered} takes flagged {@code ENTRY_REDELIVERED}. */
    void answer(ReplayRequest request, List<StoredMessage> messages, int flags, Predicate<StoredMessage> redelivered)
            throws InterruptedException {
        List<StoredMessage> chunk = new ArrayList<>();
        int bytes = 0;
        for (StoredMessage m : messages) {
            int size = entryBytes(m);
            if (HEADER_ROOM + size > maxObjectBytes) {
                LOG.warn("answer to node {}: a stored message of {} bytes does not fit an answer of {} bytes; "
                        + "left out", Integer.toUnsignedString(request.requesterNode()), size, maxObjectBytes);
                continue;
            }
            if (HEADER_ROOM + bytes + size > maxObjectBytes) {
                send(request, chunk, 0, redelivered);
                chunk.clear();
                bytes = 0;
            }
            chunk.add(m);
            bytes += size;
        }
        send(request, chunk, StoreReplayFlyweight.FLAG_LAST | flags, redelivered);
    }

    private static int entryBytes(StoredMessage m) {
        return StoreReplayFlyweight.ENTRY_OVERHEAD + m.record().length;
    }

    private void send(ReplayRequest request, List<StoredMessage> entries, int flags,
                      Predicate<StoredMessage> redelivered) throws InterruptedException {
        int bytesOfEntries = 0;
        for (StoredMessage m : entries) {
            bytesOfEntries += entryBytes(m);
        }
        ByteBuf batch = PooledByteBufAllocator.DEFAULT.directBuffer(HEADER_ROOM + bytesOfEntries);
        BatchHeaderFlyweight.writeEmpty(batch, epoch);
        int record = StoreReplayFlyweight.beginReplay(batch, ++sequence, request.requestId(),
                request.requesterNode(), storeName);
        for (StoredMessage m : entries) {
            StoreReplayFlyweight.writeEntry(batch, m.node(), m.epoch(),
                    redelivered.test(m) ? StoreReplayFlyweight.ENTRY_REDELIVERED : 0, m.record());
        }
        StoreReplayFlyweight.endReplay(batch, record, entries.size(), flags, bytesOfEntries);
        if (!sendRecord(batch, StoreReplayFlyweight.PRIORITY)) {
            LOG.warn("answer to node {}: an answer of {} message(s) could not be sent within {} ms",
                    Integer.toUnsignedString(request.requesterNode()), entries.size(), SEND_TIMEOUT_MILLIS);
        }
    }

    /**
     * Sends a batch holding the one record written after its header (the transport takes the buffer); false when
     * it could not be sent within {@link #SEND_TIMEOUT_MILLIS} or the transport is closed.
     */
    private boolean sendRecord(ByteBuf batch, int priority) throws InterruptedException {
        new BatchHeaderFlyweight().wrap(batch, 0).recordCount(1);
        try {
            return transport.send(batch, priority, SEND_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException closed) {
            return false;
        }
    }
}
