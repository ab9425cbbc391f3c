package org.fjm2.store;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.fjm2.norm.fuzz.FuzzInput;
import org.fjm2.norm.fuzz.InputBounds;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Fuzz target: the store's receive path ({@link StoreReceiver}) while it catches up ({@link CatchUp}) — any object
 * from the network, a peer's answer addressed to this store's catch-up with fuzzed entries, and a peer's catch-up
 * request with a fuzzed topic pattern and time. Per input: nothing but counted drops comes out, whatever is handed
 * to the journal is a message record that frames (it decodes as the journal will read it back), and the work stays
 * within {@link InputBounds}.
 */
class StoreReceiverFuzzTest {

    static final int OWN_NODE = 11;
    static final int PEER_NODE = 12;
    /** Version, type, request id, then "c" and "n" with their lengths. */
    static final int UNSUBSCRIBE_BODY_BYTES = 1 + 1 + 8 + 3 + 3;

    @FuzzTest
    void objectsWhileCatchingUp(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> {
            FuzzInput in = new FuzzInput(input);
            List<JournalTask> handed = new ArrayList<>();
            StoreCounters counters = new StoreCounters();
            StoreReceiver receiver = new StoreReceiver(TopicPattern.parse("*"), handed::add, counters);
            CatchUp catchUp = new CatchUp(OWN_NODE, "self", TopicPattern.parse("*"), List.of());
            receiver.catchingUp(catchUp);
            ByteBuf object = switch (in.choice(4)) {
                case 0 -> Unpooled.wrappedBuffer(in.bytes(in.remaining()));
                case 1 -> answer(in, catchUp);
                case 2 -> catchUpRequest(in);
                default -> durableRecord(in);
            };
            receiver.onObject(PEER_NODE, object);
            for (JournalTask task : handed) {
                if (task instanceof PendingWrite write) {
                    StoredMessage m = JournalRecordCodec.decode(1, write.journalRecord());
                    if (m.sequence() != write.sequence() || !m.stream().equals(write.stream())) {
                        throw new AssertionError("a journal record that says another message than its write");
                    }
                } else if (task instanceof CatchUpRequest request && request.topics() == null) {
                    throw new AssertionError("a catch-up request without its topics");
                } else if (task instanceof DurableRequest request && (request.key() == null
                        || (request.type() == DurableSubscriptionFlyweight.TYPE_DEFINITION
                        && request.topic() == null))) {
                    throw new AssertionError("a durable request without its subscription");
                }
            }
        });
    }

    /** A batch holding one replay record answering this store's catch-up, its entries fuzzed. */
    private static ByteBuf answer(FuzzInput in, CatchUp catchUp) {
        int flags = in.u8();
        int count = in.u8();
        String store = new String(in.bytes(Math.min(in.remaining(), in.u8() % 16)), StandardCharsets.UTF_8);
        byte[] entries = in.bytes(in.remaining());
        ByteBuf batch = Unpooled.buffer();
        BatchHeaderFlyweight.writeEmpty(batch, 5L);
        int record = StoreReplayFlyweight.beginReplay(batch, 1, catchUp.requestId(), OWN_NODE, store);
        batch.writeBytes(entries);
        StoreReplayFlyweight.endReplay(batch, record, count, flags, entries.length);
        new BatchHeaderFlyweight().wrap(batch, 0).recordCount(1);
        return batch;
    }

    /** A batch holding one durable subscription record (a subscriber's or a peer store's), its body fuzzed. */
    private static ByteBuf durableRecord(FuzzInput in) {
        ByteBuf batch = Unpooled.buffer();
        BatchHeaderFlyweight.writeEmpty(batch, 5L);
        int start = batch.writerIndex();
        // an unsubscribe's fixed part and topic, its body (version 1, type, request id 0, "c", "n") replaced
        DurableSubscriptionFlyweight.writeUnsubscribe(batch, 2, 0, "c", "n");
        batch.writerIndex(batch.writerIndex() - UNSUBSCRIBE_BODY_BYTES);
        batch.writeBytes(in.bytes(in.remaining()));
        batch.setInt(start + MessageHeaderFlyweight.RECORD_LENGTH_OFFSET, batch.writerIndex() - start);
        new BatchHeaderFlyweight().wrap(batch, 0).recordCount(1);
        return batch;
    }

    /** A batch holding one peer's catch-up request, its pattern and time fuzzed. */
    private static ByteBuf catchUpRequest(FuzzInput in) {
        long since = in.u32() << 12;
        String pattern = new String(in.bytes(in.remaining()), StandardCharsets.UTF_8);
        ByteBuf batch = Unpooled.buffer();
        BatchHeaderFlyweight.writeEmpty(batch, 5L);
        StoreReplayFlyweight.writeCatchUpRequest(batch, 3, 1, 77, pattern, since);
        new BatchHeaderFlyweight().wrap(batch, 0).recordCount(1);
        return batch;
    }
}
