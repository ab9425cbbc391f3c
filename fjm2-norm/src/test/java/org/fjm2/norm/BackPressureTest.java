package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * A receiver loses 30% of everything and NACKs far more than the sender's 8 MiB cache holds, while the
 * application pushes 150 MiB of 1 MiB objects as fast as enqueue lets it. Enqueue must block (back-pressure)
 * instead of buffering: the bytes the sender holds never exceed its cache bound, and the whole transfer runs in a
 * JVM with an 96 MiB heap and 64 MiB of direct memory (this class runs in its own small-heap surefire execution).
 */
class BackPressureTest {

    static final int OBJECTS = 150;
    static final int SIZE = 1024 * 1024;
    static final long CACHE = 8L * 1024 * 1024;
    static final long LOSS_SEED = 4242;

    @Test
    void enqueueBlocksInsteadOfGrowingMemory() throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().maxObjectSize(SIZE).build();
        ObjectCollector collector = new ObjectCollector();
        AtomicLong peakHeld = new AtomicLong();
        AtomicInteger blockedCalls = new AtomicInteger();
        AtomicLong blockedNanos = new AtomicLong();
        long maxHeapMb = Runtime.getRuntime().maxMemory() / (1024 * 1024);
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(61).receiveBufferBytes(16L * 1024 * 1024)
                     .build(), collector, 1, LossyTransport.around(LossInjector.random(0.30, LOSS_SEED), null));
             NormSession tx = NormSession.open(base.toBuilder().nodeId(60).txCacheBytes(CACHE).build(), null, 2)) {
            Thread sampler = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    long held = tx.cachedBytesHeld();
                    peakHeld.accumulateAndGet(held, Math::max);
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            sampler.setDaemon(true);
            sampler.start();
            byte[] content = TestObjects.content(LOSS_SEED, 0, SIZE);
            for (int i = 0; i < OBJECTS; i++) {
                long start = System.nanoTime();
                long ticket = tx.enqueue(Unpooled.wrappedBuffer(content), null, 4, 60, TimeUnit.SECONDS);
                assertThat(ticket).as("enqueue %d (loss seed %d)", i, LOSS_SEED).isGreaterThanOrEqualTo(0);
                long waited = System.nanoTime() - start;
                blockedNanos.addAndGet(waited);
                if (waited > TimeUnit.MILLISECONDS.toNanos(5)) {
                    blockedCalls.incrementAndGet();
                }
            }
            assertThat(collector.await(OBJECTS, 120, TimeUnit.SECONDS))
                    .as("receiver done (loss seed %d): %s; sender %s", LOSS_SEED, rx.counters(), tx.counters()).isTrue();
            sampler.interrupt();
            long heapPeak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                    heapPeak += pool.getPeakUsage().getUsed();
                }
            }
            System.out.printf("back-pressure: %d of %d enqueue calls blocked > 5 ms (%.1f s blocked in all); peak bytes held by the sender %d "
                    + "(cache bound %d); %d MiB sent through a %d MiB heap (peak pools %d MiB); delivered %d, lost %d%n",
                    blockedCalls.get(), OBJECTS, blockedNanos.get() / 1e9, peakHeld.get(), CACHE, OBJECTS * (long) SIZE >> 20, maxHeapMb,
                    heapPeak >> 20, collector.received().size(), collector.lost().size());
            System.out.printf("sender %s%nreceiver %s%n", tx.counters(), rx.counters());
            assertThat(blockedCalls.get()).as("enqueue blocked").isGreaterThanOrEqualTo(10);
            assertThat(peakHeld.get()).as("bytes held by the sender").isLessThanOrEqualTo(CACHE);
            assertThat(collector.received().size() + collector.lost().size()).isEqualTo(OBJECTS);
            assertThat(collector.received().size()).as("most objects are delivered").isGreaterThan(OBJECTS * 9 / 10);
            long expectedCrc = ObjectCollector.crc(content);
            assertThat(collector.received()).allMatch(r -> r.crc() == expectedCrc && r.size() == SIZE);
        }
    }
}
