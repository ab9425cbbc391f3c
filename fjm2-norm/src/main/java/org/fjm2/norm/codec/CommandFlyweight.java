package org.fjm2.norm.codec;

/**
 * NORM_CMD, all flavors. The fields after {@code flavor} depend on the flavor; the accessors of each flavor are
 * grouped below and only meaningful for that flavor.
 *
 * <pre>
 * |version| type=3|    hdr_len    |          sequence             |
 * |                           source_id                           |
 * |          instance_id          |     grtt      |backoff| gsize |
 * |    flavor     |  flavor-specific fields ...                   |
 *
 * FLUSH, SQUELCH: |flavor| fec_id | object_transport_id | fec_payload_id | [extensions] | node/object list
 * EOT:            |flavor| reserved (3 bytes)
 * CC:             |flavor| flags | cc_sequence | send_time_sec | send_time_usec | [extensions] | cc_node_list
 * REPAIR_ADV:     |flavor| flags | reserved (2) | [extensions] | repair requests
 * ACK_REQ:        |flavor| reserved | ack_type | ack_id | [extensions] | acking_node_list
 * APPLICATION:    |flavor| reserved (3 bytes) | [extensions] | application content
 * </pre>
 */
public final class CommandFlyweight extends NormFlyweight {

    public static final int INSTANCE_ID_OFFSET = 8;
    public static final int GRTT_OFFSET = 10;
    public static final int BACKOFF_GSIZE_OFFSET = 11;
    public static final int FLAVOR_OFFSET = 12;

    // FLUSH and SQUELCH
    public static final int FEC_ID_OFFSET = 13;
    public static final int OBJECT_ID_OFFSET = 14;
    public static final int FEC_PAYLOAD_ID_OFFSET = 16;

    // CC
    public static final int CC_FLAGS_OFFSET = 13;
    public static final int CC_SEQUENCE_OFFSET = 14;
    public static final int CC_SEND_TIME_SEC_OFFSET = 16;
    public static final int CC_SEND_TIME_USEC_OFFSET = 20;
    public static final int CC_HEADER_LENGTH = 24;
    /** One cc_node_list entry: node id, flags, rtt, rate. */
    public static final int CC_NODE_LENGTH = 8;

    // REPAIR_ADV
    public static final int REPAIR_ADV_FLAGS_OFFSET = 13;

    // ACK_REQ
    public static final int ACK_TYPE_OFFSET = 14;
    public static final int ACK_ID_OFFSET = 15;

    /** Base header length of EOT, REPAIR_ADV, ACK_REQ and APPLICATION. */
    public static final int SHORT_HEADER_LENGTH = 16;

    /** Base header length (before extensions) of a flavor, or -1 for an unknown flavor. */
    public static int baseHeaderLength(int flavor, int fecId) {
        switch (flavor) {
            case NormWire.CMD_FLUSH:
            case NormWire.CMD_SQUELCH:
                int idLength = NormWire.fecPayloadIdLength(fecId);
                return idLength < 0 ? -1 : FEC_PAYLOAD_ID_OFFSET + idLength;
            case NormWire.CMD_CC:
                return CC_HEADER_LENGTH;
            case NormWire.CMD_EOT:
            case NormWire.CMD_REPAIR_ADV:
            case NormWire.CMD_ACK_REQ:
            case NormWire.CMD_APPLICATION:
                return SHORT_HEADER_LENGTH;
            default:
                return -1;
        }
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

    public int flavor() {
        return u8(FLAVOR_OFFSET);
    }

    /** The header length without extensions, for this message's flavor. */
    public int baseHeaderLength() {
        return baseHeaderLength(flavor(), u8(FEC_ID_OFFSET));
    }

    // ---- FLUSH and SQUELCH -------------------------------------------------------------------------------------

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

    /** FLUSH and ACK_REQ: number of node ids in the acking node list (the payload). */
    public int ackingNodeCount() {
        return payloadLength() >>> 2;
    }

    public int ackingNode(int index) {
        return buffer.getInt(payloadIndex() + (index << 2));
    }

    /** SQUELCH: number of 16-bit object ids in the invalid object list (the payload). */
    public int invalidObjectCount() {
        return payloadLength() >>> 1;
    }

    public int invalidObject(int index) {
        return buffer.getUnsignedShort(payloadIndex() + (index << 1));
    }

    // ---- CC ------------------------------------------------------------------------------------------------------

    public int ccFlags() {
        return u8(CC_FLAGS_OFFSET);
    }

    public int ccSequence() {
        return u16(CC_SEQUENCE_OFFSET);
    }

    public long sendTimeSeconds() {
        return u32(CC_SEND_TIME_SEC_OFFSET);
    }

    public long sendTimeMicros() {
        return u32(CC_SEND_TIME_USEC_OFFSET);
    }

    public int ccNodeCount() {
        return payloadLength() / CC_NODE_LENGTH;
    }

    public int ccNodeId(int index) {
        return buffer.getInt(payloadIndex() + index * CC_NODE_LENGTH);
    }

    public int ccNodeFlags(int index) {
        return buffer.getUnsignedByte(payloadIndex() + index * CC_NODE_LENGTH + 4);
    }

    public int ccNodeRtt(int index) {
        return buffer.getUnsignedByte(payloadIndex() + index * CC_NODE_LENGTH + 5);
    }

    public int ccNodeRate(int index) {
        return buffer.getUnsignedShort(payloadIndex() + index * CC_NODE_LENGTH + 6);
    }

    // ---- REPAIR_ADV and ACK_REQ ---------------------------------------------------------------------------------

    public int repairAdvFlags() {
        return u8(REPAIR_ADV_FLAGS_OFFSET);
    }

    public int ackType() {
        return u8(ACK_TYPE_OFFSET);
    }

    public int ackId() {
        return u8(ACK_ID_OFFSET);
    }

    // ---- building ------------------------------------------------------------------------------------------------

    /** Writes the fields every command has; flavor-specific bytes up to the base header length are zeroed. */
    public CommandFlyweight writeCommandHeader(int flavor, int sequence, int sourceId, int instanceId, int grtt,
                                               int backoff, int gsize) {
        writeCommonHeader(NormWire.TYPE_CMD, sequence, sourceId);
        put16(INSTANCE_ID_OFFSET, instanceId);
        put8(GRTT_OFFSET, grtt);
        put8(BACKOFF_GSIZE_OFFSET, ((backoff & 0x0F) << 4) | (gsize & 0x0F));
        put8(FLAVOR_OFFSET, flavor);
        put8(13, 0);
        put16(14, 0);
        return this;
    }

    /** FLUSH and SQUELCH: fec_id, object id and payload id; returns the base header length. */
    public int writeObjectPosition(int fecId, int m, int objectId, long blockNumber, int symbolId, int blockLength) {
        put8(FEC_ID_OFFSET, fecId);
        put16(OBJECT_ID_OFFSET, objectId);
        return FEC_PAYLOAD_ID_OFFSET
                + FecPayloadId.write(buffer, offset + FEC_PAYLOAD_ID_OFFSET, fecId, m, blockNumber, symbolId, blockLength);
    }

    public void writeCc(int flags, int ccSequence, long sendTimeSeconds, long sendTimeMicros) {
        put8(CC_FLAGS_OFFSET, flags);
        put16(CC_SEQUENCE_OFFSET, ccSequence);
        put32(CC_SEND_TIME_SEC_OFFSET, sendTimeSeconds);
        put32(CC_SEND_TIME_USEC_OFFSET, sendTimeMicros);
    }

    public void writeAckRequest(int ackType, int ackId) {
        put8(ACK_TYPE_OFFSET, ackType);
        put8(ACK_ID_OFFSET, ackId);
    }
}
