package org.fjm2.norm.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.norm.interop.InteropWorkload.RUN_TIMEOUT;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.transport.BottleneckTransport;
import org.fjm2.norm.transport.LossInjector;
import org.junit.jupiter.api.Test;

/**
 * NORM-CC against NRL NORM, both ways (issue 18), 64 KB objects:
 * <ul>
 *   <li>an NRL sender with congestion control on (NormSetCongestionControl), starting at 1 Mbit/s with a 100 Mbit/s
 *   ceiling, to an fjm2 receiver behind an emulated 20 Mbit/s bottleneck ({@link BottleneckTransport}: 50 ms queue,
 *   10 ms one way, 0.1% seeded loss): the fjm2 receiver's CC feedback must let the NRL sender climb well above its
 *   start and hold it near the bottleneck, not the ceiling; every object intact;</li>
 *   <li>an fjm2 sender with {@code rateControl=cc} (start 1 Mbit/s, ceiling 40 Mbit/s) to an NRL receiver: the NRL
 *   receiver's feedback must carry the fjm2 sender out of slow start to most of the ceiling; every object intact
 *   and acknowledged.</li>
 * </ul>
 */
class NrlCongestionControlInteropTest {

    static final int OBJECTS = 150;
    static final int SIZE = 64 * 1024;
    static final long BOTTLENECK = 20_000_000L;
    static final int FJM2_NODE = 21;
    static final int NRL_NODE = 2;

    @Test
    void nrlSenderWithCcFollowsAnFjm2ReceiversFeedback() throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 18_101;
        System.out.println("NrlCongestionControlInteropTest seed " + seed);
        NormConfig group = InteropWorkload.freshGroup();
        ObjectCollector received = new ObjectCollector(true);
        BottleneckTransport.Probe bottleneck = new BottleneckTransport.Probe();
        NormConfig config = InteropWorkload.fjm2Node(group, FJM2_NODE, 0).grttMax(Duration.ofSeconds(1)).build();
        try (NormSession rx = NormSession.open(config, received, seed, BottleneckTransport.of(BOTTLENECK,
                50_000_000L, 10_000_000L, LossInjector.random(0.001, seed), bottleneck));
             NrlPeer tx = NrlPeer.sender(group.group().getHostAddress(), group.port()).option("--id", 10)
                     .option("--count", OBJECTS).option("--min", SIZE).option("--max", SIZE)
                     .option("--seed", seed).flag("--cc").option("--rate", 1_000_000)
                     .option("--rate-max", 100_000_000).option("--segment", InteropWorkload.SEGMENT)
                     .option("--grtt", InteropWorkload.GRTT_SECONDS).option("--grtt-max", 1)
                     .option("--linger", RUN_TIMEOUT.toSeconds()).option("--timeout", RUN_TIMEOUT.toSeconds())
                     .start()) {
            boolean complete = received.await(OBJECTS, RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            double[] rates = rates(tx.history("RATE"));
            System.out.printf("NRL(cc) -> fjm2 behind %d Mbit/s: NRL's rates (Mbit/s) %s; receiver %s%n",
                    BOTTLENECK / 1_000_000, Arrays.toString(mbit(rates)), rx.counters());
            assertThat(complete).as("fjm2 receiver (seed %d): %d of %d objects; %s%s", seed, received.count(),
                    OBJECTS, rx.counters(), tx.describe()).isTrue();
            assertThat(received.lost()).isEmpty();
            List<byte[]> payloads = received.payloads();
            for (int i = 0; i < OBJECTS; i++) {
                assertThat(payloads.get(i)).as("object %d", i).isEqualTo(NrlPeer.objectContent(seed, i, SIZE));
            }
            assertThat(rx.counters().get(Counter.CC_FEEDBACK_SENT)).as("CC feedback of the fjm2 receiver")
                    .isPositive();
            assertThat(rates).as("NRL sender's rate changes").isNotEmpty();
            assertThat(Arrays.stream(rates).max().orElse(0)).as("NRL's highest rate, bit/s: out of slow start's "
                    + "1 Mbit/s thanks to our feedback").isGreaterThan(0.4 * BOTTLENECK);
            assertThat(median(Arrays.copyOfRange(rates, rates.length / 2, rates.length)))
                    .as("NRL's median rate over the second half, bit/s: near the bottleneck, not the ceiling")
                    .isLessThan(2.0 * BOTTLENECK);
        }
    }

    @Test
    void fjm2CcSenderFollowsAnNrlReceiversFeedback() throws Exception {
        NrlPeer.assumeAvailable();
        long seed = 18_102;
        System.out.println("NrlCongestionControlInteropTest seed " + seed);
        NormConfig group = InteropWorkload.freshGroup();
        int[] sizes = new int[OBJECTS];
        Arrays.fill(sizes, SIZE);
        long ceiling = 40_000_000L;
        CompletableFuture<AckResult> acknowledged = new CompletableFuture<>();
        try (NrlPeer rx = NrlPeer.receiver(group.group().getHostAddress(), group.port()).option("--id", NRL_NODE)
                .option("--count", OBJECTS).option("--verify-seed", seed)
                .option("--linger", RUN_TIMEOUT.toSeconds()).option("--timeout", RUN_TIMEOUT.toSeconds()).start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            NormConfig config = InteropWorkload.fjm2Node(group, 31, 0).rateControl(NormConfig.RateControl.CC)
                    .txRate(ceiling).txCacheObjects(InteropWorkload.NRL_RECEIVER_WINDOW).build();
            try (NormSession tx = NormSession.open(config, InteropWorkload.acknowledgementListener(acknowledged),
                    seed)) {
                List<Long> rates = new ArrayList<>();
                Thread sampler = new Thread(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        synchronized (rates) {
                            rates.add(tx.txRateBitsPerSecond());
                        }
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                }, "rate-sampler");
                sampler.start();
                try {
                    InteropWorkload.enqueueAll(tx, seed, sizes);
                    tx.requestAcknowledgement(NRL_NODE);
                    AckResult result = acknowledged.get(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                    assertThat(result.acknowledged()).as("watermark acknowledgement; sender %s%s", tx.counters(),
                            rx.describe()).isEqualTo(Map.of(NRL_NODE, true));
                } finally {
                    sampler.interrupt();
                    sampler.join();
                }
                long highest;
                synchronized (rates) {
                    highest = rates.stream().mapToLong(Long::longValue).max().orElse(0);
                    System.out.printf("fjm2(cc) -> NRL: fjm2's rate every 100 ms (Mbit/s) %s; sender %s%n",
                            rates.stream().map(r -> String.format("%.1f", r / 1e6)).toList(), tx.counters());
                }
                assertThat(tx.counters().get(Counter.CC_FEEDBACK_RECEIVED)).as("CC feedback from the NRL receiver")
                        .isPositive();
                assertThat(highest).as("fjm2's highest rate, bit/s, from a 1 Mbit/s start")
                        .isGreaterThan(ceiling / 2);
                rx.awaitCount("RX_OBJECT", OBJECTS, Duration.ofSeconds(10));
            }
            InteropWorkload.assertAllReceived(rx, seed, sizes);
        }
    }

    private static double[] rates(List<NrlPeer.Event> events) {
        return events.stream().mapToDouble(e -> Double.parseDouble(e.get("bps"))).toArray();
    }

    private static double[] mbit(double[] rates) {
        return Arrays.stream(rates).map(r -> Math.round(r / 1e5) / 10.0).toArray();
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted.length == 0 ? 0 : sorted[sorted.length / 2];
    }
}
