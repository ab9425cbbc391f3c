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
 */
class DiscoveryHoldTest {

    static final int OBJECTS = 200;
    static final int SIZE = 16_000;
    static final long LOSS_SEED = 4242;
    static final int HEARD_LATE_AFTER = 20;

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
