package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.fjm2.norm.LossPredicates;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.StreamCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * NRL NORM stream sender -> fjm2 receiver (issue 18): the NRL peer writes a stream of a few MB as messages
 * (NormStreamWrite, NormStreamMarkEom between messages), flushes and closes it gracefully; the fjm2 receiver loses
 * 10% of what arrives (seeded {@link LossInjector}) and must deliver every byte in order, byte for byte, report the
 * sender's message starts where messages start, and see the end of the stream. With RS(20, 16) parity it repairs
 * from NRL's parity. A receiver that joins a running stream starts at the sender's current position and gets
 * everything from there on.
 */
class NrlStreamSenderInteropTest {

    static final int RECEIVER = 21;
    static final long STREAM_BYTES = 4_000_000L;
    static final int MSG_MIN = 1_000;
    static final int MSG_MAX = 20_000;
    static final double LOSS = 0.10;
    /** NRL's stream buffer: what it can still repair. */
    static final int NRL_STREAM_BUFFER = 2 * 1024 * 1024;
    /**
     * NRL's sender rate. NRL repairs a stream block only while its transmit position is within its stream buffer of
     * it (it squelches older ones), so a receiver's NACKs must come within buffer / rate: 2 MiB at 20 Mbit/s is
     * 0.8 s. At 50 Mbit/s (0.3 s) a freshly started JVM on the loaded 2-core machine fell that far behind in reading
     * its socket and lost segments to squelches.
     */
    static final long RATE = 20_000_000L;

    @ParameterizedTest(name = "parity {0}")
    @ValueSource(ints = {0, InteropWorkload.PARITY})
    void everyByteArrivesInOrderDespiteLoss(int parity) throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 1800 + parity;
        NormConfig group = InteropWorkload.freshGroup();
        StreamContent content = new StreamContent(seed, MSG_MIN, MSG_MAX, STREAM_BYTES);
        StreamCollector received = new StreamCollector();
        try (NormSession rx = NormSession.open(InteropWorkload.fjm2Node(group, RECEIVER, 0).build(), received, seed,
                LossyTransport.around(LossInjector.random(LOSS, seed), null))) {
            try (NrlPeer tx = sender(group, content, seed, parity).start()) {
                boolean closed = received.awaitClosed(InteropWorkload.RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(closed).as("stream end (seed %d): %s; receiver %s%s", seed, received, rx.counters(),
                        tx.describe()).isTrue();
                tx.awaitEvent("STREAM_CLOSED", Duration.ofSeconds(5));
            }
            assertWholeStream(received, content, 0, seed);
            assertThat(rx.counters().get(Counter.NACKS_SENT)).as("10%% loss needs NACKs: %s", rx.counters())
                    .isPositive();
            assertThat(rx.counters().get(Counter.STREAM_BYTES_RECEIVED)).isEqualTo(STREAM_BYTES);
            if (parity > 0) {
                assertThat(rx.counters().get(Counter.FEC_DECODES)).as("blocks rebuilt from NRL's parity: %s",
                        rx.counters()).isPositive();
            }
        }
    }

    @Test
    void theStreamsInfoArrivesOnceAndIsAskedForWhenLost() throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 1870;
        NormConfig group = InteropWorkload.freshGroup();
        StreamContent content = new StreamContent(seed, MSG_MIN, MSG_MAX, STREAM_BYTES);
        StreamCollector received = new StreamCollector();
        boolean[] firstInfoDropped = new boolean[1];
        // the first NORM_INFO is lost: the data's info flag must make the receiver ask for it
        LossInjector loseFirstInfo = LossInjector.matching(LossPredicates.firstInfo(firstInfoDropped));
        try (NormSession rx = NormSession.open(InteropWorkload.fjm2Node(group, RECEIVER, 0).build(), received, seed,
                LossyTransport.around(loseFirstInfo.or(LossInjector.random(LOSS, seed)), null))) {
            try (NrlPeer tx = sender(group, content, seed, 0).flag("--info").start()) {
                boolean closed = received.awaitClosed(InteropWorkload.RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(closed).as("stream end (seed %d): %s; receiver %s%s", seed, received, rx.counters(),
                        tx.describe()).isTrue();
            }
            assertThat(firstInfoDropped[0]).as("NRL sent a NORM_INFO for its stream").isTrue();
            assertThat(received.infos()).as("the stream's info, once, after its first copy was lost (seed %d): %s",
                    seed, rx.counters()).containsExactly("stream-" + seed);
            assertWholeStream(received, content, 0, seed);
        }
    }

    @Test
    void lateJoinerStartsAtTheCurrentPosition() throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 1850;
        NormConfig group = InteropWorkload.freshGroup();
        StreamContent content = new StreamContent(seed, MSG_MIN, MSG_MAX, STREAM_BYTES);
        StreamCollector received = new StreamCollector();
        try (NrlPeer tx = sender(group, content, seed, 0).option("--rate", 20_000_000L).start()) {
            // written counts what NRL's stream buffer took: a buffer's worth ahead of what went out
            awaitWritten(tx, NRL_STREAM_BUFFER + 1_000_000L);
            try (NormSession rx = NormSession.open(InteropWorkload.fjm2Node(group, RECEIVER, 0).build(), received,
                    seed, LossyTransport.around(LossInjector.random(LOSS, seed), null))) {
                boolean closed = received.awaitClosed(InteropWorkload.RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                assertThat(closed).as("stream end (seed %d): %s; receiver %s%s", seed, received, rx.counters(),
                        tx.describe()).isTrue();
                long first = received.openedAt();
                assertThat(first).as("joined mid-stream: %s", received).isPositive().isLessThan(STREAM_BYTES);
                assertWholeStream(received, content, first, seed);
            }
        }
    }

    private static NrlPeer.Builder sender(NormConfig group, StreamContent content, long seed, int parity) {
        NrlPeer.Builder peer = NrlPeer.sender(group.group().getHostAddress(), group.port()).option("--id", 11)
                .option("--seed", seed).option("--segment", InteropWorkload.SEGMENT)
                .option("--block", InteropWorkload.BLOCK).option("--parity", parity)
                .option("--stream-buffer", NRL_STREAM_BUFFER).option("--rate", RATE)
                .option("--grtt", InteropWorkload.GRTT_SECONDS)
                .option("--grtt-max", InteropWorkload.GRTT_MAX_SECONDS).option("--progress", 500_000)
                .option("--linger", InteropWorkload.RUN_TIMEOUT.toSeconds())
                .option("--timeout", InteropWorkload.RUN_TIMEOUT.toSeconds());
        return content.options(peer);
    }

    private static void awaitWritten(NrlPeer tx, long bytes) {
        while (true) {
            NrlPeer.Event progress = tx.awaitEvent("PROGRESS", InteropWorkload.RUN_TIMEOUT);
            if (progress.getLong("written") >= bytes) {
                return;
            }
        }
    }

    /** Every byte from {@code first} to the end arrived, in order, intact; message starts are real ones. */
    static void assertWholeStream(StreamCollector received, StreamContent content, long first, long seed) {
        assertThat(received.violations()).as("seed %d", seed).isEmpty();
        assertThat(received.gaps()).as("gaps (seed %d)", seed).isEmpty();
        assertThat(received.closeReason()).as("closed by its sender (seed %d): %s", seed, received).isNull();
        assertThat(received.closedAt()).isEqualTo(STREAM_BYTES);
        assertThat(received.openedAt()).isEqualTo(first);
        byte[] bytes = received.bytes();
        assertThat(bytes.length).as("bytes delivered (seed %d)", seed).isEqualTo(STREAM_BYTES - first);
        byte[] expected = content.bytes(first, STREAM_BYTES);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] != expected[i]) {
                throw new AssertionError("stream byte at offset " + (first + i) + " differs (seed " + seed + ")");
            }
        }
        Set<Long> starts = new HashSet<>(content.messageStarts());
        assertThat(received.messageStarts()).as("message starts marked (seed %d)", seed).isNotEmpty();
        assertThat(starts).as("message starts are real ones (seed %d)", seed)
                .containsAll(received.messageStarts());
    }
}
