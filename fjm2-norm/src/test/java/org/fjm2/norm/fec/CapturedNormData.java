package org.fjm2.norm.fec;

import java.util.Arrays;

/**
 * Just enough of an RFC 5740 NORM_DATA parser to read parity off the wire in tests (the real codec is the engine's):
 * the common header, the FEC payload id of fec_id 2, 5 and 129, EXT_FTI, and the payload.
 *
 * <pre>
 * 0 version(4)|type(4)  1 hdr_len (32-bit words)  2 sequence  4 source_id  8 instance_id  10 grtt
 * 11 backoff(4)|gsize(4)  12 flags  13 fec_id  14 object_transport_id  16 fec_payload_id  then extensions
 * </pre>
 */
final class CapturedNormData {

    static final int NORM_DATA = 2;
    static final int EXT_FTI = 64;

    /** FEC object transmission information from EXT_FTI. */
    static final class Fti {
        final long objectSize;
        final int fieldBits;
        final int segmentSize;
        final int maxBlockLength;
        /** The FTI's last field: RFC 5510 calls it max_n; NRL writes the parity count. */
        final int lastField;

        Fti(long objectSize, int fieldBits, int segmentSize, int maxBlockLength, int lastField) {
            this.objectSize = objectSize;
            this.fieldBits = fieldBits;
            this.segmentSize = segmentSize;
            this.maxBlockLength = maxBlockLength;
            this.lastField = lastField;
        }
    }

    final int fecId;
    final long sourceId;
    final int transportId;
    final long sbn;
    final int esi;
    /** Source block length from a fec_id 129 payload id, else -1. */
    final int sourceBlockLength;
    final Fti fti;
    final byte[] payload;

    private CapturedNormData(int fecId, long sourceId, int transportId, long sbn, int esi, int sourceBlockLength,
                             Fti fti, byte[] payload) {
        this.fecId = fecId;
        this.sourceId = sourceId;
        this.transportId = transportId;
        this.sbn = sbn;
        this.esi = esi;
        this.sourceBlockLength = sourceBlockLength;
        this.fti = fti;
        this.payload = payload;
    }

    private static int u8(byte[] p, int at) {
        return p[at] & 0xFF;
    }

    private static int u16(byte[] p, int at) {
        return (u8(p, at) << 8) | u8(p, at + 1);
    }

    private static long u32(byte[] p, int at) {
        return ((long) u16(p, at) << 16) | u16(p, at + 2);
    }

    /** The NORM_DATA message in {@code p}, or null for any other message (or one this parser cannot read). */
    static CapturedNormData parse(byte[] p) {
        if (p.length < 20 || (u8(p, 0) >>> 4) != 1 || (u8(p, 0) & 0x0F) != NORM_DATA) {
            return null;
        }
        int headerLength = u8(p, 1) * 4;
        int fecId = u8(p, 13);
        int payloadIdLength = fecId == FecCodec.FEC_ID_SMALL_BLOCK ? 8 : 4;
        if (headerLength < 16 + payloadIdLength || headerLength > p.length) {
            return null;
        }
        Fti fti = null;
        for (int at = 16 + payloadIdLength; at + 4 <= headerLength; ) {
            int het = u8(p, at);
            int length = het >= 128 ? 4 : u8(p, at + 1) * 4;
            if (length == 0 || at + length > headerLength) {
                return null;
            }
            if (het == EXT_FTI) {
                fti = parseFti(p, at, fecId);
            }
            at += length;
        }
        long sbn;
        int esi;
        int blockLength = -1;
        if (fecId == FecCodec.FEC_ID_SMALL_BLOCK) {
            sbn = u32(p, 16);
            blockLength = u16(p, 20);
            esi = u16(p, 22);
        } else if (fecId == FecCodec.FEC_ID_RS && fti != null && fti.fieldBits == 16) {
            sbn = u16(p, 16);
            esi = u16(p, 18);
        } else {
            sbn = u32(p, 16) >>> 8;
            esi = u8(p, 19);
        }
        return new CapturedNormData(fecId, u32(p, 4), u16(p, 14), sbn, esi, blockLength, fti,
                Arrays.copyOfRange(p, headerLength, p.length));
    }

    private static Fti parseFti(byte[] p, int at, int fecId) {
        long objectSize = ((long) u16(p, at + 2) << 32) | u32(p, at + 4);
        switch (fecId) {
            case FecCodec.FEC_ID_RS8: // HEL 3: size(6) segment(2) B(1) max_n(1)
                return new Fti(objectSize, 8, u16(p, at + 8), u8(p, at + 10), u8(p, at + 11));
            case FecCodec.FEC_ID_RS: // HEL 4: size(6) m(1) G(1) segment(2) B(2) max_n(2)
                return new Fti(objectSize, u8(p, at + 8), u16(p, at + 10), u16(p, at + 12), u16(p, at + 14));
            case FecCodec.FEC_ID_SMALL_BLOCK: // HEL 4: size(6) instance(2) segment(2) B(2) max_n(2)
                return new Fti(objectSize, 8, u16(p, at + 10), u16(p, at + 12), u16(p, at + 14));
            default:
                return null;
        }
    }

    /**
     * Source symbols in block {@code sbn} of an object, by the RFC 5052 partitioning NORM uses (RFC 5740 5.1.1):
     * N segments in Z = ceil(N / B) blocks, the first N - Z*floor(N/Z) of them one symbol longer.
     */
    static int blockLength(long objectSize, int segmentSize, int maxBlockLength, long sbn) {
        long segments = (objectSize + segmentSize - 1) / segmentSize;
        long blocks = (segments + maxBlockLength - 1) / maxBlockLength;
        long small = segments / blocks;
        long largeCount = segments - blocks * small;
        return (int) (sbn < largeCount ? small + 1 : small);
    }
}
