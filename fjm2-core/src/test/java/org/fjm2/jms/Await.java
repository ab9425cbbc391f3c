package org.fjm2.jms;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Bounded waiting for a condition that another thread makes true (no fixed sleeps in assertions). */
final class Await {

    private Await() {
    }

    /** Polls the condition until it holds or the timeout passes; returns whether it held. */
    static boolean until(BooleanSupplier condition, long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(2);
        }
        return true;
    }

    /** Waits until the thread blocks (WAITING or TIMED_WAITING), e.g. inside receive(). */
    static boolean blocked(Thread thread) throws InterruptedException {
        return until(() -> thread.getState() == Thread.State.WAITING
                || thread.getState() == Thread.State.TIMED_WAITING, 10, TimeUnit.SECONDS);
    }
}
