package org.fjm2.tunnel.security;

import io.netty.util.collection.LongObjectHashMap;

/**
 * Refuses an authentic tunnel datagram a second time: its timestamp must lie within {@link #maxSkewSeconds} of the
 * local clock, and its counter must be new within a sliding window of the {@link #WINDOW} highest counters seen from
 * that sender (the anti-replay window of IPsec, RFC 4303 section 3.4.3): reordering inside the window is accepted,
 * anything older or seen before is not. Called only after the MAC was checked, so only key holders create state;
 * at most {@link #MAX_SENDERS} senders are tracked. One thread.
 */
public final class ReplayProtection {

    /** Counters remembered per sender: datagrams reordered by more than this are refused. */
    public static final int WINDOW = 4096;
    /** Most senders tracked; the one heard from longest ago makes room. */
    public static final int MAX_SENDERS = 1024;
    /** Default tolerated difference between the sender's clock and ours. */
    public static final long DEFAULT_MAX_SKEW_SECONDS = 60;

    /** What {@link #check} found. */
    public enum Result {
        FRESH,
        /** Timestamp too far from our clock: an old datagram replayed, or clocks that disagree. */
        STALE,
        /** Counter already seen, or older than the window. */
        REPLAYED
    }

    private static final int WORDS = WINDOW / 64;

    private final long maxSkewSeconds;
    private final LongObjectHashMap<Window> senders = new LongObjectHashMap<>();

    public ReplayProtection(long maxSkewSeconds) {
        this.maxSkewSeconds = maxSkewSeconds;
    }

    public long maxSkewSeconds() {
        return maxSkewSeconds;
    }

    /** Checks a datagram and, when fresh, remembers its counter. */
    public Result check(long sender, long counter, long timestampSeconds, long nowMillis) {
        if (Math.abs(nowMillis / 1000 - timestampSeconds) > maxSkewSeconds) {
            return Result.STALE;
        }
        Window w = senders.get(sender);
        if (w == null) {
            if (senders.size() >= MAX_SENDERS) {
                evictOldest();
            }
            w = new Window();
            w.highest = counter;
            w.bits[bitWord(counter)] |= bitMask(counter);
            w.lastSeen = nowMillis;
            senders.put(sender, w);
            return Result.FRESH;
        }
        w.lastSeen = nowMillis;
        if (counter > w.highest) {
            long shift = counter - w.highest;
            if (shift >= WINDOW) {
                java.util.Arrays.fill(w.bits, 0L);
            } else {
                for (long c = w.highest + 1; c < counter; c++) {
                    w.bits[bitWord(c)] &= ~bitMask(c);
                }
            }
            w.highest = counter;
            w.bits[bitWord(counter)] |= bitMask(counter);
            return Result.FRESH;
        }
        if (w.highest - counter >= WINDOW) {
            return Result.REPLAYED;
        }
        long mask = bitMask(counter);
        int word = bitWord(counter);
        if ((w.bits[word] & mask) != 0) {
            return Result.REPLAYED;
        }
        w.bits[word] |= mask;
        return Result.FRESH;
    }

    private void evictOldest() {
        long oldest = 0;
        long oldestSeen = Long.MAX_VALUE;
        for (LongObjectHashMap.PrimitiveEntry<Window> e : senders.entries()) {
            if (e.value().lastSeen < oldestSeen) {
                oldestSeen = e.value().lastSeen;
                oldest = e.key();
            }
        }
        senders.remove(oldest);
    }

    private static int bitWord(long counter) {
        return (int) ((counter >>> 6) & (WORDS - 1));
    }

    private static long bitMask(long counter) {
        return 1L << (counter & 63);
    }

    private static final class Window {
        long highest;
        long lastSeen;
        final long[] bits = new long[WORDS];
    }
}
