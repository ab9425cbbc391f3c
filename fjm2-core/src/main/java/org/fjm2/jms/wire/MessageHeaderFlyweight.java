package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

/**
 * The fixed part of one message record (FJM2-JMS wire format version 1, see docs/wire-format.md). Big-endian:
 * <pre>
 *  0  int32   record length in bytes, this field included
 *  4  uint8   body kind (see {@link #KIND_MESSAGE} ...)
 *  5  uint8   flags (see {@link #FLAG_PERSISTENT} ...)
 *  6  uint8   JMS priority 0..9
 *  7  uint8   flags2: bits 0-1 reply-to kind (0 none, 1 topic, 2 temporary topic), bit 2 explicit id
 *  8  int32   producer id (unique within the sending connection)
 * 12  int64   sequence number per (producer, priority), from 1, without gaps
 * 20  int64   JMSTimestamp, ms since the epoch (the send time even when timestamps are disabled)
 * 28  int64   JMSExpiration, ms since the epoch, 0 = never
 * 36  int64   JMSDeliveryTime, ms since the epoch, 0 = no delivery delay (deliver at once)
 * 44  uint16  topic name length, then the name in UTF-8
 * </pre>
 * The optional fields follow in this order when their flag is set: message id, correlation id, reply-to name, type
 * (each uint16 length + bytes), properties (int32 count, then name uint16 length + UTF-8 and a typed value
 * each); the body fills the rest of the record.
 */
public final class MessageHeaderFlyweight {

    public static final int RECORD_LENGTH_OFFSET = 0;
    public static final int KIND_OFFSET = 4;
    public static final int FLAGS_OFFSET = 5;
    public static final int PRIORITY_OFFSET = 6;
    public static final int FLAGS2_OFFSET = 7;
    public static final int PRODUCER_ID_OFFSET = 8;
    public static final int SEQUENCE_OFFSET = 12;
    public static final int TIMESTAMP_OFFSET = 20;
    public static final int EXPIRATION_OFFSET = 28;
    public static final int DELIVERY_TIME_OFFSET = 36;
    public static final int TOPIC_LENGTH_OFFSET = 44;
    /** Bytes before the topic name; also the smallest valid record. */
    public static final int FIXED_LENGTH = 46;

    public static final int KIND_MESSAGE = 0;
    public static final int KIND_TEXT = 1;
    public static final int KIND_BYTES = 2;
    public static final int KIND_MAP = 3;
    public static final int KIND_STREAM = 4;
    public static final int KIND_OBJECT = 5;
    public static final int KIND_MAX = KIND_OBJECT;

    /** JMSDeliveryMode is PERSISTENT (else NON_PERSISTENT). */
    public static final int FLAG_PERSISTENT = 1;
    /** The producer disabled message ids: JMSMessageID reads null. */
    public static final int FLAG_NO_MESSAGE_ID = 1 << 1;
    /** The destination topic is a temporary topic. */
    public static final int FLAG_TEMPORARY_DESTINATION = 1 << 2;
    public static final int FLAG_HAS_CORRELATION_ID = 1 << 3;
    /** The correlation id was set as bytes (setJMSCorrelationIDAsBytes). */
    public static final int FLAG_CORRELATION_ID_BYTES = 1 << 4;
    public static final int FLAG_HAS_TYPE = 1 << 5;
    public static final int FLAG_HAS_PROPERTIES = 1 << 6;
    /** The producer disabled timestamps: JMSTimestamp reads 0 (the wire field still holds the send time). */
    public static final int FLAG_NO_TIMESTAMP = 1 << 7;

    /** flags2 bits 0-1: the kind of JMSReplyTo. */
    public static final int FLAGS2_REPLY_TO_MASK = 3;
    /** flags2: the message id is carried as text (transacted sends, numbered only at commit). */
    public static final int FLAGS2_EXPLICIT_MESSAGE_ID = 1 << 2;

    public static final int REPLY_TO_NONE = 0;
    public static final int REPLY_TO_TOPIC = 1;
    public static final int REPLY_TO_TEMPORARY_TOPIC = 2;

    private ByteBuf buf;
    private int offset;

    public MessageHeaderFlyweight wrap(ByteBuf buffer, int recordOffset) {
        this.buf = buffer;
        this.offset = recordOffset;
        return this;
    }

    public int offset() {
        return offset;
    }

    public int recordLength() {
        return buf.getInt(offset + RECORD_LENGTH_OFFSET);
    }

    public MessageHeaderFlyweight recordLength(int length) {
        buf.setInt(offset + RECORD_LENGTH_OFFSET, length);
        return this;
    }

    public int kind() {
        return buf.getUnsignedByte(offset + KIND_OFFSET);
    }

    public int flags() {
        return buf.getUnsignedByte(offset + FLAGS_OFFSET);
    }

    public int priority() {
        return buf.getUnsignedByte(offset + PRIORITY_OFFSET);
    }

    public int flags2() {
        return buf.getUnsignedByte(offset + FLAGS2_OFFSET);
    }

    public int producerId() {
        return buf.getInt(offset + PRODUCER_ID_OFFSET);
    }

    public long sequence() {
        return buf.getLong(offset + SEQUENCE_OFFSET);
    }

    /** Patches the sequence: transactions encode at send() and number at commit(). */
    public MessageHeaderFlyweight sequence(long sequence) {
        buf.setLong(offset + SEQUENCE_OFFSET, sequence);
        return this;
    }

    public long timestamp() {
        return buf.getLong(offset + TIMESTAMP_OFFSET);
    }

    public long expiration() {
        return buf.getLong(offset + EXPIRATION_OFFSET);
    }

    public long deliveryTime() {
        return buf.getLong(offset + DELIVERY_TIME_OFFSET);
    }

    public int topicLength() {
        return buf.getUnsignedShort(offset + TOPIC_LENGTH_OFFSET);
    }

    /** Where the topic name's bytes start. */
    public int topicOffset() {
        return offset + FIXED_LENGTH;
    }
}
