package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * The discovery period (CacheEviction.DISCOVERY_NANOS): two receivers present from the start, one of which the sender
 * hears from only later (its feedback muted until the other has {@value #HEARD_LATE_AFTER} objects; in CI, receivers'
 * first reports reached a busy sender milliseconds apart). The one heard first acknowledges at once, and the cache is
 * small, so before the period existed its acknowledgements gave up objects the late one still needed (it lost them
 * to a squelch); now objects of the first seconds stay until the tracked receivers settle, and it gets every object.
 * A receiver behind a tunnel is heard even later, after the others settled (the three-LAN mesh: 0.8 s after the
 * receiver on the sender's LAN): objects of the period are not given up before its end unless the cache is full,
 * and the period lasts while new receivers keep arriving (the mesh on a loaded host: one heard 2.1 s after the first
 * object, 0.5 s after the previous new one).
 */
class DiscoveryHoldTest {

    static final int OBJECTS = 200;
    static final int SIZE = 16_000;
    static final long LOSS_SEED = 4242;
    static final int HEARD_LATE_AFTER = 20;

    static final int OVER_HALF_CACHE_OBJECTS = 40;
    static final long HEARD_LATE_MILLIS = 800;

    @Test
    void aReceiverHeardAfterTheOthersSettledGetsTheObjectsOfADiscoveryPeriodThatDidNotFillTheCache() throws Exception {
        NormConfig config = TestGroups.fresh().toBuilder().txCacheBytes(8L << 20).txCacheObjects(64)
                .maxHold(Duration.ofSeconds(60)).build();
        ObjectCollector local = new ObjectCollector();
        ObjectCollector remote = new ObjectCollector();
        AtomicBoolean muted = new AtomicBoolean(true);
        LossInjector mute = LossInjector.matching(buf -> muted.get());
        LossInjector someLoss = LossInjector.random(0.05, LOSS_SEED);
        try (NormSession localRx = NormSession.open(config.toBuilder().nodeId(141).build(), local, 141);
             NormSession remoteRx = NormSession.open(config.toBuilder().nodeId(142).build(), remote, 142,
                     LossyTransport.around(someLoss, mute));
             NormSession tx = NormSession.open(config.toBuilder().nodeId(140).build(), null, 140)) {
            for (int i = 0; i < OVER_HALF_CACHE_OBJECTS; i++) {
                assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(14, i, SIZE)), null, 4, 30,
                        TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            }
            assertThat(local.await(OVER_HALF_CACHE_OBJECTS, 30, TimeUnit.SECONDS)).as("every object at the local receiver")
                    .isTrue();
            Thread.sleep(HEARD_LATE_MILLIS);    // the remote receiver's feedback is still on its way: lost meanwhile
            muted.set(false);
            assertThat(remote.await(OVER_HALF_CACHE_OBJECTS, 30, TimeUnit.SECONDS))
                    .as("every object at the receiver heard %d ms late (loss seed %d); lost %s; sender %s",
                            HEARD_LATE_MILLIS, LOSS_SEED, remote.lost(), tx.counters()).isTrue();
            assertThat(remote.lost()).as("lost at the receiver heard late (loss seed %d)", LOSS_SEED).isEmpty();
        }
    }

    static final long SECOND_HEARD_MILLIS = 1500;
    static final long THIRD_HEARD_MILLIS = 2300;
    static final long TRICKLE_EVERY_MILLIS = 100;

    @Test
    void theDiscoveryPeriodLastsWhileNewReceiversKeepArriving() throws Exception {
        NormConfig config = TestGroups.fresh().toBuilder().txCacheBytes(8L << 20).txCacheObjects(64)
                .maxHold(Duration.ofSeconds(60)).build();
        ObjectCollector first = new ObjectCollector();
        ObjectCollector second = new ObjectCollector();
        ObjectCollector third = new ObjectCollector();
        AtomicBoolean secondMuted = new AtomicBoolean(true);
        AtomicBoolean thirdMuted = new AtomicBoolean(true);
        try (NormSession firstRx = NormSession.open(config.toBuilder().nodeId(151).build(), first, 151);
             NormSession secondRx = NormSession.open(config.toBuilder().nodeId(152).build(), second, 152,
                     LossyTransport.around(LossInjector.random(0.05, LOSS_SEED),
                             LossInjector.matching(buf -> secondMuted.get())));
             NormSession thirdRx = NormSession.open(config.toBuilder().nodeId(153).build(), third, 153,
                     LossyTransport.around(LossInjector.random(0.05, LOSS_SEED + 1),
                             LossInjector.matching(buf -> thirdMuted.get())));
             NormSession tx = NormSession.open(config.toBuilder().nodeId(150).build(), null, 150)) {
            long start = System.nanoTime();
            int sent = 0;
            // More than half the cache at once (acknowledged objects beyond half are trimmed after each round), then
            // a trickle so that every receiver keeps reading and reporting.
            for (; sent < OVER_HALF_CACHE_OBJECTS; sent++) {
                assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(15, sent, SIZE)), null, 4, 30,
                        TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            }
            for (long elapsed = 0; elapsed < THIRD_HEARD_MILLIS + 500; elapsed = (System.nanoTime() - start) / 1_000_000) {
                secondMuted.set(elapsed < SECOND_HEARD_MILLIS);
                thirdMuted.set(elapsed < THIRD_HEARD_MILLIS);
                Thread.sleep(TRICKLE_EVERY_MILLIS);
                assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(15, sent++, SIZE)), null, 4, 30,
                        TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            }
            for (ObjectCollector rx : java.util.List.of(first, second, third)) {
                assertThat(rx.await(sent, 30, TimeUnit.SECONDS)).as("all %d objects (loss seeds %d, %d); lost %s; "
                        + "sender %s", sent, LOSS_SEED, LOSS_SEED + 1, rx.lost(), tx.counters()).isTrue();
                assertThat(rx.lost()).as("lost (loss seeds %d, %d)", LOSS_SEED, LOSS_SEED + 1).isEmpty();
            }
        }
    }

    @Test
    void aReceiverHeardLateGetsTheFirstObjects() throws Exception {
        NormConfig config = TestGroups.fresh().toBuilder().txCacheBytes(1L << 20).txCacheObjects(64)
                .maxHold(Duration.ofSeconds(60)).build();
        ObjectCollector early = new ObjectCollector();
        ObjectCollector late = new ObjectCollector();
        AtomicBoolean muted = new AtomicBoolean(true);
        LossInjector mute = LossInjector.matching(buf -> muted.get());
        LossInjector someLoss = LossInjector.random(0.05, LOSS_SEED);
        try (NormSession earlyRx = NormSession.open(config.toBuilder().nodeId(131).build(), early, 131);
             NormSession lateRx = NormSession.open(config.toBuilder().nodeId(132).build(), late, 132,
                     LossyTransport.around(someLoss, mute));
             NormSession tx = NormSession.open(config.toBuilder().nodeId(130).build(), null, 130)) {
            Thread unmute = new Thread(() -> {
                try {
                    early.await(HEARD_LATE_AFTER, 30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                muted.set(false);
            }, "unmute");
            unmute.start();
            for (int i = 0; i < OBJECTS; i++) {
                assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(13, i, SIZE)), null, 4, 30,
                        TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            }
            unmute.join(30_000);
            assertThat(early.await(OBJECTS, 30, TimeUnit.SECONDS)).as("every object at the early receiver").isTrue();
            assertThat(late.await(OBJECTS, 30, TimeUnit.SECONDS))
                    .as("every object at the receiver heard late (loss seed %d); lost %s; sender %s", LOSS_SEED,
                            late.lost(), tx.counters()).isTrue();
            assertThat(late.lost()).as("lost at the receiver heard late (loss seed %d)", LOSS_SEED).isEmpty();
        }
    }
}
