package org.fjm2.norm.interop;

import java.util.ArrayList;
import java.util.List;

/**
 * The stream the NRL peer writes and checks with {@code --stream} (see the top of nrlpeer.cpp; keep the two in
 * step): a run of messages of seeded sizes in [min, max], the last cut at the stream's length, each starting with
 * a 12-byte header (its offset, 8 bytes, and size, 4 bytes, big-endian), every other byte a seeded function of its
 * stream offset. The sender marks each message start.
 */
public final class StreamContent {

    private final long seed;
    private final int min;
    private final int max;
    private final long total;

    public StreamContent(long seed, int min, int max, long total) {
        if (min < 12 || max < min) {
            throw new IllegalArgumentException("need 12 <= min <= max");
        }
        this.seed = seed;
        this.min = min;
        this.max = max;
        this.total = total;
    }

    private static long splitmix64(long[] state) {
        state[0] += 0x9E3779B97F4A7C15L;
        long z = state[0];
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** The content byte at a stream offset outside message headers. */
    public static byte byteAt(long seed, long offset) {
        long[] state = {seed ^ 0x57AE57AE57AE57AEL ^ ((offset >>> 3) * 0xD1B54A32D192ED03L)};
        return (byte) (splitmix64(state) >>> (8 * (offset & 7)));
    }

    private int sizeOf(long index, long start) {
        long[] state = {seed ^ 0x3E55A6E53E55A6E5L ^ (index * 0x9E3779B97F4A7C15L)};
        long v = min + Long.remainderUnsigned(splitmix64(state), max - min + 1L);
        return (int) Math.min(v, total - start);
    }

    /** Offsets where messages start, below {@code total}. */
    public List<Long> messageStarts() {
        List<Long> starts = new ArrayList<>();
        long start = 0;
        for (long k = 0; start < total; k++) {
            starts.add(start);
            start += sizeOf(k, start);
        }
        return starts;
    }

    /** The stream's bytes [from, to). */
    public byte[] bytes(long from, long to) {
        byte[] out = new byte[(int) (to - from)];
        long start = 0;
        for (long k = 0; start < to; k++) {
            int size = sizeOf(k, start);
            long end = start + size;
            if (end > from) {
                for (long x = Math.max(from, start); x < Math.min(end, to); x++) {
                    long i = x - start;
                    byte b;
                    if (i < 8) {
                        b = (byte) (start >>> (56 - 8 * i));
                    } else if (i < 12) {
                        b = (byte) (size >>> (24 - 8 * (i - 8)));
                    } else {
                        b = byteAt(seed, x);
                    }
                    out[(int) (x - from)] = b;
                }
            }
            start = end;
        }
        return out;
    }

    /** The peer options that make it write or check this stream. */
    public NrlPeer.Builder options(NrlPeer.Builder peer) {
        return peer.option("--stream", total).option("--msg-min", min).option("--msg-max", max);
    }
}
