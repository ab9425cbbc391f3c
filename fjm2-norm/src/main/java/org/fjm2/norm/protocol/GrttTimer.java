package org.fjm2.norm.protocol;

import java.util.function.LongSupplier;

/**
 * A timer set to a multiple of the GRTT that runs out by the GRTT as it is then, not as it was when it was set. NORM
 * scales its repair timers by the GRTT, and the GRTT can be inflated for a moment (receivers answering their first
 * probe while their JVM warms up, a host starved of CPU): a NACK aggregation of five GRTTs set at such a moment
 * (seconds) would hold the repair that long after the estimate came back down, and a cache that keeps objects for a
 * bounded time then gives up data that a live receiver asked for. So the deadline is looked at again at least every
 * {@link #RECHECK_NANOS}. Owned by the session's event loop, as its {@link TimerQueue}.
 */
public final class GrttTimer {

    /** Longest time between two looks at the deadline while the timer runs. */
    public static final long RECHECK_NANOS = 100_000_000L;

    private final ProtocolContext ctx;
    private final LongSupplier grttNanos;
    private final Runnable action;
    private final Timer timer;
    private long startNanos;
    private double multiple;

    public GrttTimer(String name, ProtocolContext ctx, LongSupplier grttNanos, Runnable action) {
        this.ctx = ctx;
        this.grttNanos = grttNanos;
        this.action = action;
        this.timer = new Timer(name, this::onTimer);
    }

    /** Runs the action {@code multiple} GRTTs after {@code nowNanos} (replacing any earlier setting). */
    public void schedule(long nowNanos, double multiple) {
        this.startNanos = nowNanos;
        this.multiple = multiple;
        arm(nowNanos);
    }

    public boolean isActive() {
        return timer.isActive();
    }

    public void cancel() {
        ctx.timers().cancel(timer);
    }

    private long deadline() {
        return startNanos + (long) (multiple * grttNanos.getAsLong());
    }

    private void arm(long nowNanos) {
        long deadline = deadline();
        ctx.timers().schedule(timer, deadline - (nowNanos + RECHECK_NANOS) > 0 ? nowNanos + RECHECK_NANOS : deadline);
    }

    private void onTimer() {
        long now = ctx.nanoTime();
        if (now - deadline() >= 0) {
            action.run();
        } else {
            arm(now);
        }
    }
}
