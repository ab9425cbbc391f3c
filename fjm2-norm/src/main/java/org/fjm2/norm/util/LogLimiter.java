package org.fjm2.norm.util;

import java.util.function.LongSupplier;

/**
 * At most one log line per interval for events a remote peer can make frequent (malformed or refused input,
 * failures, losses): the first is logged, the rest are counted and the count goes with the next line. Not
 * thread-safe: one owner thread.
 */
public final class LogLimiter {

    /** Default interval between two lines about the same kind of event. */
    public static final long DEFAULT_INTERVAL_NANOS = 1_000_000_000L;

    private final long intervalNanos;
    private final LongSupplier nanoClock;
    private long nextAllowed;
    private long suppressed;

    public LogLimiter(long intervalNanos) {
        this(intervalNanos, System::nanoTime);
    }

    /** @param nanoClock {@code System.nanoTime} or, in tests, a clock they move */
    public LogLimiter(long intervalNanos, LongSupplier nanoClock) {
        this.intervalNanos = intervalNanos;
        this.nanoClock = nanoClock;
        this.nextAllowed = nanoClock.getAsLong();
    }

    /** True when a line may be logged now; otherwise the event is counted as suppressed. */
    public boolean allow() {
        long now = nanoClock.getAsLong();
        if (now - nextAllowed >= 0) {
            nextAllowed = now + intervalNanos;
            return true;
        }
        suppressed++;
        return false;
    }

    /** Events suppressed since the last line (then reset). */
    public long takeSuppressed() {
        long s = suppressed;
        suppressed = 0;
        return s;
    }
}
