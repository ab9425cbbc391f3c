package org.fjm2.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.fuzz.StreamDatagrams;
import org.fjm2.norm.transport.InMemoryTransport;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The receive side of stream objects against hand-built datagrams ({@link StreamDatagrams}, cut the way NRL NORM's
 * stream writer cuts a stream) injected into a session over an in-memory transport: in-order delivery, message
 * starts, NACKs for what is missing, FEC repair, late join, gaps after a squelch or a sender running beyond the
 * window, hostile segments dropped and counted, memory within the stream buffer, the end of the stream.
 */
class StreamReceiveTest {

    static final int SENDER = 0x0A0000AA;
    static final int STREAM_ID = 77;
    static final int E = 256;
    static final int B = 8;

    private Receiver rx;

    @AfterEach
    void close() {
        if (rx != null) {
            rx.close();
        }
    }

    /** A session fed datagrams as if they came from the network, and what it sends (its NACKs). */
    static final class Receiver implements AutoCloseable {
        final StreamCollector collector = new StreamCollector();
        final NormSession session;
        final InMemoryTransport transport;
        final List<byte[]> sent = new ArrayList<>();

        Receiver(NormConfig config) throws IOException {
            AtomicReference<InMemoryTransport> created = new AtomicReference<>();
            session = NormSession.open(config, collector, 5740, InMemoryTransport.factory(this::sink, created::set));
            transport = created.get();
        }

        private void sink(ByteBuf datagram, InetSocketAddress to) {
            synchronized (sent) {
                sent.add(ByteBufUtil.getBytes(datagram));
            }
            datagram.release();
        }

        void inject(List<byte[]> datagrams) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            transport.eventLoop().execute(() -> {
                try {
                    for (byte[] bytes : datagrams) {
                        ByteBuf datagram = Unpooled.wrappedBuffer(bytes.clone());
                        transport.handler().onDatagram(datagram, new InetSocketAddress("127.0.0.2", 5740));
                        datagram.release();
                        transport.handler().onReadComplete();
                    }
                    done.complete(null);
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            });
            done.join();
        }

        void inject(byte[]... datagrams) {
            inject(List.of(datagrams));
        }

        /**
         * The (object, block, symbol) of SEGMENT requests in the NACKs sent so far; symbol -1 for BLOCK requests,
         * block and symbol -1 for an INFO request.
         */
        List<long[]> requestedSegments() {
            List<long[]> out = new ArrayList<>();
            FeedbackFlyweight nack = new FeedbackFlyweight();
            RepairRequestReader r = new RepairRequestReader();
            synchronized (sent) {
                for (byte[] d : sent) {
                    if ((d[0] & 0x0F) != NormWire.TYPE_NACK) {
                        continue;
                    }
                    nack.wrap(Unpooled.wrappedBuffer(d));
                    r.reset(nack.buffer(), nack.payloadIndex(), nack.payloadIndex() + nack.payloadLength(),
                            NormWire.FEC_RS8, 8);
                    while (r.nextRequest()) {
                        while (r.nextEntry()) {
                            if (r.hasFlag(NormWire.REPAIR_SEGMENT)) {
                                for (int s = r.symbolId(); s <= r.lastSymbolId(); s++) {
                                    out.add(new long[] {r.objectId(), r.blockNumber(), s});
                                }
                            } else if (r.hasFlag(NormWire.REPAIR_INFO) && !r.hasFlag(NormWire.REPAIR_BLOCK)) {
                                out.add(new long[] {r.objectId(), -1, -1});
                            } else if (r.hasFlag(NormWire.REPAIR_BLOCK)) {
                                for (long b = r.blockNumber(); b <= r.lastBlockNumber(); b++) {
                                    out.add(new long[] {r.objectId(), b, -1});
                                }
                            }
                        }
                    }
                }
            }
            return out;
        }

        long counter(Counter c) {
            return session.counters().get(c);
        }

        @Override
        public void close() {
            session.close();
        }
    }

    static NormConfig config() {
        return NormConfig.builder(InMemoryTransport.GROUP.getHostString(), InMemoryTransport.GROUP.getPort())
                .nodeId(0x0F0F0F02).build();
    }

    /** Random stream bytes from a seed. */
    static byte[] bytes(long seed, int length) {
        byte[] out = new byte[length];
        new SplittableRandom(seed).nextBytes(out);
        return out;
    }

    static StreamDatagrams stream(int parity) {
        return new StreamDatagrams(SENDER, 1, STREAM_ID, E, B, parity, 64L * E * B);
    }

    @Test
    void bytesArriveInOrderWithTheirMessageStartsAndTheEnd() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0);
        byte[] first = bytes(1, 1000);
        byte[] second = bytes(2, 3000);
        s.write(first, true).write(second, true).flush().write(bytes(3, 10), false).end();
        rx.inject(s.all());
        assertThat(rx.collector.awaitClosed(5, TimeUnit.SECONDS)).as("%s", rx.collector).isTrue();
        assertThat(rx.collector.violations()).isEmpty();
        assertThat(rx.collector.closeReason()).isNull();
        byte[] expected = new byte[4010];
        System.arraycopy(first, 0, expected, 0, 1000);
        System.arraycopy(second, 0, expected, 1000, 3000);
        System.arraycopy(bytes(3, 10), 0, expected, 4000, 10);
        assertThat(rx.collector.bytes()).isEqualTo(expected);
        assertThat(rx.collector.openedAt()).isZero();
        assertThat(rx.collector.closedAt()).isEqualTo(4010);
        // the first message start of each segment is marked: 0, 1000 (segment 3), 4000 (after the flush)
        assertThat(rx.collector.messageStarts()).containsExactly(0L, 1000L, 4000L);
        assertThat(rx.counter(Counter.STREAM_BYTES_RECEIVED)).isEqualTo(4010);
        assertThat(rx.session.receiveBufferBytesHeld()).as("nothing held after the end").isZero();
    }

    @Test
    void theStreamsInfoIsDeliveredOnceAndAskedForWhenTheDataSaysItHasOne() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0).announceInfo();
        s.write(bytes(1, 5 * E), true).flush();
        rx.inject(s.all());                         // its NORM_INFO was lost
        Await.untilTrue("an INFO request for the stream in the NACKs", () -> rx.requestedSegments().stream()
                .anyMatch(r -> r[0] == STREAM_ID && r[1] == -1), Duration.ofSeconds(5), rx.collector::toString);
        byte[] info = "prices.csv".getBytes(StandardCharsets.UTF_8);
        rx.inject(s.info(info, true), s.info(info, true));
        assertThat(rx.collector.infos()).as("once").containsExactly("prices.csv");
        assertThat(rx.counter(Counter.DUPLICATE_SEGMENTS)).isPositive();
        long malformed = rx.counter(Counter.MALFORMED_DROPPED);
        StreamDatagrams newer = new StreamDatagrams(SENDER, 1, STREAM_ID + 1, E, B, 0, 64L * E * B);
        rx.inject(newer.info(new byte[65_001], false));
        assertThat(rx.counter(Counter.MALFORMED_DROPPED)).as("an info longer than a segment can be")
                .isEqualTo(malformed + 1);
        assertThat(rx.collector.infos()).containsExactly("prices.csv");
        assertThat(rx.collector.bytes()).isEqualTo(bytes(1, 5 * E));
        rx.inject(newer.info("next".getBytes(StandardCharsets.UTF_8), false),
                s.info("again".getBytes(StandardCharsets.UTF_8), true));
        assertThat(rx.collector.infos()).as("the next stream's, ahead of its data; not the current one's again")
                .containsExactly("prices.csv", "next");
        newer.write(bytes(2, E), true).flush();
        rx.inject(newer.all());                     // the newer stream replaces the current one
        rx.inject(stream(0).info("older".getBytes(StandardCharsets.UTF_8), true));
        assertThat(rx.collector.infos()).as("not an older stream's").containsExactly("prices.csv", "next");
    }

    @Test
    void missingSegmentsAreAskedForAndFilledIn() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0);
        s.write(bytes(4, 6 * B * E), false).flush();
        List<byte[]> all = s.all();
        List<byte[]> firstPass = new ArrayList<>(all);
        int[] lost = {3, 9, 10, 20, 41};
        for (int i = lost.length - 1; i >= 0; i--) {
            firstPass.remove(lost[i]);
        }
        rx.inject(firstPass);
        rx.inject(s.flushCommand());
        assertThat(Await.until(() -> rx.requestedSegments().size() >= lost.length, Duration.ofSeconds(10)))
                .as("NACKs: %s", rx.session.counters()).isTrue();
        List<Long> asked = new ArrayList<>();
        for (long[] r : rx.requestedSegments()) {
            assertThat(r[0]).isEqualTo(STREAM_ID);
            asked.add(r[1] * B + r[2]);
        }
        assertThat(asked).contains(3L, 9L, 10L, 20L, 41L);
        assertThat(rx.collector.size()).as("delivered up to the first hole").isEqualTo(3 * E);
        for (int n : lost) {
            rx.inject(s.segment(n, true));
        }
        assertThat(rx.collector.awaitBytes(6L * B * E, 5, TimeUnit.SECONDS)).isTrue();
        assertThat(rx.collector.bytes()).isEqualTo(bytes(4, 6 * B * E));
        assertThat(rx.collector.gaps()).isEmpty();
    }

    @Test
    void parityRebuildsLostSegments() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(2);
        s.write(bytes(5, 2 * B * E - 100), true).flush();      // the last segment is short
        List<byte[]> traffic = new ArrayList<>();
        for (int n = 0; n < s.segments(); n++) {
            if (n != 1 && n != 6 && n != 12) {
                traffic.add(s.segment(n, false));
            }
        }
        traffic.add(s.parity(0, 0, true));
        traffic.add(s.parity(0, 1, true));
        traffic.add(s.parity(1, 1, true));
        rx.inject(traffic);
        assertThat(rx.collector.awaitBytes(2L * B * E - 100, 5, TimeUnit.SECONDS)).as("%s", rx.collector).isTrue();
        assertThat(rx.collector.bytes()).isEqualTo(bytes(5, 2 * B * E - 100));
        assertThat(rx.counter(Counter.FEC_DECODES)).isEqualTo(2);
    }

    @Test
    void aLateJoinerStartsWhereItFirstHearsTheStream() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0);
        byte[] all = bytes(6, 10 * B * E);
        s.write(all, false).flush();
        List<byte[]> traffic = s.all();
        int join = 3 * B + 5;
        rx.inject(s.segment(join + 1, true));       // a repair is never joined on
        rx.inject(traffic.subList(join, traffic.size()));
        rx.inject(s.flushCommand());
        assertThat(rx.collector.awaitBytes((long) (10 * B - join) * E, 5, TimeUnit.SECONDS)).isTrue();
        assertThat(rx.collector.openedAt()).isEqualTo((long) join * E);
        byte[] expected = new byte[(10 * B - join) * E];
        System.arraycopy(all, join * E, expected, 0, expected.length);
        assertThat(rx.collector.bytes()).isEqualTo(expected);
        Thread.sleep(200);
        assertThat(rx.requestedSegments()).as("nothing from before the join is asked for").isEmpty();
    }

    @Test
    void aReceiverThatLostTheFirstSegmentsOfTheStreamAsksForThem() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0);
        byte[] all = bytes(16, 2 * B * E);
        s.write(all, false).flush();
        List<byte[]> traffic = s.all();
        rx.inject(traffic.subList(3, traffic.size()));     // the first three datagrams were lost
        rx.inject(s.flushCommand());
        assertThat(Await.until(() -> rx.requestedSegments().size() >= 3, Duration.ofSeconds(10))).isTrue();
        assertThat(rx.collector.openedAt()).isZero();
        rx.inject(traffic.subList(0, 3));
        assertThat(rx.collector.awaitBytes(all.length, 5, TimeUnit.SECONDS)).isTrue();
        assertThat(rx.collector.bytes()).isEqualTo(all);
    }

    @Test
    void aSquelchedBlockBecomesAGapAndDeliveryGoesOn() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0);
        byte[] all = bytes(7, 4 * B * E);
        s.write(all, false).flush();
        List<byte[]> traffic = new ArrayList<>(s.all());
        traffic.remove(B + 2);          // block 1 symbol 2 never arrives
        rx.inject(traffic);
        assertThat(rx.collector.size()).isEqualTo((B + 2) * E);
        rx.inject(s.squelch(2));         // the sender can repair block 2 and later only
        assertThat(rx.collector.awaitBytes(4L * B * E - E, 5, TimeUnit.SECONDS)).as("%s", rx.collector).isTrue();
        assertThat(rx.collector.gaps()).containsExactly(new StreamCollector.Gap((long) (B + 2) * E, E));
        assertThat(rx.counter(Counter.STREAM_BYTES_LOST)).isEqualTo(E);
        byte[] got = rx.collector.bytes();
        assertThat(java.util.Arrays.copyOfRange(got, (B + 2) * E, got.length))
                .isEqualTo(java.util.Arrays.copyOfRange(all, (B + 3) * E, all.length));
    }

    @Test
    void aSenderFarAheadMovesTheWindowAndMemoryStaysWithinTheStreamBuffer() throws Exception {
        long buffer = 64 * 1024;
        rx = new Receiver(config().toBuilder().streamBufferBytes(buffer).build());
        StreamDatagrams s = stream(0);
        int blockBytes = B * E;
        s.write(bytes(8, 200 * blockBytes), false).flush();
        List<byte[]> traffic = new ArrayList<>(s.all());
        traffic.remove(1);              // the second segment is missing: nothing more is delivered for a while
        rx.inject(traffic.subList(0, 150 * B));
        long held = rx.session.receiveBufferBytesHeld();
        assertThat(held).as("held for one stream").isLessThanOrEqualTo(buffer);
        rx.inject(traffic.subList(150 * B, traffic.size()));
        assertThat(rx.collector.gaps()).containsExactly(new StreamCollector.Gap(E, E));
        assertThat(rx.collector.size()).isEqualTo(200 * blockBytes - E);
        assertThat(rx.collector.violations()).isEmpty();
    }

    @Test
    void hostileSegmentsAreCountedAndDroppedAndTheStreamGoesOn() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0);
        byte[] all = bytes(9, 3 * B * E);
        s.write(all, false).flush();
        List<byte[]> traffic = s.all();
        rx.inject(traffic.get(0));
        long malformed = rx.counter(Counter.MALFORMED_DROPPED);
        byte[] data = bytes(10, E);
        rx.inject(
                s.handMade(0, 1, E + 1, 0, E, bytes(11, E + 1), false),        // longer than the segment size
                s.handMade(0, 1, 100, 0, E, bytes(11, 50), false),              // longer than the datagram
                s.handMade(0, 1, 100, 101, E, bytes(11, 100), false),           // message start beyond the data
                s.handMade(0, 1, E, 0, 5L * E, data, false),                     // offset ahead of what fits
                s.handMade(0, 1, E, 0, 0xFFFF_0000L, data, false),              // offset behind
                s.handMade(0, 2, E, 0, 10L * E, data, false),                    // ahead by more than one segment
                s.data(0, 200, new byte[16], false),                             // symbol id beyond B + parity
                s.data(0, 3, new byte[4], false));                               // no room for the stream header
        assertThat(rx.counter(Counter.MALFORMED_DROPPED) - malformed).isEqualTo(8);
        rx.inject(traffic.subList(1, traffic.size()));
        assertThat(rx.collector.awaitBytes(3L * B * E, 5, TimeUnit.SECONDS)).as("%s", rx.collector).isTrue();
        assertThat(rx.collector.bytes()).isEqualTo(all);
        assertThat(rx.collector.gaps()).isEmpty();
    }

    @Test
    void aNewerStreamReplacesTheCurrentOneAndOlderOnesAreIgnored() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams first = stream(0);
        first.write(bytes(12, 3 * E), false).flush();
        StreamDatagrams second = new StreamDatagrams(SENDER, 1, STREAM_ID + 1, E, B, 0, 64L * E * B);
        second.write(bytes(13, 2 * E), false).flush();
        rx.inject(first.all());
        rx.inject(second.all());
        rx.inject(first.segment(2, true));
        assertThat(Await.until(() -> rx.collector.streamsOpened() == 2, Duration.ofSeconds(5))).isTrue();
        assertThat(rx.collector.closeReason()).isEqualTo(LossReason.UNSUPPORTED);
        assertThat(rx.collector.violations()).as("the collector follows the first stream only").containsExactly(
                "a second stream " + (STREAM_ID + 1) + " opened at 0", "data of stream " + (STREAM_ID + 1)
                        + " (following " + STREAM_ID + ")", "data of stream " + (STREAM_ID + 1) + " (following "
                        + STREAM_ID + ")");
    }

    @Test
    void closingTheSessionClosesTheStream() throws Exception {
        rx = new Receiver(config());
        StreamDatagrams s = stream(0);
        s.write(bytes(14, 5 * E), false).flush();
        rx.inject(s.all());
        rx.session.close();
        assertThat(rx.collector.awaitClosed(5, TimeUnit.SECONDS)).isTrue();
        assertThat(rx.collector.closeReason()).isEqualTo(LossReason.SESSION_CLOSED);
        assertThat(rx.collector.closedAt()).isEqualTo(5L * E);
    }

    @Test
    void aStreamWhoseBlocksDoNotFitTheStreamBufferIsRefused() throws Exception {
        rx = new Receiver(config().toBuilder().streamBufferBytes(64 * 1024).build());
        StreamDatagrams s = new StreamDatagrams(SENDER, 1, STREAM_ID, 8000, 8, 0, 1 << 20);
        s.write(bytes(15, 8000), false).flush();
        rx.inject(s.all());
        assertThat(rx.collector.awaitClosed(5, TimeUnit.SECONDS)).isTrue();
        assertThat(rx.collector.closeReason()).isEqualTo(LossReason.TOO_LARGE);
        assertThat(rx.collector.size()).isZero();
    }
}
