package org.fjm2.jms;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Session;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.SharedMemberFlyweight;
import org.fjm2.norm.fuzz.FuzzInput;
import org.fjm2.norm.fuzz.InputBounds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz target: a shared subscription's state ({@link SharedGroup}) driven by member records from the network
 * (joins, heartbeats with acknowledgements, leaves, from colliding member ids with any times), messages of any
 * origin and send time, and the passing of time (members falling silent, joins completing); of a durable one also
 * the stores' answer and its switch, and the position told to the stores. Per input: no exception
 * escapes, the members known and the copies held stay within their caps, and the work stays within
 * {@link InputBounds}.
 */
class SharedGroupFuzzTest {

    private static final int MAX_MEMBERS = 8;
    private static final int MAX_HELD = 64;

    private static Connection connection;
    private static Fjm2MessageConsumer local;

    @BeforeAll
    static void openConsumer() throws JMSException {
        connection = InMem.connect(InMem.newUrl());
        Session session = connection.createSession();
        local = (Fjm2MessageConsumer) session.createConsumer(session.createTopic("fuzz.shared"));
    }

    @AfterAll
    static void closeConnection() throws JMSException {
        connection.close();
    }

    @FuzzTest
    void memberRecordsMessagesAndTime(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> {
            FuzzInput in = new FuzzInput(input);
            boolean durable = in.bit();
            SharedGroup.Key key = new SharedGroup.Key("", "pool", "fuzz.shared", "", durable);
            SharedGroup group = new SharedGroup(key, new Fjm2Topic("fuzz.shared"), null, MAX_MEMBERS, MAX_HELD);
            long base = System.currentTimeMillis() - 10_000;
            long nowMillis = base;
            long nowNanos = System.nanoTime();
            group.joinLocal(in.u8(), local, base, nowNanos);
            SharedMemberFlyweight reader = new SharedMemberFlyweight();
            while (in.hasMore()) {
                switch (in.choice(durable ? 5 : 3)) {
                    case 0 -> heard(in, group, reader, base, nowNanos, durable);
                    case 1 -> group.route(message(in, base));
                    case 3 -> group.acceptJoined(message(in, base), 0);    // of the stores' answer
                    case 4 -> group.joined(java.util.Map.of(new LateJoin.Stream(in.u8(), in.u8(), in.choice(10)),
                            (long) in.u16()));
                    default -> {
                        int millis = in.u16();
                        nowMillis += millis;
                        nowNanos += millis * 1_000_000L;
                        group.tick(nowMillis, nowNanos);
                    }
                }
                if (group.memberCount() > MAX_MEMBERS || group.heldCopies() > MAX_HELD || group.heldCopies() < 0) {
                    throw new AssertionError("members " + group.memberCount() + ", copies held "
                            + group.heldCopies());
                }
            }
        });
    }

    private static Fjm2TextMessage message(FuzzInput in, long base) {
        Fjm2TextMessage m = new Fjm2TextMessage("x");
        m.origin(in.u8(), in.u8(), in.choice(10), 1 + in.u16());
        m.originSentMillis(base + in.u16() * 4L);
        return m;
    }

    private static void heard(FuzzInput in, SharedGroup group, SharedMemberFlyweight reader, long base,
                              long nowNanos, boolean durable) {
        long joined = base + in.u16() * 4L;
        long activeFrom = joined + in.u8() * 4L;
        long until = in.bit() ? Long.MAX_VALUE : joined + in.u16() * 4L;
        ByteBuf record = Unpooled.buffer();
        int start = SharedMemberFlyweight.begin(record, 1, SharedMemberFlyweight.type(durable, in.bit()), in.u8(),
                joined, activeFrom, until, "", "pool", "fuzz.shared", null);
        int entries = in.choice(4);
        for (int i = 0; i < entries; i++) {
            SharedMemberFlyweight.writeEntry(record, in.u8(), in.u8(), in.choice(10), in.u16());
        }
        SharedMemberFlyweight.end(record, start, entries);
        try {
            group.heard(reader.wrap(record, 0, record.writerIndex()), nowNanos);
        } catch (MalformedWireException expected) {
            // what the receive path counts and drops
        }
    }
}
