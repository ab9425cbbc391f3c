package org.fjm2.jms;

import java.util.function.LongSupplier;

/**
 * At most one log line per interval for events a remote peer can make frequent (malformed input): the first
 * is logged, the rest are counted and the count goes with the next line. Not thread-safe: one owner thread.
 */
final class LogLimiter {

    /** Default interval between two lines about the same kind of event. */
    static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long nextAllowed;
    private long suppressed;

    LogLimiter(long intervalNanos) {
        this(intervalNanos, System::nanoTime);
    }

    /** @param nanoClock {@code System.nanoTime} or, in tests, a clock they move */
    LogLimiter(long intervalNanos, LongSupplier nanoClock) {
        this.intervalNanos = intervalNanos;
        this.nanoClock = nanoClock;
        this.nextAllowed = nanoClock.getAsLong();
    }

    /** True when a line may be logged now; otherwise the event is counted as suppressed. */
    boolean allow() {
        long now = nanoClock.getAsLong();
        if (now - nextAllowed >= 0) {
            nextAllowed = now + intervalNanos;
            return true;
        }
        suppressed++;
        return false;
    }

    /** Events suppressed since the last line (then reset). */
    long takeSuppressed() {
        long s = suppressed;
        suppressed = 0;
        return s;
    }
}
