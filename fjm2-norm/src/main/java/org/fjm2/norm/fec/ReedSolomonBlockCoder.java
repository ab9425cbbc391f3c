package org.fjm2.norm.fec;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.object.BlockPartition;

/**
 * Plugs {@link FecCodec} into the engine: the sender's {@link ParityEncoder} (fec_id 5) and the receivers'
 * {@link BlockDecoder} (fec_id 5, 2 with m = 8 or 16, 129). Works on heap buffers in place (object containers and
 * parity caches are heap buffers for this reason) and copies only when handed a direct buffer. One instance per
 * session event loop: it keeps scratch arrays and one codec per scheme, so steady state allocates nothing.
 */
public final class ReedSolomonBlockCoder implements ParityEncoder, BlockDecoder {

    private final FecCodec rs8 = FecCodec.forFecId(FecCodec.FEC_ID_RS8, 8);
    private FecCodec rs16;
    private FecCodec smallBlock;
    /** Largest B + parity accepted from a remote FTI over GF(2^16): code set-up is O(n^2), decoding O(e^3). */
    private final int maxSymbolsM16;
    /**
     * Largest B x parity of a remote code this decoder sets up (its parity rows take 4 bytes a cell): a forged FTI
     * must not make one datagram cost more. NRL NORM's codes (B + parity <= 255 over GF(2^8)) stay far below.
     */
    public static final int MAX_DECODE_CODE_CELLS = 1 << 16;

    private byte[][] symbols = new byte[0][];
    private int[] offsets = new int[0];
    private int[] lengths = new int[0];
    private int[] esis = new int[0];
    private byte[] copy = new byte[0];
    private byte[][] parityOut = new byte[0][];
    private int[] parityOffset = new int[0];

    /** {@code maxSymbolsM16}: cap on B + parity for GF(2^16) codes announced by remote senders. */
    public ReedSolomonBlockCoder(int maxSymbolsM16) {
        this.maxSymbolsM16 = maxSymbolsM16;
    }

    public ReedSolomonBlockCoder() {
        this(1024);
    }

    // ---- sender ----------------------------------------------------------------------------------------------

    @Override
    public void encodeBlock(ByteBuf objectData, BlockPartition partition, int block, int parity, ByteBuf out,
                            int outIndex) {
        int k = partition.blockLength(block);
        int e = partition.segmentSize();
        ensure(Math.max(k, parity));
        byte[] source;
        int base;
        long blockOffset = partition.blockOffset(block);
        int blockBytes = (int) (partition.segmentOffset(block, k - 1) - blockOffset) + partition.segmentLength(block, k - 1);
        if (objectData.hasArray()) {
            source = objectData.array();
            base = objectData.arrayOffset() + objectData.readerIndex() + (int) blockOffset;
        } else {
            if (copy.length < blockBytes) {
                copy = new byte[blockBytes];
            }
            objectData.getBytes(objectData.readerIndex() + (int) blockOffset, copy, 0, blockBytes);
            source = copy;
            base = 0;
        }
        for (int i = 0; i < k; i++) {
            symbols[i] = source;
            offsets[i] = base + i * e;
            lengths[i] = partition.segmentLength(block, i);
        }
        if (parityOut.length < parity) {
            parityOut = new byte[parity][];
            parityOffset = new int[parity];
        }
        byte[] outArray = out.array();
        for (int j = 0; j < parity; j++) {
            parityOut[j] = outArray;
            parityOffset[j] = out.arrayOffset() + outIndex + j * e;
        }
        rs8.encodeParity(partition.maxBlockLength(), k, parity, symbols, offsets, lengths, e, parityOut, parityOffset);
    }

    // ---- receiver --------------------------------------------------------------------------------------------

    @Override
    public boolean supports(int fecId, int m) {
        return FecCodec.isSupported(fecId, m);
    }

    @Override
    public boolean decode(int fecId, int m, BlockPartition partition, int block, int maxParity,
                          SourceSymbols source, ByteBuf[] parity, int[] parityEsi, int parityCount) {
        FecCodec codec = codec(fecId, m);
        int k = partition.blockLength(block);
        int b = partition.maxBlockLength();
        if (codec == null || !codec.isValidCode(b, maxParity) || (m == 16 && b + maxParity > maxSymbolsM16)
                || (long) b * maxParity > MAX_DECODE_CODE_CELLS) {
            return false;
        }
        int e = partition.segmentSize();
        ensure(k);
        int nextParity = 0;
        for (int i = 0; i < k; i++) {
            if (source.has(i)) {
                symbols[i] = source.array(i);
                offsets[i] = source.arrayOffset(i);
                lengths[i] = Math.min(source.length(i, partition.segmentLength(block, i)), e);
                esis[i] = i;
            } else {
                if (nextParity >= parityCount) {
                    return false;
                }
                ByteBuf p = parity[nextParity];
                if (!p.hasArray() || p.readableBytes() < e) {
                    return false;
                }
                symbols[i] = p.array();
                offsets[i] = p.arrayOffset() + p.readerIndex();
                lengths[i] = e;
                esis[i] = parityEsi[nextParity];
                nextParity++;
            }
        }
        // Slots of missing source symbols hold parity; decoding rebuilds the sources there, nothing moves.
        if (!codec.decode(b, k, maxParity, symbols, offsets, lengths, esis, e)) {
            return false;
        }
        for (int i = 0; i < k; i++) {
            if (!source.has(i)) {
                int length = partition.segmentLength(block, i);
                System.arraycopy(symbols[i], offsets[i], source.array(i), source.arrayOffset(i), length);
            }
        }
        return true;
    }

    private FecCodec codec(int fecId, int m) {
        if (!FecCodec.isSupported(fecId, m)) {
            return null;
        }
        if (m == 16) {
            if (rs16 == null) {
                rs16 = FecCodec.forFecId(FecCodec.FEC_ID_RS, 16);
            }
            return rs16;
        }
        if (fecId == FecCodec.FEC_ID_SMALL_BLOCK) {
            if (smallBlock == null) {
                smallBlock = FecCodec.forFecId(FecCodec.FEC_ID_SMALL_BLOCK, 8);
            }
            return smallBlock;
        }
        return rs8;
    }

    private void ensure(int n) {
        if (symbols.length < n) {
            symbols = new byte[n][];
            offsets = new int[n];
            lengths = new int[n];
            esis = new int[n];
        }
    }
}
