package org.fjm2.jms.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The durable subscription records: what is written reads back, and lengths and counts are checked. */
class DurableSubscriptionFlyweightTest {

    private static DurableSubscriptionFlyweight read(ByteBuf record) throws MalformedWireException {
        return new DurableSubscriptionFlyweight().wrap(record, 0, record.writerIndex());
    }

    @Test
    void subscribePositionAndUnsubscribeReadBack() throws Exception {
        ByteBuf b = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeSubscribe(b, 3, 42, "client", "name", "orders", "a > 1", true, false);
        DurableSubscriptionFlyweight d = read(b);
        assertThat(d.type()).isEqualTo(DurableSubscriptionFlyweight.TYPE_SUBSCRIBE);
        assertThat(d.requestId()).isEqualTo(42);
        assertThat(d.clientId()).isEqualTo("client");
        assertThat(d.name()).isEqualTo("name");
        assertThat(d.topic()).isEqualTo("orders");
        assertThat(d.selector()).isEqualTo("a > 1");
        assertThat(d.noLocal()).isTrue();
        assertThat(d.shared()).isFalse();

        b = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeSubscribe(b, 3, 0, "", "name", "orders", null, false, true);
        d = read(b);
        assertThat(d.clientId()).as("a shared durable subscription may have no client id").isEmpty();
        assertThat(d.selector()).isNull();
        assertThat(d.noLocal()).isFalse();
        assertThat(d.shared()).isTrue();

        b = Unpooled.buffer();
        int start = DurableSubscriptionFlyweight.beginPosition(b, 3, 7, "client", "name");
        DurableSubscriptionFlyweight.writePositionEntry(b, -5L, 9, 4, 123);
        DurableSubscriptionFlyweight.writePositionEntry(b, 6L, 10, 9, Long.MAX_VALUE);
        DurableSubscriptionFlyweight.endPosition(b, start, 2);
        d = read(b);
        assertThat(d.type()).isEqualTo(DurableSubscriptionFlyweight.TYPE_POSITION);
        assertThat(d.entryCount()).isEqualTo(2);
        assertThat(d.entryEpoch(0)).isEqualTo(-5L);
        assertThat(d.entryProducer(0)).isEqualTo(9);
        assertThat(d.entryPriority(0)).isEqualTo(4);
        assertThat(d.entrySequence(0)).isEqualTo(123);
        assertThat(d.entrySequence(1)).isEqualTo(Long.MAX_VALUE);
        DurableSubscriptionFlyweight read = d;
        assertThatThrownBy(() -> read.entryEpoch(2)).isInstanceOf(IndexOutOfBoundsException.class);

        b = Unpooled.buffer();
        start = DurableSubscriptionFlyweight.beginEntries(b, 3, DurableSubscriptionFlyweight.TYPE_DELIVERED, 0,
                "client", "name");
        DurableSubscriptionFlyweight.writePositionEntry(b, 8L, 11, 4, 77);
        DurableSubscriptionFlyweight.endPosition(b, start, 1);
        d = read(b);
        assertThat(d.type()).as("a delivered record").isEqualTo(DurableSubscriptionFlyweight.TYPE_DELIVERED);
        assertThat(d.entryCount()).isEqualTo(1);
        assertThat(d.entrySequence(0)).isEqualTo(77);
        ByteBuf other = Unpooled.buffer();
        assertThatThrownBy(() -> DurableSubscriptionFlyweight.beginEntries(other, 3,
                DurableSubscriptionFlyweight.TYPE_SUBSCRIBE, 0, "client", "name"))
                .isInstanceOf(IllegalArgumentException.class);

        b = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeUnsubscribe(b, 3, 8, "client", "name");
        assertThat(read(b).type()).isEqualTo(DurableSubscriptionFlyweight.TYPE_UNSUBSCRIBE);

        b = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeHold(b, 3, true, 0, "client", "name");
        d = read(b);
        assertThat(d.type()).as("still held").isEqualTo(DurableSubscriptionFlyweight.TYPE_HELD);
        assertThat(d.name()).isEqualTo("name");
        b = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeHold(b, 3, false, 12, "", "name");
        d = read(b);
        assertThat(d.type()).as("released by a close").isEqualTo(DurableSubscriptionFlyweight.TYPE_RELEASED);
        assertThat(d.requestId()).isEqualTo(12);
        assertThat(d.clientId()).isEmpty();
        ByteBuf longer = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeHold(longer, 3, true, 0, "client", "name");
        longer.writeByte(0);
        longer.setInt(MessageHeaderFlyweight.RECORD_LENGTH_OFFSET, longer.writerIndex());
        assertThatThrownBy(() -> read(longer)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("1 bytes after the name");

        b = Unpooled.buffer(); // a store's copy of a position for a peer catching up: numbered by the store
        start = DurableSubscriptionFlyweight.beginNumberedEntries(b, 2, 41,
                DurableSubscriptionFlyweight.TYPE_POSITION, "client", "name");
        DurableSubscriptionFlyweight.writePositionEntry(b, 8L, 11, 4, 90);
        DurableSubscriptionFlyweight.endPosition(b, start, 1);
        assertThat(new MessageHeaderFlyweight().wrap(b, 0).sequence()).isEqualTo(41);
        d = read(b);
        assertThat(d.type()).isEqualTo(DurableSubscriptionFlyweight.TYPE_POSITION);
        assertThat(d.requestId()).as("no answer wanted").isZero();
        assertThat(d.entrySequence(0)).isEqualTo(90);
    }

    @Test
    void aStoresDefinitionAndRemovedRecordsReadBack() throws Exception {
        ByteBuf b = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeDefinition(b, 2, 43, "client", "name", "orders", "a > 1", true, true,
                -7L, 1_700_000_000_123L);
        assertThat(new MessageHeaderFlyweight().wrap(b, 0).sequence()).as("numbered by the store").isEqualTo(43);
        DurableSubscriptionFlyweight d = read(b);
        assertThat(d.type()).isEqualTo(DurableSubscriptionFlyweight.TYPE_DEFINITION);
        assertThat(d.requestId()).isZero();
        assertThat(d.topic()).isEqualTo("orders");
        assertThat(d.selector()).isEqualTo("a > 1");
        assertThat(d.noLocal()).isTrue();
        assertThat(d.shared()).isTrue();
        assertThat(d.incarnation()).isEqualTo(-7L);
        assertThat(d.createdMillis()).isEqualTo(1_700_000_000_123L);

        b = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeRemoved(b, 2, 44, "client", "name", 9L, 5L);
        d = read(b);
        assertThat(d.type()).isEqualTo(DurableSubscriptionFlyweight.TYPE_REMOVED);
        assertThat(d.topic()).isNull();
        assertThat(d.incarnation()).isEqualTo(9L);
        assertThat(d.createdMillis()).isEqualTo(5L);

        ByteBuf subscribe = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeSubscribe(subscribe, 3, 42, "client", "name", "orders", null, false, false);
        assertThat(read(subscribe).incarnation()).as("a subscribe carries none").isZero();
        assertThat(read(subscribe).sentMillis()).isCloseTo(System.currentTimeMillis(),
                org.assertj.core.api.Assertions.within(60_000L));

        ByteBuf shortDefinition = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeDefinition(shortDefinition, 2, 45, "client", "name", "orders", null, false,
                false, 1, 2);
        ByteBuf cut = shortDefinition.copy(0, shortDefinition.writerIndex() - 1);
        cut.setInt(MessageHeaderFlyweight.RECORD_LENGTH_OFFSET, cut.writerIndex());
        assertThatThrownBy(() -> read(cut)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("not its incarnation");
    }

    @Test
    void hostileLengthsAndCountsAreRefused() {
        ByteBuf b = Unpooled.buffer();
        int start = DurableSubscriptionFlyweight.beginPosition(b, 3, 7, "client", "name");
        DurableSubscriptionFlyweight.writePositionEntry(b, 1L, 1, 1, 1);
        DurableSubscriptionFlyweight.endPosition(b, start, 1);
        ByteBuf lying = b.copy();
        lying.setInt(lying.writerIndex() - DurableSubscriptionFlyweight.POSITION_ENTRY_LENGTH - 4, 1_000_000);
        assertThatThrownBy(() -> read(lying)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("announces 1000000 entries");
        ByteBuf truncated = b.copy(0, b.writerIndex() - 1);
        truncated.setInt(MessageHeaderFlyweight.RECORD_LENGTH_OFFSET, truncated.writerIndex());
        assertThatThrownBy(() -> new DurableSubscriptionFlyweight().wrap(truncated, 0, truncated.writerIndex()))
                .isInstanceOf(MalformedWireException.class);

        ByteBuf emptyName = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeUnsubscribe(emptyName, 3, 8, "client", "");
        assertThatThrownBy(() -> read(emptyName)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("subscription name of 0 bytes");

        ByteBuf unknownType = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeUnsubscribe(unknownType, 3, 8, "client", "n");
        MessageHeaderFlyweight h = new MessageHeaderFlyweight().wrap(unknownType, 0);
        unknownType.setByte(h.topicOffset() + h.topicLength() + 1, 9);
        assertThatThrownBy(() -> read(unknownType)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("unknown type 9");
    }
}
