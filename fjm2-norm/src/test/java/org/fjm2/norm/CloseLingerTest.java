package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * A closing sender waits (up to its linger) for a receiver that fell silent within the receiver timeout and comes
 * back: starved of CPU while the last acknowledgement round waited, it was suspended (or the round ran out of
 * FLUSHes first), the round ended without it, and the sender took itself for flushed and closed while the receiver
 * still lacked the tail (a subscriber behind two tunnels lost a publisher's last 4 objects that way in the three-LAN
 * mesh test). Here the receiver hears and says nothing while the tail and every end-of-transmission FLUSH go out,
 * then wakes up: the sender is not flushed until it has everything.
 */
class CloseLingerTest {

    static final int FIRST = 20;
    static final int TAIL = 20;
    static final int SIZE = 4_000;
    static final int ROBUST_FACTOR = 5;

    @Test
    void aReceiverSilentThroughTheTailGetsItBeforeTheSenderIsFlushed() throws Exception {
        // Few end-of-transmission FLUSHes, and a receiver timeout far longer than the test's steps: the receiver
        // wakes up well within it, as a starved one does.
        NormConfig config = TestGroups.fresh().toBuilder().receiverSilence(Duration.ofMillis(200))
                .robustFactor(ROBUST_FACTOR).receiverTimeout(Duration.ofSeconds(30)).maxHold(Duration.ofSeconds(60))
                .build();
        AtomicBoolean starved = new AtomicBoolean();
        LossInjector mute = LossInjector.matching(buf -> starved.get());
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(config.toBuilder().nodeId(141).build(), collector, 141,
                LossyTransport.around(mute, mute))) {
            try (NormSession tx = NormSession.open(config.toBuilder().nodeId(140).build(), null, 140)) {
                send(tx, 0, FIRST);
                assertThat(collector.await(FIRST, 20, TimeUnit.SECONDS)).as("the first objects").isTrue();
                Await.untilTrue("the receiver tracked", () -> tx.trackedReceivers() == 1, Duration.ofSeconds(10),
                        tx::counters);
                starved.set(true);
                long flushes = tx.counters().get(Counter.FLUSHES_SENT);
                send(tx, FIRST, FIRST + TAIL);
                // The round's and the end-of-transmission FLUSHes go out meanwhile: the sender would take itself
                // for flushed.
                Await.untilTrue("the end-of-transmission FLUSHes sent", () -> tx.counters().get(Counter.FLUSHES_SENT) > flushes + 2L * config.robustFactor(),
                        Duration.ofSeconds(20), tx::counters);
                starved.set(false);
                assertThat(tx.awaitFlushed(Duration.ofSeconds(20))).as("flushed; sender %s", tx.counters()).isTrue();
                assertThat(collector.count()).as("objects at the receiver when the sender was flushed; tracked %d; "
                        + "sender %s; receiver %s", tx.trackedReceivers(), tx.counters(), rx.counters())
                        .isEqualTo(FIRST + TAIL);
            }
            assertThat(collector.lost()).isEmpty();
        }
    }

    private static void send(NormSession tx, int from, int to) throws InterruptedException {
        for (int i = from; i < to; i++) {
            assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(14, i, SIZE)), null, 4, 30,
                    TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
        }
    }
}
