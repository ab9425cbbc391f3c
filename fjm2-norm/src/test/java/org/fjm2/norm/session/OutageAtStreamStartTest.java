package org.fjm2.norm.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.fjm2.norm.transport.LossInjector;
import org.junit.jupiter.api.Test;

/**
 * A receiver is in an outage (hears nothing) when a new sender starts and sends its first objects; the outage
 * ends, the sender sends more. The receiver was there all along: it must get the first objects too, or be told
 * they are lost, never skip them in silence.
 */
class OutageAtStreamStartTest {

    private static final int BEFORE = 5;
    private static final int AFTER = 5;

    @Test
    void objectsSentDuringAnOutageAtTheStartAreDeliveredOrReportedLost() throws Exception {
        NormConfig base = TestGroups.fresh();
        AtomicBoolean outage = new AtomicBoolean(true);
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(51)
                     .rxLoss(LossInjector.matching(b -> outage.get())).build(), collector, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(50).build(), null, 2)) {
            for (int i = 0; i < BEFORE; i++) {
                tx.sender().enqueue(Unpooled.wrappedBuffer(TestObjects.content(5, i, 2000)), null, 4, 10,
                        TimeUnit.SECONDS);
            }
            awaitSent(tx, BEFORE);
            outage.set(false);
            for (int i = BEFORE; i < BEFORE + AFTER; i++) {
                tx.sender().enqueue(Unpooled.wrappedBuffer(TestObjects.content(5, i, 2000)), null, 4, 10,
                        TimeUnit.SECONDS);
            }
            assertThat(collector.await(BEFORE + AFTER, 15, TimeUnit.SECONDS))
                    .as("received %s, lost %s; receiver %s", collector.received().size(), collector.lost(),
                            rx.counters()).isTrue();
            assertThat(collector.lost()).isEmpty();
        }
    }

    /** The whole stream falls into the outage; afterwards the idle sender's FLUSH is all the receiver hears. */
    @Test
    void aStreamSentEntirelyDuringAnOutageIsDeliveredAfterIt() throws Exception {
        NormConfig base = TestGroups.fresh();
        AtomicBoolean outage = new AtomicBoolean(true);
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(53)
                     .rxLoss(LossInjector.matching(b -> outage.get())).build(), collector, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(52).build(), null, 2)) {
            for (int i = 0; i < BEFORE; i++) {
                tx.sender().enqueue(Unpooled.wrappedBuffer(TestObjects.content(6, i, 2000)), null, 4, 10,
                        TimeUnit.SECONDS);
            }
            awaitSent(tx, BEFORE);
            outage.set(false);
            assertThat(collector.await(BEFORE, 15, TimeUnit.SECONDS))
                    .as("received %s, lost %s; receiver %s", collector.received().size(), collector.lost(),
                            rx.counters()).isTrue();
            assertThat(collector.lost()).isEmpty();
        }
    }

    /**
     * A receiver that joins a long-running sender looks back only a bounded number of objects, and what the
     * sender no longer has there is skipped without a loss report (it predates the receiver).
     */
    @Test
    void aLateJoinerLooksBackBoundedAndReportsNothingLost() throws Exception {
        NormConfig base = TestGroups.fresh();
        int early = 40;
        int late = 10;
        int lookback = 8;
        ObjectCollector collector = new ObjectCollector();
        try (NormSession tx = NormSession.open(base.toBuilder().nodeId(54).txCacheObjects(16).build(), null, 2)) {
            for (int i = 0; i < early; i++) {
                tx.sender().enqueue(Unpooled.wrappedBuffer(TestObjects.content(7, i, 500)), null, 4, 10,
                        TimeUnit.SECONDS);
            }
            awaitSent(tx, early);
            try (NormSession rx = NormSession.open(base.toBuilder().nodeId(55).syncLookbackObjects(lookback)
                    .build(), collector, 1)) {
                for (int i = early; i < early + late; i++) {
                    tx.sender().enqueue(Unpooled.wrappedBuffer(TestObjects.content(7, i, 500)), null, 4, 10,
                            TimeUnit.SECONDS);
                }
                assertThat(collector.await(late + lookback, 15, TimeUnit.SECONDS))
                        .as("received %s, lost %s; receiver %s", collector.received().size(), collector.lost(),
                                rx.counters()).isTrue();
                assertThat(collector.lost()).isEmpty();
                // The first thing heard is either the first late object or the idle sender's FLUSH naming the
                // newest early one (then that one is fetched too): the look back adds `lookback` objects before it.
                assertThat(collector.received().size()).isBetween(late + lookback, late + lookback + 1);
            }
        }
    }

    private static void awaitSent(NormSession tx, int objects) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (tx.counters().get(NormCounters.Counter.OBJECTS_SENT) < objects && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(tx.counters().get(NormCounters.Counter.OBJECTS_SENT)).isEqualTo(objects);
    }
}
