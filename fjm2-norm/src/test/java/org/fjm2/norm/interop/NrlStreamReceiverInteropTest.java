package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import org.fjm2.norm.LossPredicates;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.NormStream;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * fjm2 stream sender -> NRL NORM stream receiver (issue 18): the fjm2 sender writes a stream of a few MB as messages
 * ({@link NormStream#write}, {@link NormStream#markEndOfMessage} between messages) and closes it; its transport drops
 * 10% of what it sends (seeded {@link LossInjector}: data, repairs, FLUSHes). The NRL peer reads it with
 * NormStreamRead from a message start (NormStreamSeekMsgStart) and checks every byte against the content its offset
 * must have; it must see every byte from the start to the end-of-stream mark, without a break, and the end. With
 * RS(20, 16) parity NRL's NACKs (parity counts) are answered with parity. A receiver that joins the running stream
 * reads it from a message start after the point it joined to the end.
 */
class NrlStreamReceiverInteropTest {

    static final int NRL_NODE = 3;
    static final long STREAM_BYTES = 4_000_000L;
    static final double LOSS = 0.10;
    /** The fjm2 sender's stream buffer. */
    static final long BUFFER = 2 << 20;
    /**
     * The fjm2 sender's rate. At 50 Mbit/s an NRL receiver once broke the stream 87 times in a full module run on the
     * loaded 2-core machine (never when the class ran alone): a receiver that falls behind with a hole at the head of
     * its buffer gives up blocks once half its block pool waits (NRL's block_pool_threshold).
     */
    static final long RATE = 20_000_000L;

    static NormConfig.Builder sender(NormConfig group, int parity) {
        return InteropWorkload.fjm2Node(group, 40, parity).txRate(RATE);
    }

    /** An NRL receiver that reads the stream until its end and checks it (the content's seed is all it needs). */
    static NrlPeer.Builder nrlReceiver(NormConfig group, long seed) {
        return NrlPeer.receiver(group.group().getHostAddress(), group.port()).option("--id", NRL_NODE)
                .option("--stream", 0).option("--verify-seed", seed).option("--progress", 0)
                .option("--linger", 0).option("--timeout", InteropWorkload.RUN_TIMEOUT.toSeconds());
    }

    /** Writes the content's messages, marking each message's end; returns when all was handed over. */
    static void write(NormStream stream, StreamContent content, long from, Runnable atFrom) throws Exception {
        List<Long> starts = content.messageStarts();
        boolean reported = false;
        for (int i = 0; i < starts.size(); i++) {
            long start = starts.get(i);
            long end = i + 1 < starts.size() ? starts.get(i + 1) : STREAM_BYTES;
            if (!reported && start >= from) {
                atFrom.run();
                reported = true;
            }
            stream.write(content.bytes(start, end));
            stream.markEndOfMessage();
        }
    }

    @Test
    void nrlGetsTheStreamsInfoAndAsksForItWhenItsFirstCopyIsLost() throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 2870;
        NormConfig group = InteropWorkload.freshGroup();
        StreamContent content = new StreamContent(seed, 1_000, 20_000, STREAM_BYTES);
        boolean[] dropped = new boolean[1];
        try (NrlPeer rx = nrlReceiver(group, seed).start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            try (NormSession tx = NormSession.open(sender(group, 0).build(), null, seed,
                    LossyTransport.around(null, LossInjector.matching(LossPredicates.firstInfo(dropped))))) {
                try (NormStream stream = tx.openStream(BUFFER, "quotes.csv".getBytes(StandardCharsets.UTF_8))) {
                    write(stream, content, 0, () -> { });
                }
                NrlPeer.Event info = rx.awaitEvent("STREAM_INFO", InteropWorkload.RUN_TIMEOUT);
                assertThat(dropped[0]).as("the first NORM_INFO was dropped").isTrue();
                assertThat(info.get("info")).as("%s; sender %s", info.line(), tx.counters()).isEqualTo("quotes.csv");
                NrlPeer.Event end = rx.awaitEvent("STREAM_END", InteropWorkload.RUN_TIMEOUT);
                assertThat(end.get("verify")).as("%s; sender %s", end.line(), tx.counters()).isEqualTo("ok");
            }
        }
    }

    @ParameterizedTest(name = "parity {0}")
    @ValueSource(ints = {0, InteropWorkload.PARITY})
    void nrlReadsTheWholeStreamDespiteLoss(int parity) throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 2800 + parity;
        NormConfig group = InteropWorkload.freshGroup();
        StreamContent content = new StreamContent(seed, 1_000, 20_000, STREAM_BYTES);
        try (NrlPeer rx = nrlReceiver(group, seed).start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            try (NormSession tx = NormSession.open(sender(group, parity).build(), null, seed,
                    LossyTransport.around(null, LossInjector.random(LOSS, seed)))) {
                try (NormStream stream = tx.openStream(BUFFER)) {
                    write(stream, content, 0, () -> { });
                }
                NrlPeer.Event end = rx.awaitEvent("STREAM_END", InteropWorkload.RUN_TIMEOUT);
                assertThat(end.get("verify")).as("NRL's check (seed %d); sender %s%s", seed, tx.counters(),
                        rx.describe()).isEqualTo("ok");
                assertThat(end.getLong("first")).isZero();
                assertThat(end.getLong("received")).as("%s (seed %d); sender %s", end.line(), seed, tx.counters())
                        .isEqualTo(STREAM_BYTES);
                assertThat(end.getLong("end")).isEqualTo(STREAM_BYTES);
                assertThat(end.getLong("breaks")).as("breaks (seed %d): %s", seed, end.line()).isZero();
                assertThat(end.get("crc32")).isEqualTo(String.format("%08x",
                        InteropWorkload.crc32(content.bytes(0, STREAM_BYTES))));
                assertThat(rx.history("STREAM_ABORTED")).isEmpty();
                assertThat(tx.counters().get(Counter.NACKS_RECEIVED)).as("NACKs from NRL: %s", tx.counters())
                        .isPositive();
                if (parity > 0) {
                    assertThat(tx.counters().get(Counter.PARITY_SENT)).as("repairs by parity: %s", tx.counters())
                            .isPositive();
                }
            }
        }
    }

    @Test
    void aLateNrlReceiverReadsFromAMessageStartToTheEnd() throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 2850;
        NormConfig group = InteropWorkload.freshGroup();
        StreamContent content = new StreamContent(seed, 1_000, 20_000, STREAM_BYTES);
        NrlPeer[] rx = new NrlPeer[1];
        try (NormSession tx = NormSession.open(sender(group, 0).build(), null, seed,
                LossyTransport.around(null, LossInjector.random(LOSS, seed)))) {
            try (NormStream stream = tx.openStream(BUFFER)) {
                // written bytes run a buffer's worth ahead of what went out: join once 2.5 MB were handed over
                write(stream, content, 2_500_000, () -> {
                    rx[0] = nrlReceiver(group, seed).start();
                    rx[0].awaitEvent("READY", Duration.ofSeconds(10));
                });
            }
            NrlPeer.Event end = rx[0].awaitEvent("STREAM_END", InteropWorkload.RUN_TIMEOUT);
            assertThat(end.get("verify")).as("NRL's check (seed %d); sender %s%s", seed, tx.counters(),
                    rx[0].describe()).isEqualTo("ok");
            long first = end.getLong("first");
            assertThat(first).as("joined mid-stream: %s", end.line()).isPositive();
            assertThat(content.messageStarts()).contains(first);
            assertThat(end.getLong("received")).isEqualTo(STREAM_BYTES - first);
            assertThat(end.getLong("end")).isEqualTo(STREAM_BYTES);
            assertThat(end.getLong("breaks")).as(end.line()).isZero();
        } finally {
            if (rx[0] != null) {
                rx[0].close();
            }
        }
    }
}
