package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * A loss while the GRTT is inflated: the sender starts from a GRTT of 2 s (as after receivers answered their first
 * probes during a JVM warm-up on a starved host) and the receiver loses one data packet at once. The GRTT comes down
 * within a second as probes are answered; the repair must follow it. Before, the receiver's NACK back-off (up to 4
 * GRTTs) and the sender's aggregation (5 GRTTs) were fixed when they were set, seconds long: in `bench throughput`
 * under load a NACK waited 6.7 s for its repairs and the sender's cache, keeping objects at most 10 s, gave up data a
 * live receiver had asked for.
 */
class InflatedGrttRepairTest {

    /** Objects sent, one every {@link #PACE_MILLIS}: a stream that keeps going, so probes are answered. */
    static final int OBJECTS = 400;
    static final long PACE_MILLIS = 10;
    static final int SIZE = 3_000;
    /**
     * For the first object, whose last packet was lost: in-order delivery holds everything behind it. Far below the
     * 4-9 GRTTs (8-18 s) the timers set at the start would have taken.
     */
    static final Duration DELIVERY_BOUND = Duration.ofSeconds(4);

    @Test
    void aRepairAskedForUnderAnInflatedGrttComesWhenTheGrttHasFallen() throws Exception {
        AtomicInteger dataSeen = new AtomicInteger();
        LossInjector dropThirdData = LossInjector.matching(buf ->
                (buf.getByte(buf.readerIndex()) & 0x0F) == NormWire.TYPE_DATA && dataSeen.incrementAndGet() == 3);
        NormConfig base = TestGroups.fresh().toBuilder().grttInitial(Duration.ofSeconds(2)).build();
        ObjectCollector received = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(81).build(), received, 81,
                     LossyTransport.around(dropThirdData, LossInjector.NONE));
             NormSession tx = NormSession.open(base.toBuilder().nodeId(80).build(), null, 80)) {
            long start = System.nanoTime();
            Thread publisher = new Thread(() -> {
                try {
                    for (int i = 0; i < OBJECTS; i++) {
                        tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(8, i, SIZE)), null, 4, 10, TimeUnit.SECONDS);
                        Thread.sleep(PACE_MILLIS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "paced-publisher");
            publisher.start();
            boolean first = received.await(1, DELIVERY_BOUND.toMillis(), TimeUnit.MILLISECONDS);
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertThat(dataSeen.get()).as("the loss was injected").isGreaterThanOrEqualTo(3);
            assertThat(first).as("the object with the lost packet within %s (waited %d ms); receiver %s; sender %s",
                    DELIVERY_BOUND, elapsedMs, rx.counters(), tx.counters()).isTrue();
            publisher.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(received.await(OBJECTS, 20, TimeUnit.SECONDS)).as("then all of them").isTrue();
            assertThat(received.lost()).isEmpty();
        }
    }
}
