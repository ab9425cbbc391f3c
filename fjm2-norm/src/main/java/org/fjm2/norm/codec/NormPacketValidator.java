package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * Checks a datagram from the network before anything reads it: every fixed field of its type lies inside the
 * datagram, hdr_len is sane, extensions are well formed, list payloads are whole. After {@code validate} returns
 * null, the flyweights can read the message without further bounds checks; a non-null result says why the
 * datagram must be counted and dropped. Stateless and allocation-free.
 */
public final class NormPacketValidator {

    private NormPacketValidator() {
    }

    /** Validates {@code length} bytes at absolute index {@code offset}; null when the message is well formed. */
    public static PacketError validate(ByteBuf buf, int offset, int length) {
        if (length < NormFlyweight.COMMON_HEADER_LENGTH) {
            return PacketError.TRUNCATED;
        }
        int versionType = buf.getUnsignedByte(offset);
        if ((versionType >>> 4) != NormWire.VERSION) {
            return PacketError.BAD_VERSION;
        }
        int headerLength = buf.getUnsignedByte(offset + NormFlyweight.HDR_LEN_OFFSET) << 2;
        switch (versionType & 0x0F) {
            case NormWire.TYPE_INFO:
            case NormWire.TYPE_DATA:
                return validateObjectMessage(buf, offset, length, headerLength, versionType & 0x0F);
            case NormWire.TYPE_CMD:
                return validateCommand(buf, offset, length, headerLength);
            case NormWire.TYPE_NACK:
            case NormWire.TYPE_ACK:
                return validateFeedback(buf, offset, length, headerLength, versionType & 0x0F);
            default:
                return PacketError.UNKNOWN_TYPE;
        }
    }

    public static PacketError validate(ByteBuf datagram) {
        return validate(datagram, datagram.readerIndex(), datagram.readableBytes());
    }

    private static PacketError validateObjectMessage(ByteBuf buf, int offset, int length, int headerLength, int type) {
        if (length < ObjectMessageFlyweight.INFO_HEADER_LENGTH) {
            return PacketError.TRUNCATED;
        }
        int fecId = buf.getUnsignedByte(offset + ObjectMessageFlyweight.FEC_ID_OFFSET);
        if (!NormWire.isSupportedFecId(fecId)) {
            return PacketError.UNSUPPORTED_FEC_ID;
        }
        int base = ObjectMessageFlyweight.baseHeaderLength(type, fecId);
        if (length < base) {
            return PacketError.TRUNCATED;
        }
        if (headerLength < base || headerLength > length) {
            return PacketError.BAD_HEADER_LENGTH;
        }
        if (!HeaderExtensions.validate(buf, offset + base, offset + headerLength)) {
            return PacketError.BAD_EXTENSION;
        }
        int flags = buf.getUnsignedByte(offset + ObjectMessageFlyweight.FLAGS_OFFSET);
        if (type == NormWire.TYPE_DATA && (flags & NormWire.FLAG_STREAM) != 0
                && length - headerLength < ObjectMessageFlyweight.STREAM_PAYLOAD_HEADER_LENGTH) {
            return PacketError.BAD_PAYLOAD_LENGTH;
        }
        int ftiIndex = HeaderExtensions.find(buf, offset + base, offset + headerLength, NormWire.EXT_FTI);
        if (ftiIndex >= 0 && HeaderExtensions.extensionLength(buf, ftiIndex, offset + headerLength)
                != HeaderExtensions.ftiLength(fecId)) {
            return PacketError.BAD_EXTENSION;
        }
        return null;
    }

    private static PacketError validateCommand(ByteBuf buf, int offset, int length, int headerLength) {
        if (length < CommandFlyweight.FLAVOR_OFFSET + 1) {
            return PacketError.TRUNCATED;
        }
        int flavor = buf.getUnsignedByte(offset + CommandFlyweight.FLAVOR_OFFSET);
        if (flavor < NormWire.CMD_FLUSH || flavor > NormWire.CMD_APPLICATION) {
            return PacketError.UNKNOWN_FLAVOR;
        }
        if (length < CommandFlyweight.SHORT_HEADER_LENGTH) {
            return PacketError.TRUNCATED;
        }
        int fecId = buf.getUnsignedByte(offset + CommandFlyweight.FEC_ID_OFFSET);
        if ((flavor == NormWire.CMD_FLUSH || flavor == NormWire.CMD_SQUELCH) && !NormWire.isSupportedFecId(fecId)) {
            return PacketError.UNSUPPORTED_FEC_ID;
        }
        int base = CommandFlyweight.baseHeaderLength(flavor, fecId);
        if (length < base) {
            return PacketError.TRUNCATED;
        }
        if (headerLength < base || headerLength > length) {
            return PacketError.BAD_HEADER_LENGTH;
        }
        if (!HeaderExtensions.validate(buf, offset + base, offset + headerLength)) {
            return PacketError.BAD_EXTENSION;
        }
        int payload = length - headerLength;
        switch (flavor) {
            case NormWire.CMD_FLUSH:
            case NormWire.CMD_ACK_REQ:
                return (payload & 3) == 0 ? null : PacketError.BAD_PAYLOAD_LENGTH;
            case NormWire.CMD_SQUELCH:
                return (payload & 1) == 0 ? null : PacketError.BAD_PAYLOAD_LENGTH;
            case NormWire.CMD_CC:
                return payload % CommandFlyweight.CC_NODE_LENGTH == 0 ? null : PacketError.BAD_PAYLOAD_LENGTH;
            default:
                return null;
        }
    }

    private static PacketError validateFeedback(ByteBuf buf, int offset, int length, int headerLength, int type) {
        if (length < FeedbackFlyweight.HEADER_LENGTH) {
            return PacketError.TRUNCATED;
        }
        if (headerLength < FeedbackFlyweight.HEADER_LENGTH || headerLength > length) {
            return PacketError.BAD_HEADER_LENGTH;
        }
        if (!HeaderExtensions.validate(buf, offset + FeedbackFlyweight.HEADER_LENGTH, offset + headerLength)) {
            return PacketError.BAD_EXTENSION;
        }
        if (type == NormWire.TYPE_ACK
                && buf.getUnsignedByte(offset + FeedbackFlyweight.ACK_TYPE_OFFSET) == NormWire.ACK_FJM2_FLOW
                && length - headerLength < FlowReport.LENGTH) {
            return PacketError.BAD_PAYLOAD_LENGTH;
        }
        if (type == NormWire.TYPE_ACK
                && buf.getUnsignedByte(offset + FeedbackFlyweight.ACK_TYPE_OFFSET) == NormWire.ACK_FLUSH) {
            int payload = length - headerLength;
            if (payload < FeedbackFlyweight.ACK_FLUSH_PAYLOAD_ID_OFFSET) {
                return PacketError.BAD_PAYLOAD_LENGTH;
            }
            int fecId = buf.getUnsignedByte(offset + headerLength);
            if (!NormWire.isSupportedFecId(fecId)) {
                return PacketError.UNSUPPORTED_FEC_ID;
            }
            if (payload < FeedbackFlyweight.ACK_FLUSH_PAYLOAD_ID_OFFSET + NormWire.fecPayloadIdLength(fecId)) {
                return PacketError.BAD_PAYLOAD_LENGTH;
            }
        }
        return null;
    }
}
