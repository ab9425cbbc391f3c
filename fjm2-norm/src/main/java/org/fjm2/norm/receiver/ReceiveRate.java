package org.fjm2.norm.receiver;

/**
 * The rate at which a sender's messages arrive here, in bytes per second, measured over intervals of one round trip
 * (at least {@link #MIN_INTERVAL_NANOS}, whose clock granularity and batching would otherwise dominate). In slow
 * start a NORM-CC receiver reports twice this rate, so that the sender doubles at most once per round trip. Within
 * an interval the estimate may rise as bytes come in after half of it (slow start ramps smoothly), never fall. An
 * interval holds at least {@link #MIN_PACKETS_PER_INTERVAL} of the largest datagrams (or lasts
 * {@link #MAX_INTERVAL_NANOS}): at 100 kbit/s a round trip of 10 ms holds no data datagram at all, and an interval
 * holding only a probe read as a collapse, one with a datagram just after its start as a jump. Owned by the session's
 * event loop.
 */
final class ReceiveRate {

    /** Shortest measurement interval. */
    static final long MIN_INTERVAL_NANOS = 10_000_000L;
    /** Bytes of this many of the largest datagrams seen an interval holds at least (or lasts the longest interval). */
    static final int MIN_PACKETS_PER_INTERVAL = 4;
    /** Longest measurement interval: a sender that went (almost) quiet is seen as such within this. */
    static final long MAX_INTERVAL_NANOS = 1_000_000_000L;

    private long intervalStart;
    private long bytes;
    private boolean started;
    private double rate;
    private double nominalSize;
    private int largest;

    /** A message of {@code length} bytes arrived at {@code now}; {@code intervalNanos} is the round trip. */
    void onMessage(int length, long now, long intervalNanos) {
        if (!started) {
            started = true;
            intervalStart = now;
            nominalSize = length;
            return;
        }
        bytes += length;
        nominalSize += 0.05 * (length - nominalSize);
        largest = Math.max(largest, length);
        long interval = Math.max(MIN_INTERVAL_NANOS, intervalNanos);
        long elapsed = now - intervalStart;
        if (elapsed <= 0) {
            return;
        }
        double current = bytes * 1e9 / elapsed;
        // at low rates a round trip holds a datagram or none (and probes in between): measure over several
        boolean enough = bytes >= (long) MIN_PACKETS_PER_INTERVAL * largest || elapsed >= MAX_INTERVAL_NANOS;
        if (elapsed >= interval && enough) {
            rate = current;
            intervalStart = now;
            bytes = 0;
        } else if (current > rate && elapsed >= interval / 2 && bytes >= 2L * largest) {
            rate = current;
        }
    }

    /** Bytes per second, 0 before the first interval. */
    double bytesPerSecond() {
        return rate;
    }

    /** The mean message size (an exponentially weighted mean of what arrived), or 0 before any. */
    double nominalSize() {
        return nominalSize;
    }
}
