package org.fjm2.norm.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fjm2.norm.transport.LossInjector;
import org.junit.jupiter.api.Test;

/**
 * The last objects of a stream are sent while a known receiver is in an outage, and the end-of-transmission
 * acknowledgement round (its FLUSHes) runs out inside the outage too. Once the outage ends the sender must still
 * be naming its newest object, so that the receiver asks for what it missed, instead of falling silent until the
 * receiver gives it up as gone with the tail never delivered nor reported.
 */
class OutageAtStreamEndTest {

    private static final int BEFORE = 3;
    private static final int DURING = 5;
    /** Longer than the acknowledgement round (robust factor x 2 GRTT at the tests' 2 ms GRTT). */
    private static final Duration OUTAGE = Duration.ofMillis(1500);

    @Test
    void theTailSentDuringAnOutageIsDeliveredAfterIt() throws Exception {
        NormConfig base = TestGroups.fresh();
        AtomicBoolean outage = new AtomicBoolean(false);
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(61)
                     .rxLoss(LossInjector.matching(b -> outage.get())).build(), collector, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(60).build(), null, 2)) {
            for (int i = 0; i < BEFORE; i++) {
                tx.sender().enqueue(Unpooled.wrappedBuffer(TestObjects.content(8, i, 2000)), null, 4, 10,
                        TimeUnit.SECONDS);
            }
            assertThat(collector.await(BEFORE, 10, TimeUnit.SECONDS)).isTrue();
            // The receiver acknowledges the end-of-transmission round: the sender now tracks it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (tx.counters().get(NormCounters.Counter.ACKS_RECEIVED) == 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(tx.counters().get(NormCounters.Counter.ACKS_RECEIVED)).isPositive();
            outage.set(true);
            for (int i = BEFORE; i < BEFORE + DURING; i++) {
                tx.sender().enqueue(Unpooled.wrappedBuffer(TestObjects.content(8, i, 2000)), null, 4, 10,
                        TimeUnit.SECONDS);
            }
            Thread.sleep(OUTAGE.toMillis());    // the outage itself: nothing to wait for but time
            outage.set(false);
            assertThat(collector.await(BEFORE + DURING, 10, TimeUnit.SECONDS))
                    .as("received %s, lost %s; receiver %s; sender %s", collector.received().size(),
                            collector.lost(), rx.counters(), tx.counters()).isTrue();
            assertThat(collector.lost()).isEmpty();
        }
    }
}
