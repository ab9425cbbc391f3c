package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.fjm2.jms.message.ObjectMessageAllowList;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.MessageHeaderFlyweight;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A receive path of its own, fed crafted batches on the test's thread: a clock the test moves, the loss reports
 * collected in order as they are made, and the messages delivered to a real consumer (of topic {@link #TOPIC}) of
 * an in-memory connection, whose queue they reach before {@code onObject} returns. Deterministic: no thread of the
 * harness's Inbound but the caller's.
 */
final class InboundHarness implements AutoCloseable {

    static final String TOPIC = "t";
    /** An epoch whose connection started long before us: we joined its streams late. */
    static final long LATE_JOIN_EPOCH = BatchHeaderFlyweight.epochOf(1_000L, 1);

    final Fjm2Connection connection;
    final Inbound inbound;
    private final MessageConsumer consumer;
    private final List<JMSException> reports = new ArrayList<>();
    private long nanos = 1_000_000_000L;
    private final long startMillis = System.currentTimeMillis();

    InboundHarness(InboundLimits limits) throws JMSException {
        connection = (Fjm2Connection) InMem.connect(InMem.newUrl());
        Session session = connection.createSession();
        consumer = session.createConsumer(session.createTopic(TOPIC));
        MessageDecoder decoder = new MessageDecoder(ObjectMessageAllowList.DEFAULT, Fjm2TemporaryTopic::remote);
        Inbound.Owner owner = reports::add;
        inbound = new Inbound(connection.subscriptions(), connection.counters(), decoder, owner, startMillis, 0,
                limits, () -> nanos);
    }

    /** An epoch whose connection started after ours: we heard its streams from their first message. */
    long heardFromStartEpoch() {
        return BatchHeaderFlyweight.epochOf(startMillis + 3_600_000L, 2);
    }

    void advance(long amount, TimeUnit unit) {
        nanos += unit.toNanos(amount);
    }

    void feed(int sender, Batch batch) {
        ByteBuf object = batch.build();
        try {
            inbound.onObject(sender, object);
        } finally {
            object.release();
        }
    }

    /** The texts of the messages delivered since the last call, in order. */
    List<String> received() throws JMSException {
        List<String> texts = new ArrayList<>();
        for (Message m; (m = consumer.receiveNoWait()) != null; ) {
            texts.add(((TextMessage) m).getText());
        }
        return texts;
    }

    List<MessagesLostException> losses() {
        List<MessagesLostException> losses = new ArrayList<>();
        for (JMSException e : reports) {
            losses.add((MessagesLostException) e);
        }
        return losses;
    }

    ConnectionCounters counters() {
        return connection.counters();
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }

    static Batch batch(long epoch) {
        return new Batch(epoch);
    }

    /** One object's worth of text records (docs/wire-format.md). */
    static final class Batch {
        private final ByteBuf buf = Unpooled.buffer();
        private final int header;
        private int records;

        Batch(long epoch) {
            header = BatchHeaderFlyweight.writeEmpty(buf, epoch);
        }

        /** A text message of topic {@link #TOPIC}, priority 4, whose text is its sequence number. */
        Batch message(int producer, long sequence) {
            return message(TOPIC, producer, sequence);
        }

        Batch message(String topic, int producer, long sequence) {
            try {
                Fjm2TextMessage m = new Fjm2TextMessage(Long.toString(sequence));
                m.setJMSPriority(4);
                MessageEncoder.encode(buf, m, new Fjm2Topic(topic), null, producer, sequence, 1L, 0L, false,
                        false, null);
            } catch (JMSException e) {
                throw new AssertionError(e);
            }
            records++;
            return this;
        }

        /** Messages numbered {@code from..to} of one producer. */
        Batch messages(int producer, long from, long to) {
            for (long s = from; s <= to; s++) {
                message(producer, s);
            }
            return this;
        }

        /** A record whose header is sound but whose body kind no receiver knows: it cannot be decoded. */
        Batch undecodable(String topic, int producer, long sequence) {
            int at = buf.writerIndex();
            message(topic, producer, sequence);
            buf.setByte(at + MessageHeaderFlyweight.KIND_OFFSET, 0x7F);
            return this;
        }

        ByteBuf build() {
            new BatchHeaderFlyweight().wrap(buf, header).recordCount(records);
            return buf;
        }
    }
}
