package org.fjm2.jms.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** Late join's records: what is written reads back; what does not frame is refused before use. */
class StoreReplayFlyweightTest {

    static byte[] messageRecord(String topic, long sequence) {
        ByteBuf buf = Unpooled.buffer();
        int start = ControlRecords.beginRecord(buf, topic.getBytes(), 3, 4, sequence, 0);
        buf.writeBytes(new byte[] {1, 2, 3});
        ControlRecords.endRecord(buf, start);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    @Test
    void aRequestReadsBack() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        StoreReplayFlyweight.writeRequest(buf, 7, 0, 42, 10, "prices.eu");
        MessageHeaderFlyweight header = new MessageHeaderFlyweight().wrap(buf, 0);
        assertThat(ControlRecords.isRequest(buf, header.topicOffset(), header.topicLength())).isTrue();
        StoreReplayFlyweight r = new StoreReplayFlyweight().wrapRequest(buf, 0, buf.readableBytes());
        assertThat(r.requestId()).isEqualTo(42);
        assertThat(r.requestCount()).isEqualTo(10);
        assertThat(r.requestTopic()).isEqualTo("prices.eu");
        assertThatThrownBy(() -> new StoreReplayFlyweight().wrapRequest(buf, 0, buf.readableBytes() - 1))
                .isInstanceOf(MalformedWireException.class);
    }

    @Test
    void aStoresCatchUpRequestReadsBackWithItsTimeAndNoOtherNegativeCountIsAccepted() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        StoreReplayFlyweight.writeCatchUpRequest(buf, 2, 1, 43, "orders.>", 1_764_000_000_000L);
        StoreReplayFlyweight r = new StoreReplayFlyweight().wrapRequest(buf, 0, buf.readableBytes());
        assertThat(r.isCatchUp()).isTrue();
        assertThat(r.requestId()).isEqualTo(43);
        assertThat(r.requestTopic()).isEqualTo("orders.>");
        assertThat(r.catchUpSinceMillis()).isEqualTo(1_764_000_000_000L);
        assertThatThrownBy(() -> new StoreReplayFlyweight().wrapRequest(buf, 0, buf.readableBytes() - 1))
                .isInstanceOf(MalformedWireException.class);

        MessageHeaderFlyweight header = new MessageHeaderFlyweight().wrap(buf, 0);
        int countAt = header.topicOffset() + header.topicLength() + 9;
        buf.setInt(countAt, -2);
        assertThatThrownBy(() -> new StoreReplayFlyweight().wrapRequest(buf, 0, buf.readableBytes()))
                .isInstanceOf(MalformedWireException.class);

        ByteBuf lateJoin = Unpooled.buffer();
        StoreReplayFlyweight.writeRequest(lateJoin, 7, 0, 42, 10, "prices.eu");
        assertThat(new StoreReplayFlyweight().wrapRequest(lateJoin, 0, lateJoin.readableBytes()).isCatchUp())
                .isFalse();
    }

    @Test
    void aReplayReadsBackEntryByEntry() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        byte[] first = messageRecord("t", 1);
        byte[] second = messageRecord("t", 2);
        int start = StoreReplayFlyweight.beginReplay(buf, 1, 42, 99, "store-a");
        StoreReplayFlyweight.writeEntry(buf, 5, 6L, first);
        StoreReplayFlyweight.writeEntry(buf, 5, 6L, StoreReplayFlyweight.ENTRY_REDELIVERED, second);
        StoreReplayFlyweight.endReplay(buf, start, 2, true, 2 * StoreReplayFlyweight.ENTRY_OVERHEAD + first.length
                + second.length);
        StoreReplayFlyweight r = new StoreReplayFlyweight().wrapReplay(buf, 0, buf.readableBytes());
        assertThat(r.replayRequestId()).isEqualTo(42);
        assertThat(r.requesterNode()).isEqualTo(99);
        assertThat(r.storeName()).isEqualTo("store-a");
        assertThat(r.last()).isTrue();
        assertThat(r.entryCount()).isEqualTo(2);
        assertThat(r.nextEntry()).isTrue();
        assertThat(r.entryNode()).isEqualTo(5);
        assertThat(r.entryEpoch()).isEqualTo(6L);
        assertThat(r.entryRecordLength()).isEqualTo(first.length);
        assertThat(r.entryRedelivered()).isFalse();
        assertThat(new MessageHeaderFlyweight().wrap(buf, r.entryRecordOffset()).sequence()).isEqualTo(1);
        assertThat(r.nextEntry()).isTrue();
        assertThat(r.entryRedelivered()).as("the second entry's flag").isTrue();
        assertThat(new MessageHeaderFlyweight().wrap(buf, r.entryRecordOffset()).sequence()).isEqualTo(2);
        assertThat(r.nextEntry()).isFalse();
    }

    @Test
    void anEntryWhoseRecordDoesNotFrameIsRefused() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        byte[] record = messageRecord("t", 1);
        record[3]++; // the record's own length no longer matches the entry's
        int start = StoreReplayFlyweight.beginReplay(buf, 1, 42, 99, "s");
        StoreReplayFlyweight.writeEntry(buf, 5, 6L, record);
        StoreReplayFlyweight.endReplay(buf, start, 1, true, StoreReplayFlyweight.ENTRY_OVERHEAD + record.length);
        StoreReplayFlyweight r = new StoreReplayFlyweight().wrapReplay(buf, 0, buf.readableBytes());
        assertThatThrownBy(r::nextEntry).isInstanceOf(MalformedWireException.class).hasMessageContaining("frame");
    }
}
