package org.fjm2.jms.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The shared subscription member records: what is written reads back; lengths, counts and times are checked. */
class SharedMemberFlyweightTest {

    private static SharedMemberFlyweight read(ByteBuf record) throws MalformedWireException {
        return new SharedMemberFlyweight().wrap(record, 0, record.writerIndex());
    }

    @Test
    void memberAndLeaveRecordsReadBack() throws Exception {
        ByteBuf b = Unpooled.buffer();
        int start = SharedMemberFlyweight.begin(b, 3, SharedMemberFlyweight.TYPE_MEMBER, -42L, 1000, 1300,
                Long.MAX_VALUE, "client", "work", "orders", "a > 1");
        SharedMemberFlyweight.writeEntry(b, -5L, 9, 4, 123);
        SharedMemberFlyweight.writeEntry(b, 6L, 10, 9, Long.MAX_VALUE);
        SharedMemberFlyweight.end(b, start, 2);
        SharedMemberFlyweight r = read(b);
        assertThat(r.type()).isEqualTo(SharedMemberFlyweight.TYPE_MEMBER);
        assertThat(r.memberId()).isEqualTo(-42L);
        assertThat(r.joinedMillis()).isEqualTo(1000);
        assertThat(r.activeFromMillis()).isEqualTo(1300);
        assertThat(r.untilMillis()).isEqualTo(Long.MAX_VALUE);
        assertThat(r.clientId()).isEqualTo("client");
        assertThat(r.name()).isEqualTo("work");
        assertThat(r.topic()).isEqualTo("orders");
        assertThat(r.selector()).isEqualTo("a > 1");
        assertThat(r.entryCount()).isEqualTo(2);
        assertThat(r.entryEpoch(0)).isEqualTo(-5L);
        assertThat(r.entryProducer(1)).isEqualTo(10);
        assertThat(r.entryPriority(1)).isEqualTo(9);
        assertThat(r.entrySequence(1)).isEqualTo(Long.MAX_VALUE);
        assertThatThrownBy(() -> r.entryEpoch(2)).isInstanceOf(IndexOutOfBoundsException.class);

        b = Unpooled.buffer();
        start = SharedMemberFlyweight.begin(b, 3, SharedMemberFlyweight.TYPE_LEAVE, 7L, 1000, 1300, 2000, null,
                "work", "orders", null);
        SharedMemberFlyweight.end(b, start, 0);
        SharedMemberFlyweight leave = read(b);
        assertThat(leave.type()).isEqualTo(SharedMemberFlyweight.TYPE_LEAVE);
        assertThat(leave.clientId()).isEmpty();
        assertThat(leave.selector()).isNull();
        assertThat(leave.untilMillis()).isEqualTo(2000);
        assertThat(leave.entryCount()).isZero();
    }

    @Test
    void hostileCountsTimesAndTypesAreRefused() {
        ByteBuf b = Unpooled.buffer();
        int start = SharedMemberFlyweight.begin(b, 3, SharedMemberFlyweight.TYPE_MEMBER, 1L, 1000, 1300,
                Long.MAX_VALUE, "", "work", "orders", null);
        SharedMemberFlyweight.writeEntry(b, 1L, 1, 4, 1);
        SharedMemberFlyweight.end(b, start, 1);
        b.setInt(b.writerIndex() - SharedMemberFlyweight.ENTRY_LENGTH - 4, 2);     // announces two, carries one
        assertThatThrownBy(() -> read(b)).isInstanceOf(MalformedWireException.class).hasMessageContaining("entries");

        ByteBuf times = Unpooled.buffer();
        start = SharedMemberFlyweight.begin(times, 3, SharedMemberFlyweight.TYPE_MEMBER, 1L, 1000, 999,
                Long.MAX_VALUE, "", "work", "orders", null);
        SharedMemberFlyweight.end(times, start, 0);
        assertThatThrownBy(() -> read(times)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("out of order");

        ByteBuf type = Unpooled.buffer();
        start = SharedMemberFlyweight.begin(type, 3, 9, 1L, 1000, 1300, Long.MAX_VALUE, "", "work", "orders", null);
        SharedMemberFlyweight.end(type, start, 0);
        assertThatThrownBy(() -> read(type)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("unknown type");

        ByteBuf noName = Unpooled.buffer();
        start = SharedMemberFlyweight.begin(noName, 3, 1, 1L, 1000, 1300, Long.MAX_VALUE, "", "", "orders", null);
        SharedMemberFlyweight.end(noName, start, 0);
        assertThatThrownBy(() -> read(noName)).isInstanceOf(MalformedWireException.class)
                .hasMessageContaining("subscription name");
    }
}
