package org.fjm2.norm.codec;

/**
 * NORM_DATA and NORM_INFO: the messages that carry an object's content and its out-of-band info.
 *
 * <pre>
 * |version| type  |    hdr_len    |          sequence             |
 * |                           source_id                           |
 * |          instance_id          |     grtt      |backoff| gsize |
 * |     flags     |    fec_id     |     object_transport_id       |
 * |            fec_payload_id (NORM_DATA only, 4 or 8 bytes)      |
 * |                header extensions (if applicable)              |
 * |                payload: segment (DATA) or info content (INFO) |
 * </pre>
 */
public final class ObjectMessageFlyweight extends NormFlyweight {

    public static final int INSTANCE_ID_OFFSET = 8;
    public static final int GRTT_OFFSET = 10;
    public static final int BACKOFF_GSIZE_OFFSET = 11;
    public static final int FLAGS_OFFSET = 12;
    public static final int FEC_ID_OFFSET = 13;
    public static final int OBJECT_ID_OFFSET = 14;
    public static final int FEC_PAYLOAD_ID_OFFSET = 16;
    /** Base header length of NORM_INFO. */
    public static final int INFO_HEADER_LENGTH = 16;
    /** Length of the stream payload header (payload_len, payload_msg_start, payload_offset) of stream objects. */
    public static final int STREAM_PAYLOAD_HEADER_LENGTH = 8;

    /** Base header length (before extensions) for the message type and fec_id. */
    public static int baseHeaderLength(int type, int fecId) {
        return type == NormWire.TYPE_INFO ? INFO_HEADER_LENGTH : FEC_PAYLOAD_ID_OFFSET + NormWire.fecPayloadIdLength(fecId);
    }

    public int instanceId() {
        return u16(INSTANCE_ID_OFFSET);
    }

    public int grtt() {
        return u8(GRTT_OFFSET);
    }

    public int backoff() {
        return u8(BACKOFF_GSIZE_OFFSET) >>> 4;
    }

    public int gsize() {
        return u8(BACKOFF_GSIZE_OFFSET) & 0x0F;
    }

    public int flags() {
        return u8(FLAGS_OFFSET);
    }

    public boolean hasFlag(int flag) {
        return (flags() & flag) != 0;
    }

    public int fecId() {
        return u8(FEC_ID_OFFSET);
    }

    public int objectId() {
        return u16(OBJECT_ID_OFFSET);
    }

    public long blockNumber(int m) {
        return FecPayloadId.blockNumber(buffer, offset + FEC_PAYLOAD_ID_OFFSET, fecId(), m);
    }

    public int symbolId(int m) {
        return FecPayloadId.symbolId(buffer, offset + FEC_PAYLOAD_ID_OFFSET, fecId(), m);
    }

    /** Source block length from the payload id (fec_id 129 only), else -1. */
    public int payloadBlockLength() {
        return FecPayloadId.blockLength(buffer, offset + FEC_PAYLOAD_ID_OFFSET, fecId());
    }

    /** Absolute index where header extensions start. */
    public int extensionsIndex() {
        return offset + baseHeaderLength(type(), fecId());
    }

    /** Writes the fields common to NORM_DATA and NORM_INFO (type, header sequence, ids, grtt, flags...). */
    public ObjectMessageFlyweight writeObjectHeader(int type, int sequence, int sourceId, int instanceId, int grtt,
                                                    int backoff, int gsize, int flags, int fecId, int objectId) {
        writeCommonHeader(type, sequence, sourceId);
        put16(INSTANCE_ID_OFFSET, instanceId);
        put8(GRTT_OFFSET, grtt);
        put8(BACKOFF_GSIZE_OFFSET, ((backoff & 0x0F) << 4) | (gsize & 0x0F));
        put8(FLAGS_OFFSET, flags);
        put8(FEC_ID_OFFSET, fecId);
        put16(OBJECT_ID_OFFSET, objectId);
        return this;
    }

    public void writeFlags(int flags) {
        put8(FLAGS_OFFSET, flags);
    }

    /** Writes the fec_payload_id of a NORM_DATA message. */
    public void writePayloadId(int m, long blockNumber, int symbolId, int blockLength) {
        FecPayloadId.write(buffer, offset + FEC_PAYLOAD_ID_OFFSET, fecId(), m, blockNumber, symbolId, blockLength);
    }
}
