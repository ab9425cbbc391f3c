package org.fjm2.bench.udp;

import java.util.concurrent.locks.LockSupport;

/**
 * Paces a loop at a fixed rate and gives each iteration its <em>intended</em> start time, so that a latency measured
 * from it includes the time a message waited behind a stalled sender (no coordinated omission): when the sender is
 * late it catches up without pauses, and the timestamps stay on the schedule.
 */
public final class FixedRateSchedule {

    /** Below this much time before the next slot the thread spins instead of parking (parking overshoots ~50 us). */
    static final long SPIN_NANOS = 60_000;

    private final long start;
    private final double periodNanos;

    /** A schedule of {@code ratePerSecond} slots per second starting {@code delayNanos} from now. */
    public FixedRateSchedule(double ratePerSecond, long delayNanos) {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("rate must be positive: " + ratePerSecond);
        }
        this.periodNanos = 1e9 / ratePerSecond;
        this.start = System.nanoTime() + delayNanos;
    }

    /** Waits for slot {@code i} and returns its intended time (in the past if the caller is late). */
    public long awaitSlot(long i) {
        long intended = start + (long) (i * periodNanos);
        while (true) {
            long left = intended - System.nanoTime();
            if (left <= 0) {
                return intended;
            }
            if (left > SPIN_NANOS) {
                LockSupport.parkNanos(left - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
