package org.fjm2.jms;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import org.fjm2.jms.message.Fjm2BytesMessage;
import org.fjm2.jms.message.Fjm2MapMessage;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.message.Fjm2ObjectMessage;
import org.fjm2.jms.message.Fjm2StreamMessage;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.norm.fuzz.FuzzInput;

/**
 * Structure-aware input for the JMS batch decoder: builds FJM2-JMS batches with the production encoder from fuzzed
 * fields (every body kind, header flags, correlation ids, reply-to, types, properties of every type, topics that
 * are and are not subscribed), then optionally corrupts one byte, so the decoder sees valid records and near-misses.
 *
 * <p>Fields in input order: epoch(8) records(8), per record: kind(8) priority(8) persistent(8) producer(8)
 * sequence(16) send_time(32) expiration(8) delivery(8) topic(8)[string] options(8) [options' fields]
 * properties(8) x (name(8)[string] value) body; then corrupt(8)[position(16) value(8)].
 * A string is length(8) then that many bytes (UTF-8, lossy); a typed value is tag(8) then its bytes.
 */
final class JmsBatchSynth {

    /** Topics the fixture subscribes to, and one nobody listens to. */
    static final String[] TOPICS = {"fuzz.a", "fuzz.b", "fuzz.unsubscribed"};
    /** Property names the fixture's selectors test. */
    static final String[] PROPERTY_NAMES = {"color", "weight", "n"};
    static final String[] COLORS = {"red", "blue", ""};

    /** Connection epochs: random (no start time), started long ago, started far in the future (heard from 1). */
    static final long[] EPOCHS = {0x1234_5678_9ABC_DEF0L, BatchHeaderFlyweight.epochOf(1_000L, 7),
            BatchHeaderFlyweight.epochOf(4_000_000_000_000L, 9), 0};

    static final int MAX_RECORDS = 8;
    /** Largest batch built (the transport's maxObjectSize is far larger; fuzz inputs are small). */
    private static final int MAX_BATCH = 1 << 20;

    private JmsBatchSynth() {
    }

    static byte[] batch(FuzzInput in) throws JMSException {
        ByteBuf buf = Unpooled.buffer(256, MAX_BATCH);
        long epoch = EPOCHS[in.u8() & 3];
        int header = BatchHeaderFlyweight.writeEmpty(buf, epoch);
        int records = in.u8() % (MAX_RECORDS + 1);
        for (int i = 0; i < records; i++) {
            record(in, buf);
        }
        new BatchHeaderFlyweight().wrap(buf, header).recordCount(records);
        byte[] bytes = ByteBufUtil.getBytes(buf);
        if (in.bit() && bytes.length > 0) {
            int position = in.u16() % bytes.length;
            bytes[position] = (byte) in.u8();
        }
        return bytes;
    }

    private static void record(FuzzInput in, ByteBuf buf) throws JMSException {
        int kind = in.u8() % 6;
        Fjm2Message m = newMessage(kind);
        m.setJMSPriority(in.u8() % 10);
        m.setJMSDeliveryMode(in.bit() ? DeliveryMode.PERSISTENT : DeliveryMode.NON_PERSISTENT);
        int producer = in.u8() % 4;
        long sequence = in.u16();
        long sendTime = in.u32();
        m.setJMSExpiration(switch (in.u8() % 3) {
            case 0 -> 0L;
            case 1 -> 1L;                                   // long expired
            default -> System.currentTimeMillis() + 3_600_000L;
        });
        long deliveryTime = in.bit() ? System.currentTimeMillis() + 3_600_000L : 0L;
        int topicSelector = in.u8() % (TOPICS.length + 1);
        Fjm2Topic topic = new Fjm2Topic(topicSelector < TOPICS.length ? TOPICS[topicSelector] : string(in) + "x");
        int options = in.u8();
        if ((options & 0x01) != 0) {
            m.setJMSCorrelationID(string(in));
        }
        if ((options & 0x02) != 0) {
            m.setJMSCorrelationIDAsBytes(in.bytes(in.u8()));
        }
        if ((options & 0x04) != 0) {
            m.setJMSType(string(in));
        }
        Fjm2Topic replyTo = (options & 0x08) != 0 ? new Fjm2Topic("reply." + string(in))
                : (options & 0x10) != 0 ? Fjm2TemporaryTopic.remote("tmp." + string(in)) : null;
        String explicitId = (options & 0x20) != 0 ? "ID:" + string(in) : null;
        boolean noMessageId = (options & 0x40) != 0;
        boolean noTimestamp = (options & 0x80) != 0;
        int properties = in.u8() % 8;
        for (int i = 0; i < properties; i++) {
            int nameSelector = in.u8() % (PROPERTY_NAMES.length + 1);
            String name = nameSelector < PROPERTY_NAMES.length ? PROPERTY_NAMES[nameSelector]
                    : "p" + HexFormat.of().formatHex(in.bytes(in.u8() % 8));
            m.setObjectProperty(name, value(in, false));
        }
        body(in, m, kind);
        MessageEncoder.encode(buf, m, topic, replyTo, producer, sequence, sendTime, deliveryTime, noMessageId,
                noTimestamp, explicitId);
    }

    private static Fjm2Message newMessage(int kind) {
        return switch (kind) {
            case 1 -> new Fjm2TextMessage();
            case 2 -> new Fjm2BytesMessage();
            case 3 -> new Fjm2MapMessage();
            case 4 -> new Fjm2StreamMessage();
            case 5 -> new Fjm2ObjectMessage();
            default -> new Fjm2Message();
        };
    }

    private static void body(FuzzInput in, Fjm2Message m, int kind) throws JMSException {
        switch (kind) {
            case 1 -> ((Fjm2TextMessage) m).setText(in.bit() ? null : string(in));
            case 2 -> ((Fjm2BytesMessage) m).writeBytes(in.bytes(in.u16() % 4096));
            case 3 -> {
                Fjm2MapMessage map = (Fjm2MapMessage) m;
                int entries = in.u8() % 8;
                for (int i = 0; i < entries; i++) {
                    map.setObject("k" + string(in), value(in, true));
                }
            }
            case 4 -> {
                Fjm2StreamMessage stream = (Fjm2StreamMessage) m;
                int values = in.u8() % 8;
                for (int i = 0; i < values; i++) {
                    stream.writeObject(value(in, true));
                }
            }
            case 5 -> ((Fjm2ObjectMessage) m).setObject(serializable(in));
            default -> {
            }
        }
    }

    /** A typed value; byte arrays only where JMS allows them (map and stream bodies, not properties). */
    private static Object value(FuzzInput in, boolean bytesAllowed) {
        return switch (in.u8() % (bytesAllowed ? 10 : 9)) {
            case 0 -> in.bit();
            case 1 -> (byte) in.u8();
            case 2 -> (short) in.u16();
            case 3 -> (int) in.u32();
            case 4 -> in.u32() << 32 | in.u32();
            case 5 -> Float.intBitsToFloat((int) in.u32());
            case 6 -> Double.longBitsToDouble(in.u32() << 32 | in.u32());
            case 7 -> COLORS[in.u8() % COLORS.length];
            case 8 -> string(in);
            default -> in.bytes(in.u8());
        };
    }

    private static Serializable serializable(FuzzInput in) {
        return switch (in.u8() % 4) {
            case 0 -> null;
            case 1 -> string(in);
            case 2 -> (int) in.u32();
            default -> {
                ArrayList<String> list = new ArrayList<>();
                int n = in.u8() % 4;
                for (int i = 0; i < n; i++) {
                    list.add(string(in));
                }
                yield list;
            }
        };
    }

    private static String string(FuzzInput in) {
        return new String(in.bytes(in.u8() % 32), StandardCharsets.UTF_8);
    }
}
