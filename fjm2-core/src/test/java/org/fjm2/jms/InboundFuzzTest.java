package org.fjm2.jms;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.jms.message.ObjectMessageAllowList;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.norm.fuzz.FuzzInput;
import org.fjm2.norm.fuzz.InputBounds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz target: the JMS receive path ({@link Inbound} as the transport's {@link
 * org.fjm2.jms.transport.ObjectListener}): batch framing, sequence tracking per sender and producer, topic lookup,
 * expiry, record decoding, selectors and fan-out to real consumers of an in-memory connection. Each input is a series
 * of transport events (objects, losses, departures) for a fresh receive path, so that inputs replay alone. Per
 * input: no exception escapes, the work stays within {@link InputBounds}, and every message delivered can be read
 * through the JMS API.
 */
class InboundFuzzTest {

    /** Sender node ids the events name (bits 2-3 of an event byte pick one). */
    static final int[] SENDERS = {0x1001, 0x1002, 0x1003, 0x1004};

    private static Connection connection;
    private static SubscriptionTable subscriptions;
    private static final List<Fjm2MessageConsumer> CONSUMERS = new ArrayList<>();

    /** What the receive path reported (losses): only counted, a report is not a failure. */
    private static final class RecordingOwner implements Inbound.Owner {
        int reports;

        @Override
        public void reportAsync(JMSException problem) {
            reports++;
        }
    }

    @BeforeAll
    static void openConsumers() throws JMSException {
        connection = InMem.connect(InMem.newUrl());
        Session session = connection.createSession();
        Topic a = session.createTopic(JmsBatchSynth.TOPICS[0]);
        Topic b = session.createTopic(JmsBatchSynth.TOPICS[1]);
        subscriptions = new SubscriptionTable();
        for (var consumer : List.of(session.createConsumer(a),
                session.createConsumer(a, "color = 'red' AND weight > 10"),
                session.createConsumer(b, "JMSType = 'x' OR JMSPriority > 4 OR n IS NOT NULL"))) {
            CONSUMERS.add((Fjm2MessageConsumer) consumer);
            subscriptions.add((Fjm2MessageConsumer) consumer);
        }
    }

    @AfterAll
    static void closeConnection() throws JMSException {
        connection.close();
    }

    /**
     * The one place that builds the receive path under test (its constructor is still changing): a fresh one per
     * input, over the fixture's consumers.
     */
    private static Inbound newInbound(Inbound.Owner owner) {
        MessageDecoder decoder = new MessageDecoder(ObjectMessageAllowList.DEFAULT, Fjm2TemporaryTopic::remote);
        return new Inbound(subscriptions, new ConnectionCounters(), decoder, owner, System.currentTimeMillis(),
                JmsParameters.CLOCK_SKEW_MILLIS_DEFAULT);
    }

    /** Events with raw objects: event(8) [object(chunk) | lost count(8) | nothing for a departure]. */
    @FuzzTest
    void rawObjects(byte[] input) throws Exception {
        receive(input, in -> in.chunk());
    }

    /** Events with objects built by {@link JmsBatchSynth}. */
    @FuzzTest
    void structuredBatches(byte[] input) throws Exception {
        receive(input, JmsBatchSynth::batch);
    }

    @FunctionalInterface
    private interface ObjectSource {
        byte[] next(FuzzInput in) throws JMSException;
    }

    /** One event of the input, applied to the receive path. */
    private record Event(int action, int sender, byte[] object, int lostObjects) {
    }

    private void receive(byte[] input, ObjectSource objects) throws Exception {
        List<Event> events = events(input, objects);
        InputBounds.checkConfirmed(() -> {
            Inbound inbound = newInbound(new RecordingOwner());
            InputBounds.Cost cost = InputBounds.measure(() -> {
                for (Event e : events) {
                    switch (e.action()) {
                        case 0, 1 -> inbound.onObject(e.sender(), Unpooled.wrappedBuffer(e.object()));
                        case 2 -> inbound.onObjectsLost(e.sender(), e.lostObjects(), "fuzzed loss");
                        default -> inbound.onSenderGone(e.sender());
                    }
                }
            });
            readAndDrainConsumers();
            for (Event e : events) {
                if (e.object() != null) {
                    decodeEveryRecord(e.object());
                }
            }
            return cost;
        }, input.length, input);
    }

    /**
     * The receive path catches any RuntimeException of the decoder and counts the record as malformed, which would
     * hide a decoder that relies on an exception instead of a bounds check; so every record whose framing the
     * receive path accepts is also decoded here, where only the decoder's documented MalformedWireException may
     * come out.
     */
    private static void decodeEveryRecord(byte[] object) {
        ByteBuf buf = Unpooled.wrappedBuffer(object);
        BatchHeaderFlyweight batch = new BatchHeaderFlyweight();
        if (object.length < BatchHeaderFlyweight.LENGTH || batch.wrap(buf, 0).magic() != BatchHeaderFlyweight.MAGIC
                || batch.version() != BatchHeaderFlyweight.VERSION || batch.recordCount() < 0) {
            return;
        }
        List<int[]> records = new ArrayList<>();
        int position = BatchHeaderFlyweight.LENGTH;
        for (int i = 0; i < batch.recordCount(); i++) {
            if (object.length - position < 4) {
                return;
            }
            int length = buf.getInt(position);
            if (length < MessageHeaderFlyweight.FIXED_LENGTH || length > object.length - position) {
                return;
            }
            records.add(new int[] {position, length});
            position += length;
        }
        if (position != object.length) {
            return;
        }
        MessageDecoder decoder = new MessageDecoder(ObjectMessageAllowList.DEFAULT, Fjm2TemporaryTopic::remote);
        MessageHeaderFlyweight header = new MessageHeaderFlyweight();
        for (int[] record : records) {
            header.wrap(buf, record[0]);
            if (header.priority() > 9 || MessageHeaderFlyweight.FIXED_LENGTH + header.topicLength() > record[1]) {
                continue;
            }
            try {
                DeliveredMessageReader.readAll(decoder.decode(buf, record[0], record[1], new Fjm2Topic("fuzz.a"),
                        batch.epoch()));
            } catch (MalformedWireException expected) {
                // counted and dropped by the receive path
            }
        }
    }

    private static List<Event> events(byte[] input, ObjectSource objects) throws JMSException {
        FuzzInput in = new FuzzInput(input);
        List<Event> events = new ArrayList<>();
        while (in.hasMore()) {
            int op = in.u8();
            int action = op & 3;
            int sender = SENDERS[(op >>> 2) & 3];
            events.add(new Event(action, sender, action <= 1 ? objects.next(in) : null,
                    action == 2 ? in.u8() : 0));
        }
        return events;
    }

    private static void readAndDrainConsumers() throws JMSException {
        for (Fjm2MessageConsumer consumer : CONSUMERS) {
            for (Message m = consumer.receiveNoWait(); m != null; m = consumer.receiveNoWait()) {
                DeliveredMessageReader.readAll(m);
            }
        }
    }
}
