package org.fjm2.norm.util;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

/**
 * When an event-loop agent runs its next pass (the duty cycle of the NORM engine and of FJM2D): as soon as possible
 * after {@link #now()} — coalesced, so that a thousand calls from application threads cost one task — or at the
 * earliest deadline {@link #at} asked for, one scheduled task at a time. The pass itself arms the next deadline.
 */
public final class LoopWake {

    private final EventLoop loop;
    private final Runnable pass;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final Runnable immediate;
    private final Runnable timed;
    private ScheduledFuture<?> timer;
    private long timerDeadline = Long.MAX_VALUE;

    /** {@code pass}: what runs on the loop, once per wake-up. */
    public LoopWake(EventLoop loop, Runnable pass) {
        this.loop = loop;
        this.pass = pass;
        this.immediate = () -> {
            scheduled.set(false);
            pass.run();
        };
        this.timed = () -> {
            timer = null;
            timerDeadline = Long.MAX_VALUE;
            pass.run();
        };
    }

    public EventLoop loop() {
        return loop;
    }

    /** Any thread: run the pass soon (once, however often this is called before it runs). */
    public void now() {
        if (scheduled.compareAndSet(false, true)) {
            loop.execute(immediate);
        }
    }

    /** Event loop: run the pass at {@code deadlineNanos} ({@link System#nanoTime()}), unless one is due earlier. */
    public void at(long deadlineNanos) {
        if (deadlineNanos == Long.MAX_VALUE) {
            return;
        }
        if (timer != null) {
            if (timerDeadline - deadlineNanos <= 0) {
                return;     // an earlier or equal wake-up is already armed
            }
            timer.cancel(false);
        }
        timerDeadline = deadlineNanos;
        timer = loop.schedule(timed, Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }

    /** Event loop: no more timed wake-ups (shutting down). */
    public void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
            timerDeadline = Long.MAX_VALUE;
        }
    }
}
