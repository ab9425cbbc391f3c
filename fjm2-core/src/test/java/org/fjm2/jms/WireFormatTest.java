package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.message.Fjm2MapMessage;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/** The documented wire layout, and the receive path's defence against malformed input. */
class WireFormatTest {

    @Test
    void headerFieldsSitAtTheirDocumentedOffsets() throws Exception {
        Fjm2TextMessage m = new Fjm2TextMessage("body");
        m.setJMSPriority(7);
        m.setJMSExpiration(123456789L);
        m.setJMSType("ty");
        m.setIntProperty("p", 5);
        ByteBuf buf = Unpooled.buffer();
        BatchHeaderFlyweight.writeEmpty(buf, 0x1122334455667788L);
        int at = MessageEncoder.encode(buf, m, new Fjm2Topic("tópic"), null, 42, 9, 1000L, 2000L, false, false, null);
        assertThat(at).isEqualTo(BatchHeaderFlyweight.LENGTH);
        assertThat(buf.getUnsignedShort(0)).isEqualTo(0x464A);
        assertThat(buf.getUnsignedByte(2)).isEqualTo((short) 1);
        assertThat(buf.getLong(4)).isEqualTo(0x1122334455667788L);
        MessageHeaderFlyweight h = new MessageHeaderFlyweight().wrap(buf, at);
        assertThat(h.recordLength()).isEqualTo(buf.writerIndex() - at);
        assertThat(h.kind()).isEqualTo(MessageHeaderFlyweight.KIND_TEXT);
        assertThat(h.priority()).isEqualTo(7);
        assertThat(h.flags() & MessageHeaderFlyweight.FLAG_PERSISTENT).isNotZero();
        assertThat(h.flags() & MessageHeaderFlyweight.FLAG_HAS_TYPE).isNotZero();
        assertThat(h.flags() & MessageHeaderFlyweight.FLAG_HAS_PROPERTIES).isNotZero();
        assertThat(h.producerId()).isEqualTo(42);
        assertThat(h.sequence()).isEqualTo(9);
        assertThat(h.timestamp()).isEqualTo(1000L);
        assertThat(h.expiration()).isEqualTo(123456789L);
        assertThat(h.deliveryTime()).isEqualTo(2000L);
        // Big-endian on the wire: the sequence's low byte is the last of its 8.
        assertThat(buf.getByte(at + MessageHeaderFlyweight.SEQUENCE_OFFSET + 7)).isEqualTo((byte) 9);
        byte[] topic = "tópic".getBytes(StandardCharsets.UTF_8);
        assertThat(h.topicLength()).isEqualTo(topic.length);
        assertThat(buf.toString(h.topicOffset(), h.topicLength(), StandardCharsets.UTF_8)).isEqualTo("tópic");
        h.sequence(77);
        assertThat(buf.getLong(at + 12)).isEqualTo(77);
    }

    @Test
    void malformedBatchesAreCountedAndDroppedNeverThrown() throws Exception {
        long seed = Long.getLong("fjm2.test.seed", System.nanoTime());
        System.out.println("WireFormatTest seed=" + seed + " (rerun with -Dfjm2.test.seed=" + seed + ")");
        Random random = new Random(seed);
        try (Connection c = InMem.connect(InMem.newUrl())) {
            Fjm2Connection connection = (Fjm2Connection) c;
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createTopic("fuzz"));
            byte[] valid = validBatch();
            int sender = 1000;
            for (int i = 0; i < 3000; i++) {
                byte[] mutated = valid.clone();
                int flips = 1 + random.nextInt(8);
                for (int f = 0; f < flips; f++) {
                    mutated[random.nextInt(mutated.length)] = (byte) random.nextInt(256);
                }
                int length = random.nextInt(4) == 0 ? random.nextInt(mutated.length + 1) : mutated.length;
                ByteBuf object = Unpooled.wrappedBuffer(mutated, 0, length);
                int from = sender + i; // a new sender each time: sequence tracking never hides a mutation
                assertThatCode(() -> connection.inbound().onObject(from, object)).as("seed %d, round %d", seed, i)
                        .doesNotThrowAnyException();
            }
            for (int i = 0; i < 50; i++) {
                byte[] garbage = new byte[random.nextInt(300)];
                random.nextBytes(garbage);
                int from = sender - 1 - i;
                assertThatCode(() -> connection.inbound().onObject(from, Unpooled.wrappedBuffer(garbage)))
                        .doesNotThrowAnyException();
            }
            assertThat(connection.counters().malformedBatches.sum() + connection.counters().malformedMessages.sum())
                    .as("seed %d", seed).isPositive();
            // Drain whatever mutated messages still parsed, then prove the connection still works.
            while (consumer.receive(50) != null) {
                // discard
            }
            s.createProducer(s.createTopic("fuzz")).send(s.createTextMessage("still fine"));
            assertThat(((TextMessage) consumer.receive(5000)).getText()).isEqualTo("still fine");
        }
    }

    private static byte[] validBatch() throws Exception {
        ByteBuf buf = Unpooled.buffer();
        int header = BatchHeaderFlyweight.writeEmpty(buf, 99L);
        Fjm2TextMessage text = new Fjm2TextMessage("hello");
        text.setStringProperty("k", "v");
        text.setJMSDeliveryMode(DeliveryMode.NON_PERSISTENT);
        MessageEncoder.encode(buf, text, new Fjm2Topic("fuzz"), new Fjm2Topic("reply"), 1, 1, 1L, 0L, false, false,
                null);
        Fjm2MapMessage map = new Fjm2MapMessage();
        map.setString("a", "b");
        map.setBytes("c", new byte[] {1, 2, 3});
        MessageEncoder.encode(buf, map, new Fjm2Topic("fuzz"), null, 1, 2, 1L, 0L, false, false, "ID:x");
        new BatchHeaderFlyweight().wrap(buf, header).recordCount(2);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
