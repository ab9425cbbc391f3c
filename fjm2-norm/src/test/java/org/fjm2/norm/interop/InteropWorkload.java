package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.TestGroups;
import org.fjm2.norm.TestObjects;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;

/**
 * The objects and settings every NRL interop test shares: the 500 objects of 1 KB..256 KB (sizes spread
 * log-uniformly, so small and large objects both occur often), contents and NORM_INFO names exactly as the NRL peer
 * makes and checks them ({@link NrlPeer#objectContent}, {@code obj-<index>.bin}), and session settings that keep a
 * run short on one loaded host.
 */
final class InteropWorkload {

    /** Objects per run, as the issue asks. */
    static final int OBJECTS = 500;
    static final int MIN_SIZE = 1024;
    static final int MAX_SIZE = 256 * 1024;
    /** Segment size of both implementations in these tests (the peer's default). */
    static final int SEGMENT = 1024;
    /** Source symbols per block with parity: RS(20, 16). */
    static final int BLOCK = 16;
    static final int PARITY = 4;
    /** Injected loss, percent, at the NRL sender (tx) or at each receiver (rx). */
    static final int LOSS_PERCENT = 10;
    /** Transmit rate of either sender, bit/s: high enough for a short run, low enough for two loaded cores. */
    static final long RATE = 200_000_000L;
    /** GRTT hint of either sender: LAN-sized, so NACK back-off and hold-off stay short. */
    static final double GRTT_SECONDS = 0.01;
    /**
     * Cap on either sender's GRTT. A sender takes a larger RTT sample at once, and on a loaded host one answer can be
     * late by half a second (a JVM warming up, NACKs queued behind the sender's own multicast echo). NRL then lowers
     * its estimate by only 10% per probe interval, fjm2 by at most 4x per interval; until then every repair cycle
     * is that slow (docs/nrl-interop.md, "GRTT"). The cap keeps a run's time independent of such hiccups.
     */
    static final double GRTT_MAX_SECONDS = 0.05;
    /**
     * Objects an fjm2 sender keeps in its cache when NRL receivers listen: an NRL receiver tracks at most 256 objects
     * from its first incomplete one and abandons all of them when an object id beyond arrives (docs/nrl-interop.md).
     */
    static final int NRL_RECEIVER_WINDOW = 256;
    /** Upper bound for one run; a run takes a few seconds. */
    static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

    private InteropWorkload() {
    }

    /** Object sizes of a run, from {@code seed}. */
    static int[] sizes(long seed) {
        return TestObjects.logUniformSizes(OBJECTS, MIN_SIZE, MAX_SIZE, seed);
    }

    /** The sizes as the peer's {@code --sizes} argument. */
    static String sizesArgument(int[] sizes) {
        StringJoiner list = new StringJoiner(",");
        for (int size : sizes) {
            list.add(Integer.toString(size));
        }
        return list.toString();
    }

    /** The NORM_INFO of object {@code index} (what the peer sends with {@code --info} and parses on receipt). */
    static String infoName(int index) {
        return "obj-" + index + ".bin";
    }

    static long crc32(byte[] data) {
        CRC32 crc = new CRC32();
        crc.update(data);
        return crc.getValue();
    }

    /**
     * Until a receiver is heard, a sender keeps each object for the hold time after it last went out: long enough
     * here for a loaded machine, where an NRL receiver's first NACK can come most of a second after the stream
     * began (with the default 500 ms the first objects were gone before it asked, so it could never complete them).
     */
    static final Duration HOLD_UNTIL_HEARD = Duration.ofSeconds(3);

    /** Session settings of an fjm2 node in these tests. */
    static NormConfig.Builder fjm2Node(NormConfig group, int nodeId, int parity) {
        return group.toBuilder().nodeId(nodeId).segmentSize(SEGMENT).blockSize(BLOCK).parity(parity)
                .txRate(RATE).grttInitial(Duration.ofNanos((long) (GRTT_SECONDS * 1e9)))
                .grttMax(Duration.ofNanos((long) (GRTT_MAX_SECONDS * 1e9))).holdMin(HOLD_UNTIL_HEARD);
    }

    /** Enqueues the run's objects (peer contents, NORM_INFO names) on an fjm2 sender. */
    static void enqueueAll(NormSession sender, long seed, int[] sizes) throws InterruptedException {
        for (int i = 0; i < sizes.length; i++) {
            long ticket = sender.enqueue(Unpooled.wrappedBuffer(NrlPeer.objectContent(seed, i, sizes[i])),
                    Unpooled.copiedBuffer(infoName(i), StandardCharsets.US_ASCII), 4, RUN_TIMEOUT.toSeconds(),
                    TimeUnit.SECONDS);
            assertThat(ticket).as("object %d admitted before the timeout", i).isGreaterThanOrEqualTo(0);
        }
    }

    /** An fjm2 receiver got every object complete, in order, byte for byte, with its NORM_INFO name. */
    static void assertAllReceived(ObjectCollector collector, long seed, int[] sizes, String who) {
        assertThat(collector.lost()).as("%s: objects reported lost", who).isEmpty();
        List<ObjectCollector.Received> received = collector.received();
        List<byte[]> payloads = collector.payloads();
        assertThat(received).as("%s: objects delivered", who).hasSize(sizes.length);
        for (int i = 0; i < sizes.length; i++) {
            assertThat(received.get(i).info()).as("%s: NORM_INFO of object %d", who, i).isEqualTo(infoName(i));
            assertThat(payloads.get(i)).as("%s: content of object %d", who, i)
                    .isEqualTo(NrlPeer.objectContent(seed, i, sizes[i]));
        }
    }

    /**
     * An NRL receiver reported every object complete: one RX_OBJECT per index with the right size, NORM_INFO name,
     * CRC-32 and the peer's own content check passed, and nothing aborted.
     */
    static void assertAllReceived(NrlPeer receiver, long seed, int[] sizes) {
        assertThat(receiver.history("ABORTED")).as("objects the NRL receiver abandoned" + receiver.describe())
                .isEmpty();
        List<NrlPeer.Event> received = receiver.history("RX_OBJECT");
        assertThat(received).as("objects the NRL receiver completed" + receiver.describe()).hasSize(sizes.length);
        Set<Long> indexes = new HashSet<>();
        for (NrlPeer.Event object : received) {
            long index = object.getLong("index");
            assertThat(index).as(object.line()).isBetween(0L, sizes.length - 1L);
            int size = sizes[(int) index];
            assertThat(object.getLong("size")).as(object.line()).isEqualTo(size);
            assertThat(object.getText("info")).as(object.line()).isEqualTo(infoName((int) index));
            assertThat(object.get("verify")).as(object.line()).isEqualTo("ok");
            assertThat(object.get("crc32")).as(object.line())
                    .isEqualTo(String.format("%08x", crc32(NrlPeer.objectContent(seed, index, size))));
            indexes.add(index);
        }
        assertThat(indexes).as("distinct objects").hasSize(sizes.length);
    }

    /** A listener that completes {@code result} with the outcome of the sender's acknowledgement request. */
    static NormListener acknowledgementListener(CompletableFuture<AckResult> result) {
        return new NormListener() {
            @Override
            public void onAcknowledgementComplete(AckResult ack) {
                result.complete(ack);
            }
        };
    }

    /**
     * An NRL receiver for the run's objects: it checks their contents, loses {@link #LOSS_PERCENT} of what it
     * receives, and stays (acknowledging) until the test closes it.
     */
    static NrlPeer.Builder nrlReceiver(NormConfig group, int nodeId, long seed) {
        return NrlPeer.receiver(group.group().getHostAddress(), group.port()).option("--id", nodeId)
                .option("--count", OBJECTS).option("--verify-seed", seed).option("--rx-loss", LOSS_PERCENT)
                .option("--linger", RUN_TIMEOUT.toSeconds()).option("--timeout", RUN_TIMEOUT.toSeconds());
    }

    /** A fresh group for one run (its own address and port). */
    static NormConfig freshGroup() {
        return TestGroups.fresh();
    }
}
