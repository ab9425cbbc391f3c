package org.fjm2.norm.sender;

import java.util.function.BooleanSupplier;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.Timer;

/**
 * When the sender probes the group round-trip time with NORM_CMD(CC): at once when data starts flowing, then at an
 * interval growing by half each time from the configured minimum to the maximum, and not at all while the sender
 * is idle (probing resumes, at the minimum interval, with the next data). Owned by the session's event loop.
 */
final class ProbeSchedule {

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final BooleanSupplier idle;
    private final RateController rate;
    private final GrttEstimator grtt;
    private final Timer probeTimer;
    private boolean due;
    private boolean dataSinceProbe;
    private long intervalNanos;

    /**
     * {@code idle} tells whether the sender has nothing to transmit; the rate controller may ask for its own probe
     * pace (NORM-CC probes once per round trip of its limiting receiver).
     */
    ProbeSchedule(ProtocolContext ctx, BooleanSupplier idle, RateController rate, GrttEstimator grtt) {
        this.ctx = ctx;
        this.rate = rate;
        this.grtt = grtt;
        this.config = ctx.config();
        this.idle = idle;
        this.probeTimer = new Timer("sender-probe", this::onProbeTimer);
        this.intervalNanos = config.probeIntervalMin().toNanos();
    }

    /** Data is being sent: probe now when probing had stopped. */
    void onData(long now) {
        dataSinceProbe = true;
        if (!probeTimer.isActive()) {
            due = true;
            ctx.timers().schedule(probeTimer, now + nextInterval());
        }
    }

    private long nextInterval() {
        return rate.probeIntervalNanos(intervalNanos, grtt.advertisedNanos());
    }

    /**
     * The GRTT went up: probe again after the minimum interval (not the grown one), so that one slow moment is
     * corrected by the next answers instead of holding the estimate up until a distant probe.
     */
    void soon(long now) {
        intervalNanos = config.probeIntervalMin().toNanos();
        long next = nextInterval();
        if (probeTimer.isActive() && probeTimer.deadlineNanos() - (now + next) > 0) {
            ctx.timers().schedule(probeTimer, now + next);
        }
    }

    /** A probe goes out at the next opportunity, outside the schedule (it does not move the next one). */
    void now() {
        due = true;
    }

    /** Whether a probe waits to be sent. */
    boolean isDue() {
        return due;
    }

    /** Takes the waiting probe: true when one was due (the caller sends it). */
    boolean takeDue() {
        if (!due) {
            return false;
        }
        due = false;
        return true;
    }

    private void onProbeTimer() {
        if (!dataSinceProbe && idle.getAsBoolean()) {
            intervalNanos = config.probeIntervalMin().toNanos();
            return;     // quiet: resume probing when data flows again
        }
        dataSinceProbe = false;
        due = true;
        ctx.wakeTransmitter();
        ctx.timers().schedule(probeTimer, ctx.nanoTime() + nextInterval());
        intervalNanos = Math.min((long) (intervalNanos * 1.5), config.probeIntervalMax().toNanos());
    }
}
