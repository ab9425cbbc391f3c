package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * Acknowledgement-based flow control waits for every receiver it tracks, so a receiver that goes away must stop
 * holding the sender back: one that closes its session says so (the sender stops waiting at once), one that dies
 * without a word is dropped after the receiver timeout. Both sessions use a small object cache, so the sender can
 * only go on once the departed receiver is no longer waited for (after a death it sends twice what the cache holds
 * even at the 2x overflow allowed while only a silent receiver holds it), and a maximum hold far longer than the
 * bounded waits below, so that eviction by age cannot be what unblocks it.
 */
class ReceiverDepartureTest {

    static final int CACHE_OBJECTS = 16;
    static final int SIZE = 2_000;
    static final Duration LONG_HOLD = Duration.ofSeconds(120);

    private static NormConfig.Builder base() {
        return TestGroups.fresh().toBuilder().txCacheObjects(CACHE_OBJECTS).maxHold(LONG_HOLD)
                .holdMin(Duration.ofMillis(100));
    }

    @Test
    void aReceiverThatClosesIsNoLongerWaitedFor() throws Exception {
        NormConfig config = base().receiverTimeout(LONG_HOLD).build();
        ObjectCollector stays = new ObjectCollector();
        ObjectCollector leaves = new ObjectCollector();
        try (NormSession tx = NormSession.open(config.toBuilder().nodeId(70).build(), null, 70);
             NormSession staying = NormSession.open(config.toBuilder().nodeId(71).build(), stays, 71)) {
            NormSession leaving = NormSession.open(config.toBuilder().nodeId(72).build(), leaves, 72);
            sendAndAwait(tx, 0, 2 * CACHE_OBJECTS, stays, leaves);
            assertThat(awaitTracked(tx, 2)).as("both receivers are heard, so both are tracked").isEqualTo(2);
            leaving.close();
            long start = System.nanoTime();
            sendAndAwait(tx, 2 * CACHE_OBJECTS, 4 * CACHE_OBJECTS, stays);
            System.out.printf("after the leave: %d more objects in %d ms; sender %s%n", 2 * CACHE_OBJECTS,
                    (System.nanoTime() - start) / 1_000_000, tx.counters());
            assertThat(trackedBySender(tx)).isEqualTo(1);
        }
    }

    @Test
    void aReceiverThatFallsSilentIsDroppedAfterTheReceiverTimeout() throws Exception {
        NormConfig config = base().receiverTimeout(Duration.ofSeconds(1)).build();
        AtomicBoolean dead = new AtomicBoolean();
        ObjectCollector stays = new ObjectCollector();
        ObjectCollector dies = new ObjectCollector();
        LossInjector deaf = LossInjector.matching(buf -> dead.get());
        try (NormSession tx = NormSession.open(config.toBuilder().nodeId(80).build(), null, 80);
             NormSession staying = NormSession.open(config.toBuilder().nodeId(81).build(), stays, 81);
             NormSession dying = NormSession.open(config.toBuilder().nodeId(82).build(), dies, 82,
                     LossyTransport.around(deaf, deaf))) {
            sendAndAwait(tx, 0, 2 * CACHE_OBJECTS, stays, dies);
            assertThat(awaitTracked(tx, 2)).as("both receivers are heard, so both are tracked").isEqualTo(2);
            dead.set(true);
            sendAndAwait(tx, 2 * CACHE_OBJECTS, 6 * CACHE_OBJECTS, stays);
            assertThat(trackedBySender(tx)).as("the silent receiver was dropped; sender %s", tx.counters())
                    .isEqualTo(1);
        }
    }

    /** Enqueues objects [from, to) and waits (bounded) until every collector has them all. */
    private static void sendAndAwait(NormSession tx, int from, int to, ObjectCollector... receivers)
            throws InterruptedException {
        for (int i = from; i < to; i++) {
            assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(7, i, SIZE)), null, 4, 30,
                    TimeUnit.SECONDS)).as("enqueue %d; sender %s", i, tx.counters()).isGreaterThanOrEqualTo(0);
        }
        for (ObjectCollector r : receivers) {
            assertThat(r.await(to, 30, TimeUnit.SECONDS)).as("received %d of %d", r.received().size(), to).isTrue();
        }
    }

    /** Waits (bounded) until the sender tracks {@code count} receivers; returns how many it tracks. */
    private static int awaitTracked(NormSession tx, int count) throws InterruptedException {
        Await.until(() -> trackedBySender(tx) >= count, java.time.Duration.ofSeconds(10));
        return trackedBySender(tx);
    }

    private static int trackedBySender(NormSession tx) {
        return tx.call(() -> tx.trackedReceivers());
    }
}
