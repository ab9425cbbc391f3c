package org.fjm2.bench.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.Test;

/** A stall inside a measured window shows as its longest gap and as a slowest slice of zero messages. */
class DeliveryWindowTest {

    @Test
    void aStallShowsAsTheLongestGapAndAnEmptySlice() {
        DeliveryWindow w = new DeliveryWindow();
        w.open(1);
        long start = System.nanoTime();
        deliverFor(w, start, 150_000_000L);
        LockSupport.parkNanos(350_000_000L);                 // a 350 ms stall
        deliverFor(w, System.nanoTime(), 150_000_000L);
        double[] evenness = w.close();
        assertThat(evenness[0]).as("longest gap, ms").isBetween(300.0, 1_000.0);
        assertThat(evenness[1]).as("slowest whole 100 ms slice, msgs/s").isZero();
    }

    private static void deliverFor(DeliveryWindow w, long from, long nanos) {
        while (System.nanoTime() - from < nanos) {
            w.delivered();
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
