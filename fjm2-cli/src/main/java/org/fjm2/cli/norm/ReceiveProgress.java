package org.fjm2.cli.norm;

import java.io.PrintStream;
import java.time.Duration;

import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormCounters.Counter;

/**
 * {@code fjm2 norm recv}'s progress line on stderr, every interval: what arrived on the wire (so that a large
 * object in transit shows as progress before it is complete), objects written and lost, NACKs sent.
 */
final class ReceiveProgress {

    private final PrintStream err;
    private final long intervalNanos;
    private final NormCounters counters;
    private final long startNanos;
    private long nextNanos;

    /** An interval of zero prints nothing. */
    ReceiveProgress(PrintStream err, Duration interval, NormCounters counters, long startNanos) {
        this.err = err;
        this.intervalNanos = interval.toNanos();
        this.counters = counters;
        this.startNanos = startNanos;
        this.nextNanos = startNanos + intervalNanos;
    }

    /** Prints the line if it is due. */
    void maybePrint(long nowNanos, int written, long writtenBytes, int lost) {
        if (intervalNanos <= 0 || nowNanos < nextNanos) {
            return;
        }
        nextNanos = nowNanos + intervalNanos;
        double seconds = (nowNanos - startNanos) / 1e9;
        long wire = counters.get(Counter.BYTES_RECEIVED);
        err.printf("%7.1f s  %.1f MB received (%.1f MB/s), %d objects written (%.1f MB), %d lost, %d NACKs sent%n",
                seconds, wire / 1e6, wire / 1e6 / Math.max(seconds, 1e-3), written, writtenBytes / 1e6, lost,
                counters.get(Counter.NACKS_SENT));
    }

    /** How long the caller may wait before the next line is due, at most {@code limitNanos}. */
    long nanosUntilDue(long nowNanos, long limitNanos) {
        return intervalNanos <= 0 ? limitNanos : Math.max(1, Math.min(limitNanos, nextNanos - nowNanos));
    }
}
