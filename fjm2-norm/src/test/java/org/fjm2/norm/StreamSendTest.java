package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.FlushMode;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;

/**
 * fjm2 stream sender -> fjm2 stream receivers over loopback multicast: a few MB written as messages through
 * {@link NormStream} reach receivers that lose 10% of what arrives (seeded), in order and intact, with their message
 * starts and the end of the stream; with parity the losses are repaired from parity; writes block while the buffer
 * is full; a flush sends a partly filled segment at once; objects and a stream do not mix in one session.
 */
class StreamSendTest {

    static final int MESSAGE_MIN = 200;
    static final int MESSAGE_MAX = 9_000;

    /** Messages of seeded sizes and contents, and where each starts. */
    record Workload(byte[] bytes, List<Integer> sizes, List<Long> starts) {
        static Workload of(long seed, int total) {
            SplittableRandom random = new SplittableRandom(seed);
            byte[] bytes = new byte[total];
            random.nextBytes(bytes);
            List<Integer> sizes = new ArrayList<>();
            List<Long> starts = new ArrayList<>();
            long at = 0;
            while (at < total) {
                int size = (int) Math.min(total - at, random.nextInt(MESSAGE_MIN, MESSAGE_MAX + 1));
                sizes.add(size);
                starts.add(at);
                at += size;
            }
            return new Workload(bytes, sizes, starts);
        }

        void writeTo(NormStream stream) throws Exception {
            int at = 0;
            for (int size : sizes) {
                stream.write(bytes, at, size);
                stream.markEndOfMessage();
                at += size;
            }
        }
    }

    /**
     * 50 Mbit/s: a stream sender keeps a block for repairs only a flow-control delay (10 GRTTs) after it was last
     * sent or asked for, and two receivers and a sender in one JVM on the loaded 2-core machine can lag behind their
     * sockets by more than that at higher rates (their NACKs then come after the block was reused: a gap).
     */
    static NormConfig.Builder node(NormConfig group, int id, int parity) {
        return group.toBuilder().nodeId(id).segmentSize(1024).blockSize(16).parity(parity).txRate(50_000_000L);
    }

    void streamArrivesIntact(int parity, long seed) throws Exception {
        NormConfig group = TestGroups.fresh();
        Workload work = Workload.of(seed, 3_000_000);
        StreamCollector a = new StreamCollector();
        StreamCollector b = new StreamCollector();
        try (NormSession rxA = NormSession.open(node(group, 31, 0).build(), a, seed,
                LossyTransport.around(LossInjector.random(0.10, seed), null));
             NormSession rxB = NormSession.open(node(group, 32, 0).build(), b, seed + 1,
                     LossyTransport.around(LossInjector.random(0.10, seed + 1), null));
             NormSession tx = NormSession.open(node(group, 30, parity).build(), null, seed + 2)) {
            try (NormStream stream = tx.openStream(2 << 20)) {
                work.writeTo(stream);
            }
            for (StreamCollector c : List.of(a, b)) {
                assertThat(c.awaitClosed(60, TimeUnit.SECONDS)).as("seed %d: %s; sender %s", seed, c,
                        tx.counters()).isTrue();
                assertThat(c.violations()).isEmpty();
                assertThat(c.gaps()).as("seed %d: receivers %s / %s; sender %s (grtt %s ms)", seed, rxA.counters(),
                        rxB.counters(), tx.counters(), tx.grttSeconds() * 1e3).isEmpty();
                assertThat(c.closeReason()).as("seed %d: %s", seed, c).isNull();
                assertThat(c.openedAt()).isZero();
                assertThat(c.bytes()).as("seed %d", seed).isEqualTo(work.bytes());
                assertThat(work.starts()).as("message starts (seed %d)", seed).containsAll(c.messageStarts());
                assertThat(c.messageStarts()).isNotEmpty();
            }
            assertThat(rxA.counters().get(Counter.NACKS_SENT) + rxB.counters().get(Counter.NACKS_SENT))
                    .as("10%% loss needs NACKs").isPositive();
            assertThat(tx.counters().get(Counter.STREAM_BYTES_SENT)).isEqualTo(work.bytes().length);
            if (parity > 0) {
                assertThat(tx.counters().get(Counter.PARITY_SENT)).as("repairs by parity: %s", tx.counters())
                        .isPositive();
                assertThat(rxA.counters().get(Counter.FEC_DECODES)).isPositive();
            }
        }
    }

    @Test
    void theStreamsInfoReachesAReceiverThatLostItsFirstCopyOnce() throws Exception {
        NormConfig group = TestGroups.fresh();
        long seed = 18_010;
        Workload work = Workload.of(seed, 200_000);
        StreamCollector received = new StreamCollector();
        boolean[] dropped = new boolean[1];
        try (NormSession rx = NormSession.open(node(group, 31, 0).build(), received, seed,
                LossyTransport.around(LossInjector.matching(LossPredicates.firstInfo(dropped)), null));
             NormSession tx = NormSession.open(node(group, 30, 0).build(), null, seed + 1)) {
            assertThatThrownBy(() -> tx.openStream(1 << 20, new byte[1025])).as("longer than a segment")
                    .isInstanceOf(IllegalArgumentException.class);
            try (NormStream stream = tx.openStream(1 << 20, "quotes.csv".getBytes(StandardCharsets.UTF_8))) {
                work.writeTo(stream);
            }
            assertThat(received.awaitClosed(30, TimeUnit.SECONDS)).as("%s; sender %s", received, tx.counters())
                    .isTrue();
            assertThat(dropped[0]).as("the sender sent a NORM_INFO").isTrue();
            assertThat(received.infos()).as("asked for again, delivered once: %s", rx.counters())
                    .containsExactly("quotes.csv");
            assertThat(tx.counters().get(Counter.INFO_SENT)).as("sent again on request").isGreaterThanOrEqualTo(2);
            assertThat(received.bytes()).isEqualTo(work.bytes());
        }
    }

    @Test
    void aStreamReachesLossyReceiversInOrder() throws Exception {
        streamArrivesIntact(0, 18_001);
    }

    @Test
    void parityRepairsAStreamAtSeveralReceivers() throws Exception {
        streamArrivesIntact(4, 18_002);
    }

    @Test
    void aFlushSendsAPartlyFilledSegmentAtOnce() throws Exception {
        NormConfig group = TestGroups.fresh();
        StreamCollector rx = new StreamCollector();
        try (NormSession receiver = NormSession.open(node(group, 41, 0).build(), rx, 1);
             NormSession tx = NormSession.open(node(group, 40, 0).build(), null, 2)) {
            NormStream stream = tx.openStream(256 * 1024);
            stream.write(new byte[] {1, 2, 3});
            Thread.sleep(300);
            assertThat(rx.size()).as("three bytes wait for a full segment").isZero();
            stream.flush();
            assertThat(rx.awaitBytes(3, 10, TimeUnit.SECONDS)).as("flushed: %s", tx.counters()).isTrue();
            stream.setAutoFlush(FlushMode.ACTIVE);
            stream.write(new byte[] {4});
            assertThat(rx.awaitBytes(4, 10, TimeUnit.SECONDS)).isTrue();
            assertThat(rx.bytes()).containsExactly(1, 2, 3, 4);
            stream.close();
            assertThat(rx.awaitClosed(10, TimeUnit.SECONDS)).isTrue();
            assertThat(rx.closedAt()).isEqualTo(4);
            assertThat(tx.counters().get(Counter.FLUSHES_SENT)).isPositive();
        }
    }

    @Test
    void writesBlockWhileTheBufferIsFull() throws Exception {
        NormConfig group = TestGroups.fresh();
        // 32 kbit/s: a 64 KiB buffer (its writable half plus the queue) fills long before it drains
        try (NormSession tx = NormSession.open(node(group, 50, 0).txRate(32_000).build(), null, 3)) {
            NormStream stream = tx.openStream(64 * 1024);
            int taken = stream.write(Unpooled.wrappedBuffer(new byte[1 << 20]), Duration.ofMillis(500));
            assertThat(taken).as("bytes taken before the buffer filled").isPositive().isLessThan(1 << 20);
        }
    }

    @Test
    void forgedNacksForTheStreamCostLittleAndTheStreamGoesOn() throws Exception {
        NormConfig group = TestGroups.fresh();
        StreamCollector rx = new StreamCollector();
        try (NormSession receiver = NormSession.open(node(group, 71, 0).build(), rx, 5);
             NormSession tx = NormSession.open(node(group, 70, 2).build(), null, 6);
             ForgedPackets attacker = new ForgedPackets(group)) {
            NormStream stream = tx.openStream(256 * 1024);
            byte[] first = new byte[50_000];
            new SplittableRandom(7).nextBytes(first);
            stream.write(first);
            stream.flush();
            assertThat(rx.awaitBytes(first.length, 10, TimeUnit.SECONDS)).isTrue();
            int id = stream.streamId();
            long squelches = tx.counters().get(Counter.SQUELCHES_SENT);
            long repairs = tx.counters().get(Counter.REPAIRS_SENT);
            // every block number there is, every symbol id, parity counts for blocks never written, other ids
            attacker.send(ForgedPackets.nack(0x66, 70, tx.instanceId(), 5, 8, w -> {
                w.open(NormWire.FORM_RANGES, NormWire.REPAIR_BLOCK);
                w.range(id, 0, 0, id, 0xFFFFFF, 0, 16);
                w.open(NormWire.FORM_RANGES, NormWire.REPAIR_SEGMENT);
                w.range(id, 1, 0, id, 1, 255, 16);
                w.open(NormWire.FORM_ITEMS, NormWire.REPAIR_SEGMENT);
                w.item(id, 5000, 16, 16);
                w.item(id, 5000, 17, 16);
                w.open(NormWire.FORM_RANGES, NormWire.REPAIR_OBJECT);
                w.range(id - 3, 0, 0, id + 3, 0, 0, 16);
            }));
            assertThat(org.fjm2.testkit.Await.until(() -> tx.counters().get(Counter.SQUELCHES_SENT) > squelches,
                    Duration.ofSeconds(10))).as("a SQUELCH for blocks never held: %s", tx.counters()).isTrue();
            assertThat(tx.counters().get(Counter.REPAIRS_SENT) - repairs).as("repairs: the blocks held, once")
                    .isLessThanOrEqualTo(3L * 16 + 2 * 2);
            byte[] second = new byte[30_000];
            new SplittableRandom(8).nextBytes(second);
            stream.write(second);
            stream.close();
            assertThat(rx.awaitClosed(10, TimeUnit.SECONDS)).as("%s", rx).isTrue();
            assertThat(rx.closeReason()).isNull();
            assertThat(rx.gaps()).isEmpty();
            byte[] all = new byte[first.length + second.length];
            System.arraycopy(first, 0, all, 0, first.length);
            System.arraycopy(second, 0, all, first.length, second.length);
            assertThat(rx.bytes()).isEqualTo(all);
            assertThat(tx.counters().get(Counter.INTERNAL_ERRORS)).isZero();
        }
    }

    @Test
    void objectsAndAStreamDoNotMix() throws Exception {
        NormConfig group = TestGroups.fresh();
        try (NormSession tx = NormSession.open(node(group, 60, 0).build(), null, 4)) {
            NormStream stream = tx.openStream(128 * 1024);
            assertThatThrownBy(() -> tx.enqueue(Unpooled.wrappedBuffer(new byte[10]), null, 4, 1, TimeUnit.SECONDS))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> tx.openStream(128 * 1024)).isInstanceOf(IllegalStateException.class);
            stream.write(new byte[100]);
            stream.close();
            long ticket = tx.enqueue(Unpooled.wrappedBuffer(new byte[10]), null, 4, 1, TimeUnit.SECONDS);
            assertThat(ticket).as("objects again once the stream finished").isNotNegative();
            assertThatThrownBy(() -> tx.openStream(128 * 1024)).as("an object is cached")
                    .isInstanceOf(IllegalStateException.class);
        }
    }
}
