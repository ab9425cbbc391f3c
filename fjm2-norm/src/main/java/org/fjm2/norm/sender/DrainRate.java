package org.fjm2.norm.sender;

/**
 * How fast one receiver takes our messages off its socket, from its flow reports: bytes (as the kernel charges them)
 * read per second over intervals of at least {@link #SAMPLE_NANOS}, the largest of the intervals that ended within a
 * horizon (the caller's: at least two round trips, for on a long path a window-limited sender's data arrives in one
 * burst per round trip, and a short history sees only the quiet part). The largest, because a receiver that was
 * descheduled for a moment reads its backlog in one go later: what it can take is its best recent pace, not its
 * average. An interval that spans a pause in the reports (the
 * sender had nothing to send) is not a sample: idleness is not slowness. Owned by the session's event loop.
 */
final class DrainRate {

    /** Least length of one measured interval. */
    static final long SAMPLE_NANOS = 10_000_000L;
    /** Intervals remembered (the horizon may not reach back further). */
    static final int SAMPLES = 64;
    /** Least horizon: intervals that ended this recently always count. */
    static final long MIN_HORIZON_NANOS = 4 * SAMPLE_NANOS;
    /** Reports further apart than this are a pause, not an interval of reading. */
    static final long PAUSE_NANOS = 50_000_000L;

    private final long[] samples = new long[SAMPLES];
    private final long[] sampleEnds = new long[SAMPLES];
    private int taken;
    private long intervalStart;
    private long intervalBytes;
    private long lastReportNanos;
    private boolean started;

    /** A report said the receiver read {@code bytes} more since its previous one. */
    void onRead(long bytes, long nowNanos) {
        if (!started || nowNanos - lastReportNanos > PAUSE_NANOS) {
            started = true;
            intervalStart = nowNanos;
            intervalBytes = 0;
            lastReportNanos = nowNanos;
            return;
        }
        lastReportNanos = nowNanos;
        intervalBytes += bytes;
        long length = nowNanos - intervalStart;
        if (length >= SAMPLE_NANOS) {
            samples[taken % SAMPLES] = (long) (intervalBytes * 1e9 / length);
            sampleEnds[taken % SAMPLES] = nowNanos;
            taken++;
            intervalStart = nowNanos;
            intervalBytes = 0;
        }
    }

    /**
     * Bytes per second it read at best in the intervals that ended within {@code horizonNanos} (at least
     * {@link #MIN_HORIZON_NANOS}) of the newest, or -1 before the first interval was measured.
     */
    long bytesPerSecond(long horizonNanos) {
        if (taken == 0) {
            return -1;
        }
        long newest = sampleEnds[(taken - 1) % SAMPLES];
        long horizon = Math.max(MIN_HORIZON_NANOS, horizonNanos);
        long best = 0;
        for (int i = 0; i < Math.min(taken, SAMPLES); i++) {
            if (newest - sampleEnds[i] <= horizon) {
                best = Math.max(best, samples[i]);
            }
        }
        return best;
    }
}
