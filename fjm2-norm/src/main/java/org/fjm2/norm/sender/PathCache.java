package org.fjm2.norm.sender;

import java.util.function.LongSupplier;

import org.fjm2.norm.api.NormConfig;

/**
 * Lets the sender's cache grow with a long path: an object leaves the cache only once every receiver acknowledged it,
 * and on a path of a 200 ms round trip that is a round trip after it was sent, another for each repair it needed and
 * two more GRTTs when a repair was lost. A cache bound fixed for a LAN (8 MiB for JMS) then ran out while the
 * acknowledgements were on their way, and the publisher waited: 4.1 MB/s over a 12.5 MB/s link with 5% loss, 5.7-6.0
 * with 32 MiB (benchmarks/RESULTS.md). So the byte bound covers what the sender sends in {@link #COVER_RTTS} of the
 * longest of its receivers' least round-trip times (their path's own delay: the GRTT also counts the queues of a
 * loaded host, which a bigger cache would only fill), at the pace it measured over the last {@link #SAMPLE_NANOS};
 * never below the configured bound, at most {@link NormConfig#txCacheBytesMax()} (opt-in: at or below the bound,
 * nothing changes). On a quiet LAN the cover is far below the configured bound. Owned by the session's event loop.
 */
final class PathCache {

    /** Least round trips of sending the cache covers (data, acknowledgement, repairs, a lost repair). */
    static final int COVER_RTTS = 8;
    /** Length of the interval over which the sending pace is measured. */
    static final long SAMPLE_NANOS = 50_000_000L;
    /** The bound is changed only when the cover differs from it by more than 1/n (no churn on every sample). */
    static final int HYSTERESIS_FRACTION = 8;

    private final TxAdmission admission;
    private final long configuredBytes;
    private final long maxBytes;
    private final LongSupplier longestLeastRttNanos;
    private long sampleStart = Long.MIN_VALUE;
    private long sampleBytes;
    private long bound;

    /**
     * @param longestLeastRttNanos the longest of the receivers' least round-trip times (0 while none was measured)
     */
    PathCache(TxAdmission admission, long configuredBytes, long maxBytes, LongSupplier longestLeastRttNanos) {
        this.admission = admission;
        this.configuredBytes = configuredBytes;
        this.maxBytes = Math.max(configuredBytes, maxBytes);
        this.longestLeastRttNanos = longestLeastRttNanos;
        this.bound = configuredBytes;
    }

    /** A datagram of {@code bytes} left at {@code now}. */
    void onSent(int bytes, long now) {
        if (maxBytes == configuredBytes) {
            return;     // no growth asked for
        }
        if (sampleStart == Long.MIN_VALUE) {
            sampleStart = now;
        }
        sampleBytes += bytes;
        long elapsed = now - sampleStart;
        if (elapsed < SAMPLE_NANOS) {
            return;
        }
        double bytesPerSecond = sampleBytes * 1e9 / elapsed;
        sampleStart = now;
        sampleBytes = 0;
        double cover = bytesPerSecond * COVER_RTTS * (longestLeastRttNanos.getAsLong() / 1e9);
        long next = (long) Math.max(configuredBytes, Math.min((double) maxBytes, cover));
        if (Math.abs(next - bound) * HYSTERESIS_FRACTION > bound) {
            bound = next;
            admission.bytesBound(next);
        }
    }

    /** The byte bound in force. */
    long bound() {
        return bound;
    }
}
