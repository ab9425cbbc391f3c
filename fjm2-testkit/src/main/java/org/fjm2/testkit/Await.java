package org.fjm2.testkit;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Bounded waiting for a condition another thread or process makes true: tests wait for readiness and results by
 * condition, never by a fixed sleep. Polls every {@link #POLL_MILLIS} ms.
 */
public final class Await {

    /** How often the condition is checked. */
    public static final long POLL_MILLIS = 5;

    private Await() {
    }

    /** Waits until the condition holds or the timeout passes; returns whether it held. */
    public static boolean until(BooleanSupplier condition, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }

    /** Waits until the condition holds or the timeout passes; returns whether it held. */
    public static boolean until(BooleanSupplier condition, long timeout, TimeUnit unit) throws InterruptedException {
        return until(condition, Duration.ofNanos(unit.toNanos(timeout)));
    }

    /**
     * Waits until the condition holds, or throws an {@link AssertionError} saying what was awaited and, from
     * {@code state}, how things stood when the time ran out.
     */
    public static void untilTrue(String what, BooleanSupplier condition, Duration timeout, Supplier<?> state)
            throws InterruptedException {
        if (!until(condition, timeout)) {
            throw new AssertionError("not within " + timeout.toMillis() + " ms: " + what + " (" + state.get() + ")");
        }
    }

    /** Waits up to 10 s until the thread blocks (WAITING or TIMED_WAITING), e.g. inside a receive() call. */
    public static boolean blocked(Thread thread) throws InterruptedException {
        return blocked(thread, Duration.ofSeconds(10));
    }

    /** Waits until the thread blocks (WAITING or TIMED_WAITING), e.g. inside a receive() call. */
    public static boolean blocked(Thread thread, Duration timeout) throws InterruptedException {
        return until(() -> thread.getState() == Thread.State.WAITING
                || thread.getState() == Thread.State.TIMED_WAITING, timeout);
    }
}
