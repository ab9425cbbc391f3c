package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * The fec_payload_id field, whose layout depends on the FEC encoding id:
 * <ul>
 *   <li>fec_id 5 (RS8, RFC 5510) and fec_id 2 with m = 8: 24-bit source block number, 8-bit encoding symbol id;</li>
 *   <li>fec_id 2 with m = 16: 16-bit source block number, 16-bit encoding symbol id;</li>
 *   <li>fec_id 129 (RFC 5445): 32-bit source block number, 16-bit source block length, 16-bit symbol id.</li>
 * </ul>
 * Static methods over absolute buffer indexes, so the same code serves data, flush, squelch, NACK and ACK
 * messages.
 */
public final class FecPayloadId {

    private FecPayloadId() {
    }

    /** Mask of the source block number's bits for the fec_id and field size m. */
    public static long blockNumberMask(int fecId, int m) {
        switch (fecId) {
            case NormWire.FEC_RS8:
                return 0x00FFFFFFL;
            case NormWire.FEC_RS:
                return m == 16 ? 0x0000FFFFL : 0x00FFFFFFL;
            case NormWire.FEC_SMALL_BLOCK:
                return 0xFFFFFFFFL;
            default:
                return 0;
        }
    }

    /** Largest encoding symbol id the field can carry. */
    public static int maxSymbolId(int fecId, int m) {
        return (fecId == NormWire.FEC_RS8 || (fecId == NormWire.FEC_RS && m != 16)) ? 0xFF : 0xFFFF;
    }

    public static long blockNumber(ByteBuf buf, int index, int fecId, int m) {
        switch (fecId) {
            case NormWire.FEC_RS8:
                return buf.getUnsignedInt(index) >>> 8;
            case NormWire.FEC_RS:
                return m == 16 ? buf.getUnsignedShort(index) : buf.getUnsignedInt(index) >>> 8;
            case NormWire.FEC_SMALL_BLOCK:
                return buf.getUnsignedInt(index);
            default:
                return -1;
        }
    }

    public static int symbolId(ByteBuf buf, int index, int fecId, int m) {
        switch (fecId) {
            case NormWire.FEC_RS8:
                return buf.getUnsignedByte(index + 3);
            case NormWire.FEC_RS:
                return m == 16 ? buf.getUnsignedShort(index + 2) : buf.getUnsignedByte(index + 3);
            case NormWire.FEC_SMALL_BLOCK:
                return buf.getUnsignedShort(index + 6);
            default:
                return -1;
        }
    }

    /** Source block length; carried only by fec_id 129, else -1 (the FTI and block partitioning give it). */
    public static int blockLength(ByteBuf buf, int index, int fecId) {
        return fecId == NormWire.FEC_SMALL_BLOCK ? buf.getUnsignedShort(index + 4) : -1;
    }

    /** Writes the field; returns its length. */
    public static int write(ByteBuf buf, int index, int fecId, int m, long blockNumber, int symbolId, int blockLength) {
        switch (fecId) {
            case NormWire.FEC_RS8:
                buf.setInt(index, (int) ((blockNumber & 0x00FFFFFFL) << 8) | (symbolId & 0xFF));
                return 4;
            case NormWire.FEC_RS:
                if (m == 16) {
                    buf.setShort(index, (int) blockNumber);
                    buf.setShort(index + 2, symbolId);
                } else {
                    buf.setInt(index, (int) ((blockNumber & 0x00FFFFFFL) << 8) | (symbolId & 0xFF));
                }
                return 4;
            case NormWire.FEC_SMALL_BLOCK:
                buf.setInt(index, (int) blockNumber);
                buf.setShort(index + 4, blockLength);
                buf.setShort(index + 6, symbolId);
                return 8;
            default:
                throw new IllegalArgumentException("unsupported fec_id " + fecId);
        }
    }
}
