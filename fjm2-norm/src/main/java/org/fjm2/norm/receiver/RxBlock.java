package org.fjm2.norm.receiver;

import java.util.Arrays;

import io.netty.buffer.ByteBuf;

/**
 * What a receiver knows of one FEC block of an object, created when the first symbol of the block arrives (never
 * for blocks a header merely announces): which encoding symbols arrived, which other receivers asked for, and the
 * parity symbols kept until the block decodes. Symbols are tracked up to {@link #width()}: the k source symbols
 * and at most k parity ESIs after them, which is all a repair request ever needs (k erasures at most), however
 * much parity the sender's FTI announces. Owned by the session's event loop.
 */
final class RxBlock {

    private int k;
    private int width;
    private long[] received = new long[1];
    private long[] requested = new long[1];
    private int sourceReceived;
    private int parityReceived;
    private boolean complete;
    private boolean requestedWholeByOthers;
    private ByteBuf[] parity = new ByteBuf[0];
    private int[] parityEsi = new int[0];
    private int parityCount;

    /** Bytes of bookkeeping a block of {@code k} source symbols and this symbol limit needs (charged to budgets). */
    static long bookkeepingBytes(int k, int symbolLimit) {
        return 64L + 2L * 8 * words(trackedWidth(k, symbolLimit));
    }

    static int trackedWidth(int k, int symbolLimit) {
        return (int) Math.min(symbolLimit, 2L * k);
    }

    private static int words(int bits) {
        return Math.max(1, (bits + 63) >>> 6);
    }

    /** Readies a (recycled) block for {@code k} source symbols and ESIs below {@code symbolLimit}. */
    void reset(int k, int symbolLimit) {
        this.k = k;
        this.width = trackedWidth(k, symbolLimit);
        int w = words(width);
        if (received.length < w || received.length > 4 * w) {
            received = new long[w];
            requested = new long[w];
        } else {
            Arrays.fill(received, 0, w, 0L);
            Arrays.fill(requested, 0, w, 0L);
        }
        sourceReceived = 0;
        parityReceived = 0;
        complete = false;
        requestedWholeByOthers = false;
        parityCount = 0;
    }

    /** Whether the block's bit sets are small enough to keep for reuse (a spare holds no header-sized memory). */
    boolean isSmall() {
        return received.length <= 8;
    }

    int k() {
        return k;
    }

    /** ESIs tracked in the bit sets: [0, width). */
    int width() {
        return width;
    }

    boolean isComplete() {
        return complete;
    }

    int sourceReceived() {
        return sourceReceived;
    }

    /** Source and parity symbols received. */
    int symbolsReceived() {
        return sourceReceived + parityReceived;
    }

    /** Erasures left: source symbols neither received nor replaceable by a parity symbol already here. */
    int erasures() {
        return complete ? 0 : Math.max(0, k - sourceReceived - parityReceived);
    }

    boolean has(int esi) {
        if (esi < width) {
            return (received[esi >>> 6] & (1L << esi)) != 0;
        }
        for (int i = 0; i < parityCount; i++) {
            if (parityEsi[i] == esi) {
                return true;
            }
        }
        return false;
    }

    /** A source symbol arrived; returns whether the block now has all its source symbols. */
    boolean markSource(int esi) {
        received[esi >>> 6] |= 1L << esi;
        sourceReceived++;
        return sourceReceived == k;
    }

    /** Keeps a parity symbol (retained by the caller, released here when the block is done or full). */
    void addParity(int esi, ByteBuf symbol) {
        if (parityCount >= k) {
            symbol.release();       // k symbols decode any block: more is never needed
            return;
        }
        if (parityCount == parity.length) {
            int grown = Math.min(k, Math.max(4, parity.length * 2));
            parity = Arrays.copyOf(parity, grown);
            parityEsi = Arrays.copyOf(parityEsi, grown);
        }
        parity[parityCount] = symbol;
        parityEsi[parityCount] = esi;
        parityCount++;
        parityReceived++;
        if (esi < width) {
            received[esi >>> 6] |= 1L << esi;
        }
    }

    /** Whether enough symbols arrived to rebuild the missing source symbols from parity. */
    boolean decodable() {
        return !complete && parityCount > 0 && sourceReceived + parityCount >= k;
    }

    ByteBuf[] parity() {
        return parity;
    }

    int[] parityEsi() {
        return parityEsi;
    }

    int parityCount() {
        return parityCount;
    }

    /** Every source symbol is here (received or rebuilt): parity is no longer needed. */
    void markComplete() {
        if (!complete) {
            complete = true;
            if (k <= width) {
                setRange(received, 0, k);
            }
            sourceReceived = k;
            releaseParity();
        }
    }

    /** First ESI in [from, to) not received, or -1 (to is clipped to the tracked width). */
    int nextMissing(int from, int to) {
        return nextClear(received, from, Math.min(to, width));
    }

    /** Received symbols with ESI below {@code limit} (tracked ones only). */
    int receivedBelow(int limit) {
        return count(received, Math.min(limit, width));
    }

    // ---- what other receivers asked for (NACK suppression) -------------------------------------------------------

    boolean requestedByOthers(int esi) {
        return requestedWholeByOthers || (esi < width && (requested[esi >>> 6] & (1L << esi)) != 0);
    }

    /** Marks ESIs [from, to] asked for by another receiver (clipped to the tracked width): O(words). */
    void markRequestedByOthers(int from, int toInclusive) {
        int to = (int) Math.min((long) toInclusive + 1, width);
        if (from < to) {
            setRange(requested, from, to);
        }
    }

    void markWholeRequestedByOthers() {
        requestedWholeByOthers = true;
    }

    boolean wholeRequestedByOthers() {
        return requestedWholeByOthers;
    }

    void clearRequestedByOthers() {
        Arrays.fill(requested, 0, words(width), 0L);
        requestedWholeByOthers = false;
    }

    /** Frees the parity kept (block recycled or object given up). */
    void releaseParity() {
        for (int i = 0; i < parityCount; i++) {
            parity[i].release();
            parity[i] = null;
        }
        parityCount = 0;
    }

    // ---- bit helpers ------------------------------------------------------------------------------------------

    private static void setRange(long[] bits, int from, int to) {
        int first = from >>> 6;
        int last = (to - 1) >>> 6;
        long firstMask = -1L << from;
        long lastMask = -1L >>> -to;
        if (first == last) {
            bits[first] |= firstMask & lastMask;
            return;
        }
        bits[first] |= firstMask;
        for (int w = first + 1; w < last; w++) {
            bits[w] = -1L;
        }
        bits[last] |= lastMask;
    }

    private static int nextClear(long[] bits, int from, int to) {
        if (from >= to) {
            return -1;
        }
        int w = from >>> 6;
        long word = ~bits[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                int bit = (w << 6) + Long.numberOfTrailingZeros(word);
                return bit < to ? bit : -1;
            }
            if (++w << 6 >= to) {
                return -1;
            }
            word = ~bits[w];
        }
    }

    private static int count(long[] bits, int limit) {
        int n = 0;
        int full = limit >>> 6;
        for (int w = 0; w < full; w++) {
            n += Long.bitCount(bits[w]);
        }
        int rest = limit & 63;
        if (rest != 0) {
            n += Long.bitCount(bits[full] & ((1L << rest) - 1));
        }
        return n;
    }
}
