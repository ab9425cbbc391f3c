package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.junit.jupiter.api.Test;

/**
 * A steady producer whose receiver keeps up never waits for room: objects every tracked receiver acknowledged leave
 * the cache when their round completes (down to half of it), instead of when the cache is full — which made a send
 * wait for the event loop each time the cache filled up. Measured after the sender's discovery period, during which
 * only a full cache gives objects up.
 */
class CacheTrimTest {

    static final int CACHE_OBJECTS = 64;
    static final int WARM_UP_OBJECTS = 100;
    static final int MEASURED_OBJECTS = 400;
    static final long PAUSE_NANOS = 500_000;
    /**
     * Longer than the sender's discovery period (CacheEviction: 2 s, and 1 s without a new receiver): until its end
     * objects leave only a full cache, on purpose (a receiver heard late may still need them).
     */
    static final long WARM_UP_NANOS = 3_500_000_000L;

    @Test
    void aSteadyProducerFindsRoomWithoutWaiting() throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().txCacheObjects(CACHE_OBJECTS)
                .grttInitial(Duration.ofMillis(1)).build();
        ObjectCollector received = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(71).build(), received, 71);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(70).build(), null, 70)) {
            // Warm up past the discovery period, until objects leave the cache.
            int warmUp = 0;
            long start = System.nanoTime();
            long warmUpEnd = start + TimeUnit.SECONDS.toNanos(20);
            while (warmUp < WARM_UP_OBJECTS || tx.counters().get(Counter.OBJECTS_PURGED) == 0
                    || System.nanoTime() - start < WARM_UP_NANOS) {
                assertThat(System.nanoTime() - warmUpEnd).as("warm-up: objects purged; sender %s", tx.counters())
                        .isNegative();
                send(tx, warmUp, 1);
                warmUp++;
            }
            assertThat(received.await(warmUp, 20, TimeUnit.SECONDS)).isTrue();
            long waitsBefore = tx.counters().get(Counter.PRODUCER_WAITS);

            long purgedBefore = tx.counters().get(Counter.OBJECTS_PURGED);
            send(tx, warmUp, MEASURED_OBJECTS);
            assertThat(received.await(warmUp + MEASURED_OBJECTS, 20, TimeUnit.SECONDS)).isTrue();

            assertThat(tx.counters().get(Counter.PRODUCER_WAITS) - waitsBefore)
                    .as("sends that waited for room, %d objects through a %d-object cache; sender %s",
                            MEASURED_OBJECTS, CACHE_OBJECTS, tx.counters())
                    .isZero();
            assertThat(tx.counters().get(Counter.OBJECTS_PURGED) - purgedBefore)
                    .isGreaterThan(MEASURED_OBJECTS - CACHE_OBJECTS);
        }
    }

    private static void send(NormSession tx, int first, int count) throws Exception {
        for (int i = first; i < first + count; i++) {
            assertThat(tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(70, i, 200)), null, 4, 10,
                    TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            LockSupport.parkNanos(PAUSE_NANOS);
        }
    }
}
