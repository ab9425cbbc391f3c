package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * Issue 19: a dead receiver must not stall the living. A sender with a small cache streams objects to two receivers
 * (flow control waits for both); one falls dead silent. The other's longest gap between two deliveries stays a
 * fraction of a second — the receiver silence — instead of the receiver timeout, and the dead one is suspended.
 */
class DeadReceiverTest {

    static final int CACHE_OBJECTS = 16;
    static final int SIZE = 2_000;
    /** Far above the receiver silence: without suspension the living would wait this long. */
    static final Duration RECEIVER_TIMEOUT = Duration.ofSeconds(6);
    /** The receiver silence of this test: what a dedicated host can afford (the default is 1 s). */
    static final Duration SILENCE = Duration.ofMillis(200);
    /** What the living may wait: the silence plus room for a loaded 2-core machine. */
    static final long MAX_GAP_NANOS = 600_000_000L;

    @Test
    void theLivingSeeAtMostTheReceiverSilenceOfGap() throws Exception {
        NormConfig config = TestGroups.fresh().toBuilder().txCacheObjects(CACHE_OBJECTS).maxHold(Duration.ofSeconds(60))
                .holdMin(Duration.ofMillis(100)).receiverTimeout(RECEIVER_TIMEOUT).receiverSilence(SILENCE).build();
        AtomicBoolean dead = new AtomicBoolean();
        LossInjector deaf = LossInjector.matching(buf -> dead.get());
        GapMeter living = new GapMeter();
        try (NormSession tx = NormSession.open(config.toBuilder().nodeId(90).build(), null, 90);
             NormSession alive = NormSession.open(config.toBuilder().nodeId(91).build(), living, 91);
             NormSession dying = NormSession.open(config.toBuilder().nodeId(92).build(), null, 92,
                     LossyTransport.around(deaf, deaf))) {
            send(tx, 0, 200);
            org.fjm2.testkit.Await.untilTrue("both receivers tracked", () -> tx.trackedReceivers() == 2,
                    Duration.ofSeconds(10), tx::counters);
            org.fjm2.testkit.Await.untilTrue("the first objects delivered", () -> living.count() == 200,
                    Duration.ofSeconds(10), alive::counters);
            living.reset();
            dead.set(true);
            long start = System.nanoTime();
            send(tx, 200, 1200);
            org.fjm2.testkit.Await.untilTrue("every object delivered to the living",
                    () -> living.count() == 1000, Duration.ofSeconds(30), alive::counters);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("after a receiver died: longest gap at the living one %.1f ms, 1,000 objects in %.2f s;"
                    + " sender %s%n", living.longestGapNanos() / 1e6, seconds, tx.counters());
            assertThat(tx.counters().get(Counter.RECEIVERS_SUSPENDED)).as("the dead receiver suspended").isPositive();
            assertThat(tx.trackedReceivers()).as("only the living one waited for").isEqualTo(1);
            assertThat(living.longestGapNanos()).as("longest delivery gap of the living receiver, ns")
                    .isLessThan(MAX_GAP_NANOS);
        }
    }

    /**
     * Before the receiver silence suspends a silent receiver, its objects fill the cache: the cache may then hold
     * twice its bound, so the living go on meanwhile (a subscriber killed with -9 left the living 0.66-0.96 s without
     * a message until its suspension), and the silent one, if only starved of CPU, still finds everything when it
     * comes back.
     */
    @Test
    void aSilentReceiverNotSuspendedYetHoldsNobodyBackAndLosesNothing() throws Exception {
        Duration silence = Duration.ofSeconds(5);
        NormConfig config = TestGroups.fresh().toBuilder().txCacheObjects(CACHE_OBJECTS).maxHold(Duration.ofSeconds(60))
                .holdMin(Duration.ofMillis(100)).receiverTimeout(Duration.ofSeconds(30)).receiverSilence(silence)
                .windowSilence(Duration.ofMillis(150)).build();
        AtomicBoolean starved = new AtomicBoolean();
        LossInjector deaf = LossInjector.matching(buf -> starved.get());
        GapMeter living = new GapMeter();
        ObjectCollector sleeper = new ObjectCollector();
        int first = 200;
        int whileSilent = CACHE_OBJECTS * 3 / 2;
        try (NormSession tx = NormSession.open(config.toBuilder().nodeId(93).build(), null, 93);
             NormSession alive = NormSession.open(config.toBuilder().nodeId(94).build(), living, 94);
             NormSession dozing = NormSession.open(config.toBuilder().nodeId(95).build(), sleeper, 95,
                     LossyTransport.around(deaf, deaf))) {
            send(tx, 0, first);
            org.fjm2.testkit.Await.untilTrue("both receivers tracked", () -> tx.trackedReceivers() == 2,
                    Duration.ofSeconds(10), tx::counters);
            assertThat(sleeper.await(first, 10, TimeUnit.SECONDS)).as("the first objects at both").isTrue();
            org.fjm2.testkit.Await.untilTrue("the first objects delivered", () -> living.count() == first,
                    Duration.ofSeconds(10), alive::counters);
            // Both acknowledged everything so far: what the silent one owes is what follows, 1.5 caches (in a run
            // where it had not yet acknowledged the last round, what it owed outgrew the overflow too).
            assertThat(tx.awaitFlushed(Duration.ofSeconds(10))).as("both acknowledged the first objects; %s",
                    tx.counters()).isTrue();
            living.reset();
            starved.set(true);
            long start = System.nanoTime();
            send(tx, first, first + whileSilent);
            org.fjm2.testkit.Await.untilTrue("the objects sent meanwhile at the living",
                    () -> living.count() == whileSilent, Duration.ofSeconds(30), alive::counters);
            long took = System.nanoTime() - start;
            System.out.printf("%d objects (1.5 caches) to the living while the other was silent: %.0f ms; sender %s%n",
                    whileSilent, took / 1e6, tx.counters());
            assertThat(tx.counters().get(Counter.RECEIVERS_SUSPENDED)).as("suspended before it was heard again")
                    .isZero();
            assertThat(took).as("ns until the living had them: far less than the %s receiver silence", silence)
                    .isLessThan(silence.toNanos() / 2);
            starved.set(false);
            assertThat(sleeper.await(first + whileSilent, 20, TimeUnit.SECONDS))
                    .as("everything at the one that was silent; sender %s", tx.counters()).isTrue();
            assertThat(sleeper.lost()).isEmpty();
        }
    }

    private static void send(NormSession tx, int from, int to) throws InterruptedException {
        for (int i = from; i < to; i++) {
            assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(9, i, SIZE)), null, 4, 30,
                    TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
        }
    }

    /** Counts deliveries and the longest time between two of them (event-loop thread writes, test thread reads). */
    static final class GapMeter implements NormListener {
        private final AtomicLong count = new AtomicLong();
        private final AtomicLong longest = new AtomicLong();
        private volatile long last;

        @Override
        public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
            long now = System.nanoTime();
            if (count.getAndIncrement() > 0) {
                longest.accumulateAndGet(now - last, Math::max);
            }
            last = now;
        }

        long count() {
            return count.get();
        }

        long longestGapNanos() {
            return longest.get();
        }

        void reset() {
            count.set(0);
            longest.set(0);
        }
    }
}
