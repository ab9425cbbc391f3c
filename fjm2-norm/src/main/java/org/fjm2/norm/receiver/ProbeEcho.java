package org.fjm2.norm.receiver;

/**
 * Which NORM_CMD(CC) probe of a sender our feedback echoes (grtt_response: its send time plus how long we held it, from
 * which the sender measures its round trip to us): never the first one, and not one read late against the probe
 * echoed so far. A JVM reads its first datagrams while its code is still cold: the first probe was read 199 ms after
 * it was sent on loopback, the next ones within a millisecond, and NRL NORM, which takes a larger round trip at once
 * and lowers its GRTT over many probes, kept 133-362 ms instead of 1.3 ms and held its sends for that long (NRL ->
 * fjm2 at 0.58x NRL -> NRL). Keeping the older probe is still a true round trip: its hold is counted from when we
 * read it. A path that really got slower is echoed once the probe kept is {@link #KEEP_MICROS} old. The state is the
 * probe echoed, held by the caller (state per remote sender, which the network creates, so no more than that).
 */
final class ProbeEcho {

    /**
     * How far a probe may be read later than the one echoed (relative to when each was sent) and replace it: 10 ms,
     * or half the sender's GRTT when longer (what a sender already allows for).
     */
    static final long LATE_MIN_MICROS = 10_000;
    /** A probe echoed this long (4 s) gives way to the next one, late or not: a path that got slower for good. */
    static final long KEEP_MICROS = 4_000_000;

    private ProbeEcho() {
    }

    /**
     * Whether a probe sent at {@code sendMicros} (the sender's clock) and read at {@code readMicros} (ours) should
     * replace the one echoed so far, sent at {@code echoedSend} and read at {@code echoedRead} ({@code echoedSend} 0:
     * none; the first probe of a sender is kept but not echoed, see {@link #response}).
     */
    static boolean replaces(long echoedSend, long echoedRead, long sendMicros, long readMicros, double grttSeconds) {
        if (echoedSend == 0 || readMicros - echoedRead >= KEEP_MICROS) {
            return true;
        }
        long later = (readMicros - sendMicros) - (echoedRead - echoedSend);
        return later <= Math.max(LATE_MIN_MICROS, (long) (grttSeconds * 1e6 / 2));
    }

    /**
     * grtt_response at {@code nowMicros} (ours), in the sender's microseconds, for the probe kept; 0 (no echo) while it
     * is a sender's first.
     */
    static long response(long echoedSend, long echoedRead, boolean echoable, long nowMicros) {
        return echoedSend == 0 || !echoable ? 0 : echoedSend + (nowMicros - echoedRead);
    }
}
