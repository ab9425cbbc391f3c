package org.fjm2.norm.receiver;

/**
 * Which NORM_CMD(CC) probe of a sender our feedback echoes (grtt_response: its send time plus how long we held it, from
 * which the sender measures its round trip to us): never the first one, and not one read late against the probe
 * echoed so far. A JVM reads its first datagrams while its code is still cold: the first probe was read 199 ms after
 * it was sent on loopback, the next ones within a millisecond, and NRL NORM, which takes a larger round trip at once
 * and lowers its GRTT over many probes, kept 133-362 ms instead of 1.3 ms and held its sends for that long (NRL ->
 * fjm2 at 0.58x NRL -> NRL). Keeping the older probe is still a true round trip: its hold is counted from when we
 * read it. A path that really got slower is echoed once the probe kept is {@link #KEEP_MICROS} old.
 *
 * <p>A probe that may have waited in our socket's queue (the transport's previous read stopped at its limit,
 * {@code ProtocolContext.receiveBacklogged}) is held to more: its hold, counted from when we read it, leaves that wait
 * out, and the sender would take our backlog for path delay. An NRL sender at 2 Gbit/s overran a JVM receiver still
 * compiling its receive path: its probes waited behind 7 MB in the socket, the echo raised NRL's GRTT from 1 to
 * 30 ms, and NRL, which lowers its GRTT only on later feedback (none came once the receiver kept up), sent at half its
 * rate for the rest of the run. Such a probe replaces the one kept only when read no later than it (the echo can only
 * come down), and does not vouch for a first probe; when no probe was read promptly for {@link #KEEP_MICROS}, the
 * probe kept is echoed all the same, so that a receiver always behind still has its round trip measured.
 *
 * <p>One per remote sender (which the network creates: a few words each), owned by the session's event loop.
 */
final class ProbeEcho {

    /**
     * How far a probe may be read later than the one echoed (relative to when each was sent) and replace it: 10 ms,
     * or half the sender's GRTT when longer (what a sender already allows for).
     */
    static final long LATE_MIN_MICROS = 10_000;
    /** A probe echoed this long (4 s) gives way to the next one, late or not: a path that got slower for good. */
    static final long KEEP_MICROS = 4_000_000;

    /** The probe kept: its send time (the sender's clock; 0: none) and when we read it (ours). */
    private long keptSend;
    private long keptRead;
    /** Whether the probe kept may be echoed: it is not the first probe, or nothing prompt came for a long time. */
    private boolean echoable;
    /** When the last probe read promptly (not behind a backlog) was read, or the first probe. */
    private long promptRead;

    /**
     * A probe sent at {@code sendMicros} (the sender's clock) was read at {@code readMicros} (ours), the sender's
     * GRTT being {@code grttSeconds}; {@code backlogged}: it may have waited in our socket's queue.
     */
    void onProbe(long sendMicros, long readMicros, double grttSeconds, boolean backlogged) {
        if (keptSend == 0) {
            keep(sendMicros, readMicros);
            promptRead = readMicros;
            return;
        }
        long later = (readMicros - sendMicros) - (keptRead - keptSend);
        boolean keptLong = readMicros - keptRead >= KEEP_MICROS;
        if (backlogged) {
            if (later < 0 || keptLong) {
                keep(sendMicros, readMicros);
            }
            echoable |= readMicros - promptRead >= KEEP_MICROS;
            return;
        }
        promptRead = readMicros;
        echoable = true;
        if (keptLong || later <= Math.max(LATE_MIN_MICROS, (long) (grttSeconds * 1e6 / 2))) {
            keep(sendMicros, readMicros);
        }
    }

    private void keep(long sendMicros, long readMicros) {
        keptSend = sendMicros;
        keptRead = readMicros;
    }

    /** grtt_response at {@code nowMicros} (ours), in the sender's microseconds; 0 (no echo) while none may be. */
    long response(long nowMicros) {
        return keptSend == 0 || !echoable ? 0 : keptSend + (nowMicros - keptRead);
    }
}
