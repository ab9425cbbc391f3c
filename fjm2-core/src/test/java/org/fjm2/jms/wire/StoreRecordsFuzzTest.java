package org.fjm2.jms.wire;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.fuzz.FuzzInput;
import org.fjm2.norm.fuzz.InputBounds;

/**
 * Fuzz target: the readers of the store traffic every connection and store decodes from the network — a store's
 * acknowledgement ({@link StoreAckFlyweight}), a late-join request and a store's answer with its embedded message
 * records ({@link StoreReplayFlyweight}), a durable subscription's subscribe, position, delivered or unsubscribe record or a store's definition or removed record
 * ({@link DurableSubscriptionFlyweight}), a shared subscription member's record ({@link SharedMemberFlyweight}).
 * The input is a control record's body behind a valid fixed part and
 * topic, so that the fuzzer spends its time in the bodies. Per input: only {@link MalformedWireException} comes out,
 * every accessor of what was accepted stays inside the record, and the work stays within {@link InputBounds}.
 */
class StoreRecordsFuzzTest {

    @FuzzTest
    void controlRecordBodies(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> {
            FuzzInput in = new FuzzInput(input);
            int kind = in.choice(5);
            byte[] body = in.bytes(in.remaining());
            ByteBuf record = Unpooled.buffer();
            int start = ControlRecords.beginRecord(record, kind == 0 ? ControlRecords.ACK_TOPIC_UTF8
                    : kind == 1 ? ControlRecords.REQUEST_TOPIC_UTF8 : kind == 2 ? ControlRecords.REPLAY_TOPIC_UTF8
                    : kind == 3 ? ControlRecords.DURABLE_TOPIC_UTF8 : ControlRecords.SHARED_TOPIC_UTF8, 1, 9, 1, 0);
            record.writeBytes(body);
            ControlRecords.endRecord(record, start);
            // The reader sees only the record: a copy of exactly its bytes, so that reading past it throws.
            ByteBuf exact = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(record));
            try {
                switch (kind) {
                    case 0 -> readAck(exact);
                    case 1 -> new StoreReplayFlyweight().wrapRequest(exact, 0, exact.capacity()).requestTopic();
                    case 2 -> readReplay(exact);
                    case 3 -> readDurable(exact);
                    default -> readShared(exact);
                }
            } catch (MalformedWireException expected) {
                // counted and dropped by the receive paths
            }
        });
    }

    private static void readAck(ByteBuf record) throws MalformedWireException {
        StoreAckFlyweight ack = new StoreAckFlyweight().wrap(record, 0, record.capacity());
        for (int i = 0; i < ack.entryCount(); i++) {
            ack.publisherNode(i);
            ack.publisherEpoch(i);
            ack.producerId(i);
            ack.priority(i);
            ack.firstSequence(i);
            ack.lastSequence(i);
        }
    }

    private static void readDurable(ByteBuf record) throws MalformedWireException {
        DurableSubscriptionFlyweight d = new DurableSubscriptionFlyweight().wrap(record, 0, record.capacity());
        d.clientId();
        d.name();
        d.topic();
        d.selector();
        d.requestId();
        d.incarnation();
        d.createdMillis();
        d.sentMillis();
        for (int i = 0; i < d.entryCount(); i++) {
            d.entryEpoch(i);
            d.entryProducer(i);
            d.entryPriority(i);
            d.entrySequence(i);
        }
        if (d.entryCount() > DurableSubscriptionFlyweight.MAX_POSITION_ENTRIES) {
            throw new AssertionError("more position entries than allowed: " + d.entryCount());
        }
    }

    private static void readShared(ByteBuf record) throws MalformedWireException {
        SharedMemberFlyweight m = new SharedMemberFlyweight().wrap(record, 0, record.capacity());
        m.clientId();
        m.name();
        m.topic();
        m.selector();
        if (m.activeFromMillis() < m.joinedMillis() || m.untilMillis() < m.joinedMillis()) {
            throw new AssertionError("times out of order accepted");
        }
        for (int i = 0; i < m.entryCount(); i++) {
            m.entryEpoch(i);
            m.entryProducer(i);
            m.entryPriority(i);
            m.entrySequence(i);
        }
        if (m.entryCount() > SharedMemberFlyweight.MAX_ENTRIES) {
            throw new AssertionError("more entries than allowed: " + m.entryCount());
        }
    }

    private static void readReplay(ByteBuf record) throws MalformedWireException {
        StoreReplayFlyweight replay = new StoreReplayFlyweight().wrapReplay(record, 0, record.capacity());
        MessageHeaderFlyweight header = new MessageHeaderFlyweight();
        while (replay.nextEntry()) {
            header.wrap(record, replay.entryRecordOffset());
            record.toString(header.topicOffset(), header.topicLength(), java.nio.charset.StandardCharsets.UTF_8);
            record.getByte(replay.entryRecordOffset() + replay.entryRecordLength() - 1);
            replay.entryNode();
            replay.entryEpoch();
            replay.entryRedelivered();
        }
        replay.storeName();
    }
}
