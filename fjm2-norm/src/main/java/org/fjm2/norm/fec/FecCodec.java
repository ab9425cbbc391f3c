package org.fjm2.norm.fec;

import java.util.Arrays;
import java.util.Objects;

/**
 * Reed-Solomon erasure coder for NORM objects, bit-identical to NRL NORM's (RFC 5510 fec_id 5 and 2, and NRL's
 * fec_id 129, which is the same 8-bit code with another payload-id layout). See the package documentation for the
 * code, the block and symbol conventions and where output goes.
 *
 * <p>One instance per session thread: it is not thread-safe. It keeps scratch space and caches the parity rows (and
 * the encoding tables built from them) of the last {@link #PLAN_CACHE_SIZE} codes used, so that encoding and decoding
 * in steady state allocate nothing.
 *
 * <p>Encoding methods serve the local sender: bad arguments are programming errors and throw
 * {@link IllegalArgumentException}. {@link #decode} serves the receiver, whose every argument may come from the
 * network: it validates everything and returns false instead of throwing.
 */
public final class FecCodec {

    /** RFC 5510 fully-specified Reed-Solomon, m = 8 or 16 (24-bit SBN + 8-bit ESI, or 16 + 16). */
    public static final int FEC_ID_RS = 2;
    /** RFC 5510 Reed-Solomon over GF(2^8) (24-bit SBN, 8-bit ESI); what NRL NORM sends by default. */
    public static final int FEC_ID_RS8 = 5;
    /**
     * Under-specified small-block code (RFC 5445 payload id: 32-bit SBN, 16-bit source block length, 16-bit ESI).
     * NRL NORM decodes it with its 8-bit Reed-Solomon coder when the FEC instance id is 0, and encodes with it when
     * the application asks for fec_id 129; so does this codec.
     */
    public static final int FEC_ID_SMALL_BLOCK = 129;

    /** Largest B + parity over GF(2^8): one less than the field size, as in NRL (it refuses more). */
    public static final int MAX_ENCODING_SYMBOLS_M8 = 255;
    /** Largest B + parity over GF(2^16). */
    public static final int MAX_ENCODING_SYMBOLS_M16 = 65535;
    /** Largest symbol (segment) in bytes: NORM's segment size is a 16-bit field. */
    public static final int MAX_SYMBOL_LENGTH = 65535;
    /**
     * Encoding tables of one code are kept when they take at most this many bytes (default 2 MiB: B = 64 with
     * 16 parity takes 256 KiB); larger codes rebuild each source position's table per block (about 256 / symbol
     * length slower).
     */
    public static final long TABLE_CACHE_LIMIT_BYTES = 2L << 20;
    /** Codes (B, parity) whose plans are cached, default 8; a session normally uses one. */
    public static final int PLAN_CACHE_SIZE = 8;

    private final int fecId;
    private final GaloisField field;
    private final SymbolKernel kernel;
    private final int maxEncodingSymbols;

    private final ParityPlan[] plans = new ParityPlan[PLAN_CACHE_SIZE];
    private int nextPlanSlot;
    /**
     * Plans for decoding only: parity rows without the encoder's kernel tables. A receiver decodes whatever code a
     * remote FTI names, so a forged (B, parity) must not cost the tables (up to {@link #TABLE_CACHE_LIMIT_BYTES}).
     */
    private final ParityPlan[] decodePlans = new ParityPlan[PLAN_CACHE_SIZE];
    private int nextDecodePlanSlot;

    // scratch, grown on demand and then reused
    private long[] accumulator = new long[0];
    private long[] table = new long[0];
    private int[] slotOfEsi = new int[0];
    private int[] missing = new int[0];
    private int[] paritySlots = new int[0];
    private int[] erasureMatrix = new int[0];
    private int[] erasureInverse = new int[0];
    private int[] decodingRows = new int[0];
    private byte[][] outBuffers = new byte[0][];
    private int[] outOffsets = new int[0];
    private byte[][] arrangedBuffers = new byte[0][];
    private int[] arrangedOffsets = new int[0];
    private int[] arrangedLengths = new int[0];

    private FecCodec(int fecId, GaloisField field) {
        this.fecId = fecId;
        this.field = field;
        this.kernel = SymbolKernel.forFieldBits(field.bits());
        this.maxEncodingSymbols = field.order();
    }

    /** True when {@link #forFecId} accepts this FEC encoding id and field size m. */
    public static boolean isSupported(int fecId, int m) {
        switch (fecId) {
            case FEC_ID_RS8:
            case FEC_ID_SMALL_BLOCK:
                return m == 8;
            case FEC_ID_RS:
                return m == 8 || m == 16;
            default:
                return false;
        }
    }

    /**
     * A new codec for fec_id 5 (m = 8), 2 (m = 8 or 16) or 129 (m = 8).
     *
     * @throws IllegalArgumentException for any other combination ({@link #isSupported} tells beforehand)
     */
    public static FecCodec forFecId(int fecId, int m) {
        if (!isSupported(fecId, m)) {
            throw new IllegalArgumentException("unsupported FEC: fec_id " + fecId + " with m = " + m
                    + " (supported: fec_id 5 and 129 with m = 8, fec_id 2 with m = 8 or 16)");
        }
        return new FecCodec(fecId, m == 16 ? GaloisField.GF65536 : GaloisField.GF256);
    }

    public int fecId() {
        return fecId;
    }

    /** Bits per field element, the m of RFC 5510: 8 or 16. */
    public int fieldBits() {
        return field.bits();
    }

    /** Largest B + parity this codec accepts: 255 for m = 8, 65535 for m = 16. */
    public int maxEncodingSymbols() {
        return maxEncodingSymbols;
    }

    /** Most parity symbols a block of at most {@code maxBlockLength} source symbols can have (0 if B is invalid). */
    public int maxParity(int maxBlockLength) {
        if (maxBlockLength < 1 || maxBlockLength >= maxEncodingSymbols) {
            return 0;
        }
        return maxEncodingSymbols - maxBlockLength;
    }

    /** True when B source and {@code parity} repair symbols form a code this codec supports. */
    public boolean isValidCode(int maxBlockLength, int parity) {
        return maxBlockLength >= 1 && parity >= 0 && maxBlockLength + parity <= maxEncodingSymbols;
    }

    /**
     * Computes all parity symbols of one block in one pass over its source symbols.
     *
     * @param maxBlockLength B from the FTI: the code is always the (B, parity) code, short blocks included
     * @param k              source symbols in this block, 1..B
     * @param parity         parity symbols to produce
     * @param src            source symbol i is {@code srcLength[i]} bytes at {@code src[i][srcOffset[i]]}, i &lt; k
     * @param srcLength      bytes present per source symbol, each 0..symbolLength; the rest counts as zero (a short
     *                       last segment). Null means every symbol is {@code symbolLength} bytes.
     * @param symbolLength   bytes per parity symbol (the segment size, or the block's longest source symbol: parity
     *                       bytes past the longest source symbol are zero)
     * @param parityOut      parity j is written, {@code symbolLength} bytes, at {@code parityOut[j][parityOffset[j]]}
     */
    public void encodeParity(int maxBlockLength, int k, int parity, byte[][] src, int[] srcOffset, int[] srcLength,
                             int symbolLength, byte[][] parityOut, int[] parityOffset) {
        requireBlock(maxBlockLength, k, parity, symbolLength);
        requireSymbols(k, src, srcOffset, srcLength, symbolLength);
        if (parityOut.length < parity || parityOffset.length < parity) {
            throw new IllegalArgumentException("need " + parity + " parity buffers, got " + parityOut.length);
        }
        for (int j = 0; j < parity; j++) {
            Objects.checkFromIndexSize(parityOffset[j], symbolLength, parityOut[j].length);
        }
        if (parity == 0 || symbolLength == 0) {
            return;
        }
        ParityPlan plan = plan(maxBlockLength, parity);
        int groups = kernel.groups(parity);
        long[] acc = clearedAccumulator(kernel.accumulatorLength(symbolLength, parity));
        for (int i = 0; i < k; i++) {
            int length = srcLength == null ? symbolLength : srcLength[i];
            if (plan.tables != null) {
                kernel.accumulate(plan.tables, i * plan.tableLength, groups, src[i], srcOffset[i], length, acc);
            } else {
                long[] t = tableScratch(plan.tableLength);
                kernel.buildTable(plan.rows, i, maxBlockLength, parity, t, 0);
                kernel.accumulate(t, 0, groups, src[i], srcOffset[i], length, acc);
            }
        }
        kernel.store(acc, parity, symbolLength, parityOut, parityOffset);
    }

    /**
     * Computes the single parity symbol {@code parityIndex} of one block (repair on demand); the arguments mean what
     * they mean in {@link #encodeParity}. Writes {@code symbolLength} bytes at {@code dst[dstOffset]}.
     */
    public void encodeOneParity(int maxBlockLength, int k, int parity, byte[][] src, int[] srcOffset,
                                int[] srcLength, int symbolLength, int parityIndex, byte[] dst, int dstOffset) {
        requireBlock(maxBlockLength, k, parity, symbolLength);
        requireSymbols(k, src, srcOffset, srcLength, symbolLength);
        if (parityIndex < 0 || parityIndex >= parity) {
            throw new IllegalArgumentException("parity index " + parityIndex + " outside [0, " + parity + ")");
        }
        Objects.checkFromIndexSize(dstOffset, symbolLength, dst.length);
        Arrays.fill(dst, dstOffset, dstOffset + symbolLength, (byte) 0);
        ParityPlan plan = plan(maxBlockLength, parity);
        for (int i = 0; i < k; i++) {
            int length = srcLength == null ? symbolLength : srcLength[i];
            if (plan.tables != null) {
                kernel.accumulateOne(plan.tables, i * plan.tableLength, parity, parityIndex, src[i], srcOffset[i],
                        length, symbolLength, dst, dstOffset);
            } else {
                long[] t = tableScratch(kernel.tableLength(1));
                kernel.buildTable(plan.rows, parityIndex * maxBlockLength + i, 0, 1, t, 0);
                kernel.accumulateOne(t, 0, 1, 0, src[i], srcOffset[i], length, symbolLength, dst, dstOffset);
            }
        }
    }

    /** {@link #decode(int, int, int, byte[][], int[], int[], int[], int)} with every symbol complete. */
    public boolean decode(int maxBlockLength, int k, int parity, byte[][] symbols, int[] offsets, int[] esis,
                          int symbolLength) {
        return decode(maxBlockLength, k, parity, symbols, offsets, null, esis, symbolLength);
    }

    /**
     * Rebuilds the missing source symbols of one block from any k distinct symbols of it.
     *
     * <p>Input: slot s (s &lt; k) holds the symbol with ESI {@code esis[s]} (0..k-1 source, k..k+parity-1 parity
     * j = ESI - k, as NORM numbers them for a block of k source symbols) at {@code symbols[s][offsets[s]]}, of which
     * {@code lengths[s]} bytes are present (the rest counts as zero; null lengths means all {@code symbolLength}).
     * Every slot holding a parity symbol must have room for {@code symbolLength} bytes: missing source symbols are
     * written over the parity symbols.
     *
     * <p>Output: the arrays are rearranged (references only, no copying) so that slot i holds source symbol i:
     * {@code esis[i] == i}, {@code symbols[i][offsets[i]]} is its data and {@code lengths[i]} its length (symbolLength
     * for a rebuilt one). A caller that puts received source symbol i in slot i and a parity symbol in each missing
     * source's slot finds nothing moved: the rebuilt symbols land in the very slots.
     *
     * <p>Cost: the first use of a code (B, parity) computes its parity rows, O(B^2) field operations and 4 * parity *
     * B bytes (cached); each call inverts an e x e matrix for e lost source symbols, O(e^3). Over GF(2^16) B and
     * parity may reach 65535, so a receiver should cap both by configuration before acting on an FTI it received.
     *
     * <p>Over GF(2^16) an odd {@code symbolLength} cuts the last element of every parity symbol in half (NRL sends
     * parity that way when a block's longest segment has an odd length), so no missing byte there can be rebuilt for
     * sure: decode then refuses unless nothing is missing. Pass an even length when the parity is whole.
     *
     * @return false, with nothing written, when the arguments are invalid (code out of range, k outside 1..B, an ESI
     *         out of range or repeated, a buffer missing or too small), when the equations are singular, or in the
     *         odd-length GF(2^16) case above
     */
    public boolean decode(int maxBlockLength, int k, int parity, byte[][] symbols, int[] offsets, int[] lengths,
                          int[] esis, int symbolLength) {
        if (!isValidCode(maxBlockLength, parity) || k < 1 || k > maxBlockLength
                || symbolLength < 0 || symbolLength > MAX_SYMBOL_LENGTH
                || symbols == null || offsets == null || esis == null
                || symbols.length < k || offsets.length < k || esis.length < k
                || (lengths != null && lengths.length < k)) {
            return false;
        }
        int n = k + parity;
        if (slotOfEsi.length < n) {
            slotOfEsi = new int[Math.max(n, MAX_ENCODING_SYMBOLS_M8)];
        }
        Arrays.fill(slotOfEsi, 0, n, -1);
        int erasures = 0;
        for (int s = 0; s < k; s++) {
            int esi = esis[s];
            if (esi < 0 || esi >= n || slotOfEsi[esi] >= 0 || symbols[s] == null) {
                return false;
            }
            int length = lengths == null ? symbolLength : lengths[s];
            int room = esi >= k ? symbolLength : length;
            int offset = offsets[s];
            if (length < 0 || length > symbolLength || offset < 0 || offset > symbols[s].length - room) {
                return false;
            }
            slotOfEsi[esi] = s;
            if (esi >= k) {
                erasures++;
            }
        }
        if (erasures > 0 && (symbolLength & 1) != 0 && field.bits() == 16) {
            // the parity's last 16-bit element lacks its high byte: the rebuilt last byte would be a guess
            return false;
        }
        if (erasures > 0 && !rebuildMissing(maxBlockLength, k, parity, erasures, symbols, offsets, lengths, esis,
                symbolLength)) {
            return false;
        }
        arrangeBySourceIndex(k, symbols, offsets, lengths, esis, symbolLength);
        return true;
    }

    /**
     * Solves for the e missing source symbols. With A the e x e matrix of the received parity rows restricted to the
     * missing columns, and R the received source symbols: missing = A^-1 (parity + rows_R * R). Each output is then
     * one linear combination of the k inputs, computed by the kernel in one pass.
     */
    private boolean rebuildMissing(int maxBlockLength, int k, int parity, int e, byte[][] symbols, int[] offsets,
                                   int[] lengths, int[] esis, int symbolLength) {
        ensureDecodeScratch(k, e);
        for (int i = 0, b = 0; i < k; i++) {
            if (slotOfEsi[i] < 0) {
                missing[b++] = i;
            }
        }
        for (int s = 0, a = 0; s < k; s++) {
            if (esis[s] >= k) {
                paritySlots[a++] = s;
            }
        }
        int[] rows = decodePlan(maxBlockLength, parity).rows;
        for (int a = 0; a < e; a++) {
            int rowStart = (esis[paritySlots[a]] - k) * maxBlockLength;
            for (int b = 0; b < e; b++) {
                erasureMatrix[a * e + b] = rows[rowStart + missing[b]];
            }
        }
        if (!GfMatrix.invert(field, erasureMatrix, e, erasureInverse)) {
            return false;
        }
        // decoding row b: A^-1 row b on the parity inputs, (A^-1 row b) * rows on the received source inputs
        Arrays.fill(decodingRows, 0, e * k, 0);
        for (int b = 0; b < e; b++) {
            int out = b * k;
            for (int a = 0; a < e; a++) {
                int c = erasureInverse[b * e + a];
                decodingRows[out + paritySlots[a]] = c;
                if (c == 0) {
                    continue;
                }
                int rowStart = (esis[paritySlots[a]] - k) * maxBlockLength;
                for (int s = 0; s < k; s++) {
                    int esi = esis[s];
                    if (esi < k) {
                        decodingRows[out + s] ^= field.multiply(c, rows[rowStart + esi]);
                    }
                }
            }
        }
        if (symbolLength > 0) {
            int groups = kernel.groups(e);
            long[] acc = clearedAccumulator(kernel.accumulatorLength(symbolLength, e));
            long[] t = tableScratch(kernel.tableLength(e));
            for (int s = 0; s < k; s++) {
                kernel.buildTable(decodingRows, s, k, e, t, 0);
                int length = lengths == null ? symbolLength : lengths[s];
                kernel.accumulate(t, 0, groups, symbols[s], offsets[s], length, acc);
            }
            for (int b = 0; b < e; b++) {
                outBuffers[b] = symbols[paritySlots[b]];
                outOffsets[b] = offsets[paritySlots[b]];
            }
            kernel.store(acc, e, symbolLength, outBuffers, outOffsets);
            Arrays.fill(outBuffers, 0, e, null);
        }
        for (int b = 0; b < e; b++) {
            slotOfEsi[missing[b]] = paritySlots[b];
            if (lengths != null) {
                lengths[paritySlots[b]] = symbolLength;
            }
        }
        return true;
    }

    private void arrangeBySourceIndex(int k, byte[][] symbols, int[] offsets, int[] lengths, int[] esis,
                                      int symbolLength) {
        if (arrangedBuffers.length < k) {
            arrangedBuffers = new byte[k][];
            arrangedOffsets = new int[k];
            arrangedLengths = new int[k];
        }
        for (int i = 0; i < k; i++) {
            int s = slotOfEsi[i];
            arrangedBuffers[i] = symbols[s];
            arrangedOffsets[i] = offsets[s];
            arrangedLengths[i] = lengths == null ? symbolLength : lengths[s];
        }
        for (int i = 0; i < k; i++) {
            symbols[i] = arrangedBuffers[i];
            offsets[i] = arrangedOffsets[i];
            if (lengths != null) {
                lengths[i] = arrangedLengths[i];
            }
            esis[i] = i;
        }
        Arrays.fill(arrangedBuffers, 0, k, null);
    }

    /** The cached plan of code (B, parity), built on first use. */
    ParityPlan plan(int maxBlockLength, int parity) {
        for (ParityPlan p : plans) {
            if (p != null && p.matches(maxBlockLength, parity)) {
                return p;
            }
        }
        ParityPlan built = ParityPlan.build(field, kernel, maxBlockLength, parity, TABLE_CACHE_LIMIT_BYTES);
        plans[nextPlanSlot] = built;
        nextPlanSlot = (nextPlanSlot + 1) % plans.length;
        return built;
    }

    /** The parity rows of code (B, parity) for decoding, cached apart from the encoder's plans. */
    private ParityPlan decodePlan(int maxBlockLength, int parity) {
        for (ParityPlan p : plans) {
            if (p != null && p.matches(maxBlockLength, parity)) {
                return p;       // our own code: the encoder built it already
            }
        }
        for (ParityPlan p : decodePlans) {
            if (p != null && p.matches(maxBlockLength, parity)) {
                return p;
            }
        }
        ParityPlan built = ParityPlan.build(field, kernel, maxBlockLength, parity, 0);
        decodePlans[nextDecodePlanSlot] = built;
        nextDecodePlanSlot = (nextDecodePlanSlot + 1) % decodePlans.length;
        return built;
    }

    private void requireBlock(int maxBlockLength, int k, int parity, int symbolLength) {
        if (!isValidCode(maxBlockLength, parity)) {
            throw new IllegalArgumentException("invalid code: B = " + maxBlockLength + ", parity = " + parity
                    + " (need B >= 1, parity >= 0, B + parity <= " + maxEncodingSymbols + ")");
        }
        if (k < 1 || k > maxBlockLength) {
            throw new IllegalArgumentException("block of " + k + " source symbols outside [1, " + maxBlockLength + "]");
        }
        if (symbolLength < 0 || symbolLength > MAX_SYMBOL_LENGTH) {
            throw new IllegalArgumentException("symbol length " + symbolLength + " outside [0, " + MAX_SYMBOL_LENGTH
                    + "]");
        }
    }

    private static void requireSymbols(int k, byte[][] src, int[] srcOffset, int[] srcLength, int symbolLength) {
        if (src.length < k || srcOffset.length < k || (srcLength != null && srcLength.length < k)) {
            throw new IllegalArgumentException("need " + k + " source symbols, got " + src.length);
        }
        for (int i = 0; i < k; i++) {
            int length = srcLength == null ? symbolLength : srcLength[i];
            if (length < 0 || length > symbolLength) {
                throw new IllegalArgumentException("source symbol " + i + " has " + length + " bytes, symbol length is "
                        + symbolLength);
            }
            Objects.checkFromIndexSize(srcOffset[i], length, src[i].length);
        }
    }

    private long[] clearedAccumulator(int length) {
        if (accumulator.length < length) {
            accumulator = new long[length];
        } else {
            Arrays.fill(accumulator, 0, length, 0L);
        }
        return accumulator;
    }

    private long[] tableScratch(int length) {
        if (table.length < length) {
            table = new long[length];
        }
        return table;
    }

    private void ensureDecodeScratch(int k, int e) {
        if (missing.length < e) {
            missing = new int[e];
            paritySlots = new int[e];
            outBuffers = new byte[e][];
            outOffsets = new int[e];
        }
        if (erasureMatrix.length < e * e) {
            erasureMatrix = new int[e * e];
            erasureInverse = new int[e * e];
        }
        if (decodingRows.length < e * k) {
            decodingRows = new int[e * k];
        }
    }
}
