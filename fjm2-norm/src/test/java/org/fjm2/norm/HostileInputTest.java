package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.receiver.RemoteSenderTable;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * A node on the LAN without any key sends crafted datagrams (issue 14's findings): memory, tables and event-loop
 * time of the receiving and sending sessions stay bounded by what actually arrives, and real traffic still gets
 * through afterwards.
 */
class HostileInputTest {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Bytes allocated and CPU nanoseconds used so far by a session's event-loop thread. */
    private record LoopUsage(long allocated, long cpuNanos) {
        static LoopUsage of(NormSession session) {
            return session.call(() -> new LoopUsage(
                    THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()),
                    THREADS.getCurrentThreadCpuTime()));
        }

        LoopUsage since(LoopUsage before) {
            return new LoopUsage(allocated - before.allocated, cpuNanos - before.cpuNanos);
        }
    }

    /** Datagrams sent at most before the receiver has taken them in: the socket holds them whatever the host's load. */
    private static final int BURST = 500;

    /**
     * Sends the forged datagram of each source id in {@code [from, to)}, {@link #BURST} at a time, each burst taken in
     * by the receiver before the next (4,000 at once overflowed its socket when the host was busy: a test then failed
     * on the count, not on what it checks).
     */
    private static void sendInBursts(ForgedPackets attacker, NormSession rx, int from, int to,
                                     java.util.function.IntFunction<io.netty.buffer.ByteBuf> packet) throws Exception {
        long received = rx.counters().get(NormCounters.Counter.PACKETS_RECEIVED);
        for (int source = from; source < to; source++) {
            attacker.send(packet.apply(source));
            if ((source + 1 - from) % BURST == 0 || source + 1 == to) {
                awaitReceived(rx, received, source + 1 - from);
            }
        }
    }

    /** Waits until the session has taken in {@code count} more datagrams than {@code before}. */
    private static void awaitReceived(NormSession session, long before, long count) throws InterruptedException {
        assertThat(Await.until(() -> session.counters().get(NormCounters.Counter.PACKETS_RECEIVED) >= before + count,
                Duration.ofSeconds(20))).as("datagrams received: %s", session.counters()).isTrue();
    }

    /**
     * The 52-byte NORM_DATA announcing 64 MiB with 65,024 symbols per block, from eight forged senders, each followed
     * by a SQUELCH: before the fix each cost ~194 MiB (masks for every announced symbol, a 64 MiB buffer); now each
     * costs the one chunk and the one block its single symbol needs.
     */
    @Test
    void hugeObjectAnnouncementsCostWhatArrivesNotWhatTheHeaderSays() throws Exception {
        NormConfig base = TestGroups.fresh();
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(71).build(), collector, 1);
             ForgedPackets attacker = new ForgedPackets(base)) {
            LoopUsage before = LoopUsage.of(rx);
            long received = rx.counters().get(NormCounters.Counter.PACKETS_RECEIVED);
            for (int source = 1000; source < 1008; source++) {
                attacker.send(ForgedPackets.hugeObjectAnnouncement(source, 3));
                attacker.send(ForgedPackets.squelch(source, 1, 2));
            }
            awaitReceived(rx, received, 16);
            LoopUsage used = LoopUsage.of(rx).since(before);
            long held = rx.receiveBufferBytesHeld();
            System.out.printf("8 huge-object announcements: event loop allocated %,d bytes, %,d bytes held%n",
                    used.allocated(), held);
            assertThat(used.allocated()).as("bytes allocated for 16 datagrams of < 100 bytes").isLessThan(8L << 20);
            assertThat(held).as("bytes held for 8 one-symbol objects").isLessThan(2L << 20);

            // Real traffic still flows.
            try (NormSession tx = NormSession.open(base.toBuilder().nodeId(70).build(), null, 2)) {
                for (int i = 0; i < 20; i++) {
                    tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(5, i, 30_000)), null, 4, 10,
                            TimeUnit.SECONDS);
                }
                assertThat(collector.awaitFrom(70, 20, 20, TimeUnit.SECONDS)).as("real objects: %s", rx.counters()).isTrue();
            }
        }
    }

    /**
     * The group socket is bound to the group address: a datagram sent by unicast to the group's port never reaches
     * the session (before, with the socket bound to 0.0.0.0, anyone could reach it without joining the group).
     */
    @Test
    void unicastToTheGroupPortDoesNotReachTheSession() throws Exception {
        NormConfig base = TestGroups.fresh();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(131).build(), null, 1);
             java.net.DatagramSocket unicast = new java.net.DatagramSocket()) {
            long before = rx.counters().get(NormCounters.Counter.PACKETS_RECEIVED);
            byte[] eot = io.netty.buffer.ByteBufUtil.getBytes(ForgedPackets.eot(7777));
            for (int i = 0; i < 100; i++) {
                unicast.send(new java.net.DatagramPacket(eot, eot.length,
                        new java.net.InetSocketAddress("127.0.0.1", base.port())));
            }
            try (ForgedPackets multicast = new ForgedPackets(base)) {
                multicast.send(ForgedPackets.eot(8888));     // a marker that does arrive, after the unicast ones
            }
            awaitReceived(rx, before, 1);
            assertThat(rx.remoteSenderIds()).as("only the multicast sender is known").containsExactly(8888);
        }
    }

    /** Forged senders that never complete an object cannot crowd out the objects of a real one. */
    @Test
    void theReceiveBudgetGivesUpStalledObjectsBeforeProgressingOnes() throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().maxObjectSize(1 << 20).receiveBufferBytes(4L << 20)
                .build();
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(81).build(), collector, 1);
             ForgedPackets attacker = new ForgedPackets(base)) {
            long received = rx.counters().get(NormCounters.Counter.PACKETS_RECEIVED);
            // 64 objects of 1 MiB, one 1,400-byte segment each: every one takes a 128 KiB chunk, 8 MiB asked of 4.
            for (int i = 0; i < 64; i++) {
                attacker.send(ForgedPackets.data(2000 + i % 8, 1, i / 8, NormWire.FEC_RS8, 8, 1 << 20, 1400, 64, 0,
                        0, 0, 1400));
            }
            awaitReceived(rx, received, 64);
            long held = rx.receiveBufferBytesHeld();
            assertThat(held).as("held within the budget").isLessThanOrEqualTo(4L << 20);
            try (NormSession tx = NormSession.open(base.toBuilder().nodeId(80).build(), null, 2)) {
                for (int i = 0; i < 40; i++) {
                    tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(6, i, 200_000)), null, 4, 10,
                            TimeUnit.SECONDS);
                }
                assertThat(collector.awaitFrom(80, 40, 30, TimeUnit.SECONDS)).as("real objects: %s", rx.counters()).isTrue();
                assertThat(collector.lostFrom(80)).as("objects of the real sender lost").isEmpty();
            }
            assertThat(rx.receiveBufferBytesHeld()).isLessThanOrEqualTo(4L << 20);
        }
    }

    /** 4,000 forged 16-byte EOTs from distinct source ids: the table stays capped, and empties once they time out. */
    @Test
    void forgedSendersAreCappedAndForgotten() throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().maxRemoteSenders(256)
                .senderTimeout(Duration.ofSeconds(1)).build();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(91).build(), null, 1);
             ForgedPackets attacker = new ForgedPackets(base)) {
            LoopUsage before = LoopUsage.of(rx);
            sendInBursts(attacker, rx, 10_000, 14_000, ForgedPackets::eot);
            LoopUsage used = LoopUsage.of(rx).since(before);
            System.out.printf("4,000 forged EOTs: %d senders kept, %,d bytes allocated, %d evicted%n",
                    rx.remoteSenderCount(), used.allocated(),
                    rx.counters().get(NormCounters.Counter.REMOTE_SENDERS_EVICTED));
            assertThat(rx.remoteSenderCount()).as("senders kept").isLessThanOrEqualTo(256);
            assertThat(rx.counters().get(NormCounters.Counter.REMOTE_SENDERS_EVICTED)).isGreaterThanOrEqualTo(3744);
            assertThat(used.allocated()).as("bytes allocated for 4,000 EOTs").isLessThan(64L << 20);
            assertThat(Await.until(() -> rx.remoteSenderCount() == 0, Duration.ofSeconds(10)))
                    .as("every forged sender forgotten after its timeout, %d left", rx.remoteSenderCount()).isTrue();
        }
    }

    /**
     * A real sender pauses while a keyless node forges 4,000 source ids, each completing one object of garbage (the CI
     * failure of HostileLanTest): the full table gives up forged senders, never the real one that has delivered
     * many objects. Before the fix, a forged id that completed one object ranked with the real sender, and the
     * least recently heard went: the paused real sender, whose in-flight objects were then lost.
     */
    @Test
    void forgedSendersThatCompleteAnObjectDoNotPushOutAnEstablishedSender() throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().maxRemoteSenders(64).build();
        ObjectCollector collector = new ObjectCollector();
        int realSender = 60;
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(61).build(), collector, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(realSender).build(), null, 2);
             ForgedPackets attacker = new ForgedPackets(base)) {
            int established = 2 * RemoteSenderTable.ESTABLISHED_OBJECTS;
            for (int i = 0; i < established; i++) {
                tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(7, i, 2_000)), null, 4, 10, TimeUnit.SECONDS);
            }
            assertThat(collector.awaitFrom(realSender, established, 20, TimeUnit.SECONDS)).isTrue();
            sendInBursts(attacker, rx, 20_000, 24_000,
                    source -> ForgedPackets.data(source, 1, 0, NormWire.FEC_RS8, 8, 900, 900, 1, 0, 0, 0, 900));
            assertThat(rx.remoteSenderCount()).as("senders kept").isLessThanOrEqualTo(64);
            assertThat(rx.remoteSenderIds()).as("the real sender is still known after 4,000 forged ones")
                    .contains(realSender);
            for (int i = established; i < established + 20; i++) {
                tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(7, i, 2_000)), null, 4, 10, TimeUnit.SECONDS);
            }
            assertThat(collector.awaitFrom(realSender, established + 20, 20, TimeUnit.SECONDS)).isTrue();
            assertThat(collector.lostFrom(realSender)).as("objects of the real sender lost").isEmpty();
        }
    }

    /**
     * Another "receiver's" REPAIR_BLOCK NACK naming 8,192 blocks of an object whose FTI announces 65,536 symbols per
     * block: before the fix each cost the event loop 260-300 ms (every possible symbol was marked).
     */
    @Test
    void overheardNacksCostWhatTheyNameNotWhatTheFtiAnnounces() throws Exception {
        NormConfig base = TestGroups.fresh();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(101).build(), null, 1);
             ForgedPackets attacker = new ForgedPackets(base)) {
            int sender = 3000;
            long received = rx.counters().get(NormCounters.Counter.PACKETS_RECEIVED);
            // An object of 8,192 blocks x 65,000 symbols of 16 bytes (fec_id 2, m = 16); a symbol of block 3 first,
            // so the receiver starts a NACK back-off (a GRTT of the maximum keeps it running).
            attacker.send(ForgedPackets.data(sender, 1, 0, NormWire.FEC_RS, 16, 8192L * 64 * 16, 16, 64, 65_000,
                    3, 0, 16));
            awaitReceived(rx, received, 1);
            LoopUsage before = LoopUsage.of(rx);
            int nacks = 20;
            for (int i = 0; i < nacks; i++) {
                attacker.send(ForgedPackets.nack(4000 + i, sender, 1, NormWire.FEC_RS, 16, w -> {
                    for (int r = 0; r < 40; r++) {
                        w.open(NormWire.FORM_RANGES, NormWire.REPAIR_BLOCK);
                        w.range(0, 0, 0, 0, 8191, 0, 64);
                        w.close();
                        w.open(NormWire.FORM_RANGES, NormWire.REPAIR_SEGMENT);
                        w.range(0, r, 0, 0, r, 65_535, 64);
                        w.close();
                    }
                }));
            }
            awaitReceived(rx, received, 1 + nacks);
            LoopUsage used = LoopUsage.of(rx).since(before);
            System.out.printf("%d forged NACKs: event loop %.1f ms CPU, %,d bytes allocated%n", nacks,
                    used.cpuNanos() / 1e6, used.allocated());
            assertThat(used.cpuNanos() / nacks).as("CPU per forged NACK").isLessThan(5_000_000L);
            assertThat(used.allocated()).isLessThan(4L << 20);
        }
    }

    /**
     * NACK storms at a real sender: ranges over every cached object, repeated across the datagram. The sender's work
     * per NACK is capped; its publisher and receivers carry on.
     */
    @Test
    void nackStormsCostTheSenderBoundedWork() throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().txRate(50_000_000L).build();
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(111).build(), collector, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(110).build(), null, 2);
             ForgedPackets attacker = new ForgedPackets(base)) {
            for (int i = 0; i < 300; i++) {
                tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(7, i, 60_000)), null, 4, 10,
                        TimeUnit.SECONDS);
            }
            assertThat(collector.await(300, 30, TimeUnit.SECONDS)).isTrue();
            int instance = collector.instanceOf(110);
            int firstId = collector.received().get(0).objectId();
            int lastId = collector.received().get(299).objectId();
            LoopUsage before = LoopUsage.of(tx);
            long received = tx.counters().get(NormCounters.Counter.PACKETS_RECEIVED);
            int nacks = 20;
            for (int i = 0; i < nacks; i++) {
                attacker.send(ForgedPackets.nack(5000 + i, 110, instance, NormWire.FEC_RS8, 8, w -> {
                    for (int r = 0; r < 80; r++) {
                        w.open(NormWire.FORM_RANGES, NormWire.REPAIR_OBJECT);
                        w.range(firstId, 0, 0, lastId, 0, 0, 64);
                        w.close();
                    }
                }));
            }
            awaitReceived(tx, received, nacks);
            LoopUsage used = LoopUsage.of(tx).since(before);
            System.out.printf("%d NACK storms at a sender of 300 objects: %.1f ms CPU%n", nacks,
                    used.cpuNanos() / 1e6);
            assertThat(used.cpuNanos() / nacks).as("sender CPU per NACK").isLessThan(20_000_000L);
            tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(7, 300, 60_000)), null, 4, 10,
                    TimeUnit.SECONDS);
            assertThat(collector.await(301, 30, TimeUnit.SECONDS)).as("the next object still arrives").isTrue();
        }
    }

    /**
     * A node that pretends to be a slow receiver (it NACKs now and then, acknowledges nothing) is no longer waited
     * for once it made no progress for three maximum hold times; before the fix it held the cache, and every publisher,
     * for as long as it kept NACKing.
     */
    @Test
    void aReceiverThatNeverAcknowledgesStopsHoldingTheSender() throws Exception {
        NormConfig base = TestGroups.fresh().toBuilder().maxHold(Duration.ofSeconds(1))
                .holdMin(Duration.ofMillis(200)).txCacheBytes(1L << 20).txCacheObjects(16).build();
        ObjectCollector collector = new ObjectCollector();
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(121).build(), collector, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(120).build(), null, 2);
             ForgedPackets attacker = new ForgedPackets(base)) {
            tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(8, 0, 10_000)), null, 4, 10,
                    TimeUnit.SECONDS);
            assertThat(collector.await(1, 10, TimeUnit.SECONDS)).isTrue();
            int instance = collector.instanceOf(120);
            int fake = 6000;
            Thread nacker = new Thread(() -> {
                try {
                    while (!Thread.currentThread().isInterrupted()) {
                        attacker.send(ForgedPackets.nack(fake, 120, instance, NormWire.FEC_RS8, 8, w -> {
                            w.open(NormWire.FORM_ITEMS, NormWire.REPAIR_SEGMENT);
                            w.item(0, 0, 0, 64);
                            w.close();
                        }));
                        Thread.sleep(300);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (java.io.IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "fake-receiver");
            nacker.start();
            try {
                assertThat(Await.until(() -> tx.call(() -> tx.trackedReceivers()) == 2, Duration.ofSeconds(5)))
                        .as("the fake receiver is tracked at first").isTrue();
                long start = System.nanoTime();
                for (int i = 1; i <= 200; i++) {
                    tx.enqueue(Unpooled.wrappedBuffer(TestObjects.content(8, i, 60_000)), null, 4, 30,
                            TimeUnit.SECONDS);
                }
                assertThat(collector.await(201, 30, TimeUnit.SECONDS)).isTrue();
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf("200 objects with a fake receiver NACKing: %.1f s%n", seconds);
                assertThat(tx.call(() -> tx.trackedReceivers())).as("fake receiver dropped").isEqualTo(1);
                assertThat(seconds).as("the publisher waited about three maximum holds, not one per cache fill")
                        .isLessThan(8.0);
            } finally {
                nacker.interrupt();
                nacker.join();
            }
        }
    }
}
