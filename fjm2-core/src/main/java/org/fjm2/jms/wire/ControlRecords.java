package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * The control traffic between connections and stores (fjm2-store): ordinary message records (BytesMessage,
 * NON_PERSISTENT, no message id, no optional fields) on reserved topics, so that they travel, are repaired and are
 * secured like any message. Receivers take them off the receive path by topic before consumers see anything
 * (docs/wire-format.md, "Store traffic").
 */
public final class ControlRecords {

    /** A store's acknowledgements ({@link StoreAckFlyweight}). */
    public static final String ACK_TOPIC = "fjm2.store.acks";
    /** A connection's requests to the stores ({@link StoreReplayFlyweight#writeRequest}). */
    public static final String REQUEST_TOPIC = "fjm2.store.requests";
    /** A store's answers to requests ({@link StoreReplayFlyweight}). */
    public static final String REPLAY_TOPIC = "fjm2.store.replay";
    /** A connection's durable subscriptions: subscribe, position, unsubscribe ({@link DurableSubscriptionFlyweight}). */
    public static final String DURABLE_TOPIC = "fjm2.store.durable";

    /** The members of shared subscriptions: join, heartbeat, leave ({@link SharedMemberFlyweight}). */
    public static final String SHARED_TOPIC = "fjm2.shared.members";

    static final byte[] SHARED_TOPIC_UTF8 = SHARED_TOPIC.getBytes(StandardCharsets.UTF_8);
    static final byte[] ACK_TOPIC_UTF8 = ACK_TOPIC.getBytes(StandardCharsets.UTF_8);
    static final byte[] REQUEST_TOPIC_UTF8 = REQUEST_TOPIC.getBytes(StandardCharsets.UTF_8);
    static final byte[] REPLAY_TOPIC_UTF8 = REPLAY_TOPIC.getBytes(StandardCharsets.UTF_8);
    static final byte[] DURABLE_TOPIC_UTF8 = DURABLE_TOPIC.getBytes(StandardCharsets.UTF_8);

    private ControlRecords() {
    }

    /** Whether the record's topic (framing checked) is {@code topic}'s UTF-8 bytes. */
    public static boolean isTopic(ByteBuf buf, int topicOffset, int topicLength, byte[] topic) {
        if (topicLength != topic.length) {
            return false;
        }
        for (int i = 0; i < topicLength; i++) {
            if (buf.getByte(topicOffset + i) != topic[i]) {
                return false;
            }
        }
        return true;
    }

    public static boolean isAck(ByteBuf buf, int topicOffset, int topicLength) {
        return isTopic(buf, topicOffset, topicLength, ACK_TOPIC_UTF8);
    }

    public static boolean isRequest(ByteBuf buf, int topicOffset, int topicLength) {
        return isTopic(buf, topicOffset, topicLength, REQUEST_TOPIC_UTF8);
    }

    public static boolean isDurable(ByteBuf buf, int topicOffset, int topicLength) {
        return isTopic(buf, topicOffset, topicLength, DURABLE_TOPIC_UTF8);
    }

    public static boolean isShared(ByteBuf buf, int topicOffset, int topicLength) {
        return isTopic(buf, topicOffset, topicLength, SHARED_TOPIC_UTF8);
    }

    public static boolean isReplay(ByteBuf buf, int topicOffset, int topicLength) {
        return isTopic(buf, topicOffset, topicLength, REPLAY_TOPIC_UTF8);
    }

    /**
     * Appends the fixed part and topic of a control record at the writer index (the body follows); the caller
     * patches the record length once the body is written ({@link #endRecord}).
     *
     * @return where the record starts
     */
    static int beginRecord(ByteBuf out, byte[] topic, int producerId, int priority, long sequence, long nowMillis) {
        int start = out.writerIndex();
        out.writeInt(0)
                .writeByte(MessageHeaderFlyweight.KIND_BYTES)
                .writeByte(MessageHeaderFlyweight.FLAG_NO_MESSAGE_ID)
                .writeByte(priority)
                .writeByte(0)
                .writeInt(producerId)
                .writeLong(sequence)
                .writeLong(nowMillis)
                .writeLong(0)
                .writeLong(0);
        WireWriter.writeShortString(out, topic);
        return start;
    }

    static void endRecord(ByteBuf out, int start) {
        out.setInt(start + MessageHeaderFlyweight.RECORD_LENGTH_OFFSET, out.writerIndex() - start);
    }

    /**
     * The offset of a control record's body, after checking it is one (no optional fields, a BytesMessage).
     *
     * @throws MalformedWireException when it carries anything a control record does not
     */
    static int bodyOffset(MessageHeaderFlyweight header, String what) throws MalformedWireException {
        if (header.flags2() != 0 || (header.flags() & ~MessageHeaderFlyweight.FLAG_NO_MESSAGE_ID) != 0
                || header.kind() != MessageHeaderFlyweight.KIND_BYTES) {
            throw new MalformedWireException("a " + what + " carries no optional fields");
        }
        return header.topicOffset() + header.topicLength();
    }

    /**
     * A uint16-length-prefixed UTF-8 string of a control record's body at {@code pos}, its length checked against
     * {@code [min, max]} and what is left before {@code end}.
     *
     * @param record what the record is, for the error ("durable subscription record")
     * @param what   which field ("client id")
     */
    static String shortString(ByteBuf buffer, int pos, int end, int min, int max, String record, String what)
            throws MalformedWireException {
        if (end - pos < 2) {
            throw new MalformedWireException(record + " ends before its " + what);
        }
        int length = buffer.getUnsignedShort(pos);
        if (length < min || length > max || length > end - pos - 2) {
            throw new MalformedWireException(record + "'s " + what + " of " + length + " bytes (allowed " + min + ".."
                    + max + ", " + (end - pos - 2) + " left)");
        }
        return buffer.toString(pos + 2, length, StandardCharsets.UTF_8);
    }
}
