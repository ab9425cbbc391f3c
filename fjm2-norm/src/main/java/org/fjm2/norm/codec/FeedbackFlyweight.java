package org.fjm2.norm.codec;

/**
 * NORM_NACK and NORM_ACK: the receiver-to-sender feedback messages. They share their layout up to the ack fields:
 *
 * <pre>
 * |version| type  |    hdr_len    |          sequence             |
 * |                           source_id                           |
 * |                           server_id (the sender addressed)    |
 * |          instance_id          | NACK: reserved | ACK: type|id |
 * |                     grtt_response_sec                         |
 * |                     grtt_response_usec                        |
 * |                header extensions (if applicable)              |
 * |     NACK: repair requests | ACK(FLUSH): fec_id, object, payload id
 * </pre>
 */
public final class FeedbackFlyweight extends NormFlyweight {

    public static final int SERVER_ID_OFFSET = 8;
    public static final int INSTANCE_ID_OFFSET = 12;
    public static final int ACK_TYPE_OFFSET = 14;
    public static final int ACK_ID_OFFSET = 15;
    public static final int GRTT_RESPONSE_SEC_OFFSET = 16;
    public static final int GRTT_RESPONSE_USEC_OFFSET = 20;
    /** Base header length of NACK and ACK. */
    public static final int HEADER_LENGTH = 24;

    /** ACK(FLUSH) payload offsets, relative to the payload. */
    public static final int ACK_FLUSH_FEC_ID_OFFSET = 0;
    public static final int ACK_FLUSH_OBJECT_ID_OFFSET = 2;
    public static final int ACK_FLUSH_PAYLOAD_ID_OFFSET = 4;

    /** The sender this feedback is addressed to. */
    public int serverId() {
        return buffer.getInt(offset + SERVER_ID_OFFSET);
    }

    public int instanceId() {
        return u16(INSTANCE_ID_OFFSET);
    }

    public int ackType() {
        return u8(ACK_TYPE_OFFSET);
    }

    public int ackId() {
        return u8(ACK_ID_OFFSET);
    }

    public long grttResponseSeconds() {
        return u32(GRTT_RESPONSE_SEC_OFFSET);
    }

    public long grttResponseMicros() {
        return u32(GRTT_RESPONSE_USEC_OFFSET);
    }

    /** Whether the grtt_response fields carry a timestamp (zero means the receiver had none to echo). */
    public boolean hasGrttResponse() {
        return grttResponseSeconds() != 0 || grttResponseMicros() != 0;
    }

    /** Absolute index where header extensions start. */
    public int extensionsIndex() {
        return offset + HEADER_LENGTH;
    }

    // ACK(FLUSH) payload
    public int ackFlushFecId() {
        return buffer.getUnsignedByte(payloadIndex() + ACK_FLUSH_FEC_ID_OFFSET);
    }

    public int ackFlushObjectId() {
        return buffer.getUnsignedShort(payloadIndex() + ACK_FLUSH_OBJECT_ID_OFFSET);
    }

    public long ackFlushBlockNumber(int m) {
        return FecPayloadId.blockNumber(buffer, payloadIndex() + ACK_FLUSH_PAYLOAD_ID_OFFSET, ackFlushFecId(), m);
    }

    public int ackFlushSymbolId(int m) {
        return FecPayloadId.symbolId(buffer, payloadIndex() + ACK_FLUSH_PAYLOAD_ID_OFFSET, ackFlushFecId(), m);
    }

    /** Writes a NACK (ackTypeOrZero = 0, ackId = 0) or ACK header. */
    public FeedbackFlyweight writeFeedbackHeader(int type, int sequence, int sourceId, int serverId, int instanceId,
                                                 int ackType, int ackId, long grttSeconds, long grttMicros) {
        writeCommonHeader(type, sequence, sourceId);
        put32(SERVER_ID_OFFSET, serverId);
        put16(INSTANCE_ID_OFFSET, instanceId);
        put8(ACK_TYPE_OFFSET, ackType);
        put8(ACK_ID_OFFSET, ackId);
        put32(GRTT_RESPONSE_SEC_OFFSET, grttSeconds);
        put32(GRTT_RESPONSE_USEC_OFFSET, grttMicros);
        return this;
    }

    /** Writes the ACK(FLUSH) payload at the absolute index; returns its length. */
    public static int writeAckFlushPayload(io.netty.buffer.ByteBuf buf, int index, int fecId, int m, int objectId,
                                           long blockNumber, int symbolId, int blockLength) {
        buf.setByte(index + ACK_FLUSH_FEC_ID_OFFSET, fecId);
        buf.setByte(index + 1, 0);
        buf.setShort(index + ACK_FLUSH_OBJECT_ID_OFFSET, objectId);
        return ACK_FLUSH_PAYLOAD_ID_OFFSET
                + FecPayloadId.write(buf, index + ACK_FLUSH_PAYLOAD_ID_OFFSET, fecId, m, blockNumber, symbolId, blockLength);
    }
}
