package org.fjm2.norm.receiver;

/**
 * The rate at which a sender's messages arrive here, in bytes per second, measured over intervals of one round trip
 * (at least {@link #MIN_INTERVAL_NANOS}, whose clock granularity and batching would otherwise dominate). In slow
 * start a NORM-CC receiver reports twice this rate, so that the sender doubles at most once per round trip. Within
 * an interval the estimate may rise as bytes come in (slow start ramps smoothly), never fall; it falls only over an
 * interval that spans {@link #MIN_PACKETS_PER_DECREASE} datagrams at the old rate (at 100 kbit/s a round trip of
 * 10 ms holds no datagram at all, and a probe alone would read as a collapse). Owned by the session's
 * event loop.
 */
final class ReceiveRate {

    /** Shortest measurement interval. */
    static final long MIN_INTERVAL_NANOS = 10_000_000L;
    /** Datagrams (of the mean size, at the current estimate) an interval spans at least before the estimate falls. */
    static final int MIN_PACKETS_PER_DECREASE = 4;

    private long intervalStart;
    private long bytes;
    private boolean started;
    private double rate;
    private double nominalSize;

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
        long interval = Math.max(MIN_INTERVAL_NANOS, intervalNanos);
        long elapsed = now - intervalStart;
        if (elapsed <= 0) {
            return;
        }
        double current = bytes * 1e9 / elapsed;
        if (current < rate) {
            // at low rates an interval holds a datagram or none: lower the estimate only over four datagrams' time
            interval = Math.max(interval, (long) (MIN_PACKETS_PER_DECREASE * nominalSize * 1e9 / rate));
        }
        if (elapsed >= interval) {
            rate = current;
            intervalStart = now;
            bytes = 0;
        } else if (current > rate && elapsed >= interval / 4) {
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
