package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * Header extensions: walks them, finds one by type, and writes the three this engine uses.
 *
 * <p>An extension starts with its type (HET). Types below 128 carry their length in 32-bit words in the next byte
 * (HEL, at least 1); types of 128 and above are exactly one word long.
 *
 * <pre>
 * EXT_FTI, fec_id 5 (HEL = 3):   |HET=64|HEL=3| transfer_length (48 bits)                   |
 *                                | encoding_symbol_length (16) | max_source_block_length (8) | max_n (8) |
 * EXT_FTI, fec_id 2 (HEL = 4):   |HET=64|HEL=4| transfer_length (48 bits)                   |
 *                                | m (8) | G (8) | encoding_symbol_length (16) |
 *                                | max_source_block_length (16) | max_n (16) |
 * EXT_FTI, fec_id 129 (HEL = 4): |HET=64|HEL=4| transfer_length (48 bits)                   |
 *                                | fec_instance_id (16) | encoding_symbol_length (16) |
 *                                | max_source_block_length (16) | max_n (16) |
 * EXT_CC_FEEDBACK (HEL = 3):     |HET=3|HEL=3| cc_sequence | cc_flags | cc_rtt | cc_loss | cc_rate | cc_loss_ex |
 * EXT_CC_RATE (fixed):           |HET=128| reserved | send_rate |
 * EXT_FJM2_START (HEL = 2):      |HET=112|HEL=2| first_object_id (16) | age_ms (32)        |
 * </pre>
 * NRL NORM writes the parity count, not max_n, in the last FTI field (see docs/nrl-interop.md); {@link Fti}
 * keeps the raw value and lets the receiver interpret it.
 */
public final class HeaderExtensions {

    public static final int FTI_RS8_LENGTH = 12;
    public static final int FTI_LONG_LENGTH = 16;
    public static final int CC_FEEDBACK_LENGTH = 12;
    public static final int CC_RATE_LENGTH = 4;
    public static final int FLOW_OFFER_LENGTH = 4;
    public static final int START_LENGTH = 8;

    private HeaderExtensions() {
    }

    /**
     * Checks that the extensions in [start, end) are well formed: each length at least one word and the last one
     * ending exactly at {@code end}. Returns false for anything else.
     */
    public static boolean validate(ByteBuf buf, int start, int end) {
        int position = start;
        while (position < end) {
            int length = extensionLength(buf, position, end);
            if (length <= 0) {
                return false;
            }
            position += length;
        }
        return position == end;
    }

    /** Length of the extension at {@code index}, or -1 when it is malformed or runs past {@code end}. */
    public static int extensionLength(ByteBuf buf, int index, int end) {
        if (index + 4 > end) {
            return -1;
        }
        int type = buf.getUnsignedByte(index);
        int length = type >= 128 ? 4 : buf.getUnsignedByte(index + 1) << 2;
        return (length == 0 || index + length > end) ? -1 : length;
    }

    /** Absolute index of the first extension of the type in [start, end), or -1. Assumes validated input. */
    public static int find(ByteBuf buf, int start, int end, int type) {
        int position = start;
        while (position < end) {
            int length = extensionLength(buf, position, end);
            if (length <= 0) {
                return -1;
            }
            if (buf.getUnsignedByte(position) == type) {
                return position;
            }
            position += length;
        }
        return -1;
    }

    // ---- FTI ------------------------------------------------------------------------------------------------------

    /** Expected FTI length for a fec_id, or -1 when unsupported. */
    public static int ftiLength(int fecId) {
        switch (fecId) {
            case NormWire.FEC_RS8:
                return FTI_RS8_LENGTH;
            case NormWire.FEC_RS:
            case NormWire.FEC_SMALL_BLOCK:
                return FTI_LONG_LENGTH;
            default:
                return -1;
        }
    }

    /**
     * Decodes an EXT_FTI found at {@code index} into {@code out}; false when its length does not match the fec_id
     * or a field is out of range (zero segment length or block length).
     */
    public static boolean readFti(ByteBuf buf, int index, int end, int fecId, Fti out) {
        int length = extensionLength(buf, index, end);
        if (length != ftiLength(fecId)) {
            return false;
        }
        long transferLength = ((long) buf.getUnsignedShort(index + 2) << 32) | buf.getUnsignedInt(index + 4);
        int symbolLength;
        int maxBlockLength;
        int maxN;
        int fieldSize = 8;
        int instanceId = 0;
        switch (fecId) {
            case NormWire.FEC_RS8:
                symbolLength = buf.getUnsignedShort(index + 8);
                maxBlockLength = buf.getUnsignedByte(index + 10);
                maxN = buf.getUnsignedByte(index + 11);
                break;
            case NormWire.FEC_RS:
                fieldSize = buf.getUnsignedByte(index + 8);
                symbolLength = buf.getUnsignedShort(index + 10);
                maxBlockLength = buf.getUnsignedShort(index + 12);
                maxN = buf.getUnsignedShort(index + 14);
                if (fieldSize != 8 && fieldSize != 16) {
                    return false;
                }
                break;
            default:
                instanceId = buf.getUnsignedShort(index + 8);
                symbolLength = buf.getUnsignedShort(index + 10);
                maxBlockLength = buf.getUnsignedShort(index + 12);
                maxN = buf.getUnsignedShort(index + 14);
                break;
        }
        if (symbolLength == 0 || maxBlockLength == 0) {
            return false;
        }
        out.set(fecId, fieldSize, instanceId, transferLength, symbolLength, maxBlockLength, maxN);
        return true;
    }

    /** Writes an EXT_FTI for the fec_id at {@code index}; returns its length. */
    public static int writeFti(ByteBuf buf, int index, int fecId, int m, long transferLength, int symbolLength,
                               int maxBlockLength, int lastField) {
        buf.setByte(index, NormWire.EXT_FTI);
        buf.setShort(index + 2, (int) (transferLength >>> 32));
        buf.setInt(index + 4, (int) transferLength);
        switch (fecId) {
            case NormWire.FEC_RS8:
                buf.setByte(index + 1, FTI_RS8_LENGTH >>> 2);
                buf.setShort(index + 8, symbolLength);
                buf.setByte(index + 10, maxBlockLength);
                buf.setByte(index + 11, lastField);
                return FTI_RS8_LENGTH;
            case NormWire.FEC_RS:
                buf.setByte(index + 1, FTI_LONG_LENGTH >>> 2);
                buf.setByte(index + 8, m);
                buf.setByte(index + 9, 1);
                buf.setShort(index + 10, symbolLength);
                buf.setShort(index + 12, maxBlockLength);
                buf.setShort(index + 14, lastField);
                return FTI_LONG_LENGTH;
            case NormWire.FEC_SMALL_BLOCK:
                buf.setByte(index + 1, FTI_LONG_LENGTH >>> 2);
                buf.setShort(index + 8, 0);
                buf.setShort(index + 10, symbolLength);
                buf.setShort(index + 12, maxBlockLength);
                buf.setShort(index + 14, lastField);
                return FTI_LONG_LENGTH;
            default:
                throw new IllegalArgumentException("unsupported fec_id " + fecId);
        }
    }

    /** Writes EXT_FJM2_START: the sender's first object id and its age in ms (capped); returns its length. */
    public static int writeStart(ByteBuf buf, int index, int firstObjectId, long ageMillis) {
        buf.setByte(index, NormWire.EXT_FJM2_START);
        buf.setByte(index + 1, START_LENGTH / 4);
        buf.setShort(index + 2, firstObjectId);
        buf.setInt(index + 4, (int) Math.min(Math.max(ageMillis, 0), 0xFFFF_FFFFL));
        return START_LENGTH;
    }

    /**
     * The EXT_FJM2_START between {@code start} and {@code end}: its index, or -1 when there is none or it does not
     * have its length.
     */
    public static int findStart(ByteBuf buf, int start, int end) {
        int index = find(buf, start, end, NormWire.EXT_FJM2_START);
        return index >= 0 && extensionLength(buf, index, end) == START_LENGTH ? index : -1;
    }

    public static int startFirstObjectId(ByteBuf buf, int index) {
        return buf.getUnsignedShort(index + 2);
    }

    public static long startAgeMillis(ByteBuf buf, int index) {
        return buf.getUnsignedInt(index + 4);
    }

    /** Writes EXT_FJM2_FLOW (one word, no content yet); returns its length. */
    public static int writeFlowOffer(ByteBuf buf, int index) {
        buf.setInt(index, NormWire.EXT_FJM2_FLOW << 24);
        return FLOW_OFFER_LENGTH;
    }

    // ---- CC ---------------------------------------------------------------------------------------------------------

    /** Writes EXT_CC_RATE carrying the quantised send rate; returns its length. */
    public static int writeCcRate(ByteBuf buf, int index, int quantizedRate) {
        buf.setByte(index, NormWire.EXT_CC_RATE);
        buf.setByte(index + 1, 0);
        buf.setShort(index + 2, quantizedRate);
        return CC_RATE_LENGTH;
    }

    public static int ccRate(ByteBuf buf, int index) {
        return buf.getUnsignedShort(index + 2);
    }

    /** Writes EXT_CC_FEEDBACK; the 32-bit loss goes over cc_loss (high half) and cc_loss_ex (low half). */
    public static int writeCcFeedback(ByteBuf buf, int index, int ccSequence, int ccFlags, int ccRtt, long loss32,
                                      int quantizedRate) {
        buf.setByte(index, NormWire.EXT_CC_FEEDBACK);
        buf.setByte(index + 1, CC_FEEDBACK_LENGTH >>> 2);
        buf.setShort(index + 2, ccSequence);
        buf.setByte(index + 4, ccFlags);
        buf.setByte(index + 5, ccRtt);
        buf.setShort(index + 6, (int) (loss32 >>> 16));
        buf.setShort(index + 8, quantizedRate);
        buf.setShort(index + 10, (int) loss32);
        return CC_FEEDBACK_LENGTH;
    }

    public static int ccFeedbackSequence(ByteBuf buf, int index) {
        return buf.getUnsignedShort(index + 2);
    }

    public static int ccFeedbackFlags(ByteBuf buf, int index) {
        return buf.getUnsignedByte(index + 4);
    }

    public static int ccFeedbackRtt(ByteBuf buf, int index) {
        return buf.getUnsignedByte(index + 5);
    }

    public static long ccFeedbackLoss32(ByteBuf buf, int index) {
        return ((long) buf.getUnsignedShort(index + 6) << 16) | buf.getUnsignedShort(index + 10);
    }

    public static int ccFeedbackRate(ByteBuf buf, int index) {
        return buf.getUnsignedShort(index + 8);
    }
}
