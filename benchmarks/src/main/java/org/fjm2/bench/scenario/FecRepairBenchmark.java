package org.fjm2.bench.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench fec-repair} (issue 3): how much repair traffic Reed-Solomon parity saves. One sender and eight
 * receivers ({@code NormSession}s in one JVM) on loopback multicast; each receiver loses its own seeded 5% of the
 * NORM_DATA it receives, independently of the others. The same objects are sent twice per run: with no-code repair
 * (parity 0: every lost source segment that any receiver asks for is sent again) and with RS8 parity repair
 * (fec_id 5, B source + P parity per block: a receiver missing e segments of a block asks for e parity symbols, and
 * each parity symbol repairs a different loss at every receiver). Reported: repair packets the sender sent per 1,000
 * source packets, NACKs per 1,000 source packets, and the time until every receiver had every object; the ratio of
 * the two modes is measured in the same run. Datagrams the kernel dropped on full socket buffers during a run
 * ({@code /proc/net/snmp} Udp RcvbufErrors) are reported too: they add to the injected loss.
 */
@Command(name = "fec-repair", mixinStandardHelpOptions = true,
        description = {"Repair traffic with 8 receivers at independent 5%% loss: no-code repair vs RS8 parity repair.",
                "Prints a table, writes fec-repair.{csv,png} into --out."})
public final class FecRepairBenchmark implements Callable<Integer> {

    /** Segment (payload) size of the runs. */
    static final int SEGMENT = 1400;
    /** How long one mode of one run may take before the benchmark gives up. */
    static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);

    @Option(names = "--receivers", defaultValue = "8", description = "Receivers. Default: ${DEFAULT-VALUE}.")
    int receivers;

    @Option(names = "--loss", converter = QuantityConverters.Loss.class, defaultValue = "5%",
            description = "Loss of NORM_DATA per receiver (5%% or 0.05). Default: ${DEFAULT-VALUE}.")
    double loss;

    @Option(names = "--objects", defaultValue = "100", description = "Objects per run. Default: ${DEFAULT-VALUE}.")
    int objects;

    @Option(names = "--size", converter = QuantityConverters.Bytes.class, defaultValue = "1048576", description = "Object size, bytes. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--block", defaultValue = "64", description = "Source segments per block (both modes). Default: ${DEFAULT-VALUE}.")
    int block;

    @Option(names = "--parity", defaultValue = "8", description = "Parity segments per block in RS8 mode. Default: ${DEFAULT-VALUE}.")
    int parity;

    @Option(names = "--rate", converter = QuantityConverters.BitRate.class, defaultValue = "100000000", description = "Sender rate, bit/s. Default: ${DEFAULT-VALUE}.")
    long rate;

    @Option(names = "--runs", defaultValue = "3", description = "Runs (each measures both modes). Default: ${DEFAULT-VALUE}.")
    int runs;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of contents and losses. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--quick", description = "One short run (under a minute).")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--group", defaultValue = "239.255.89.1", description = "Multicast group. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    /** The two repair modes compared. */
    enum Mode {
        NO_CODE("no-code repair"), RS8("RS8 parity repair");

        final String label;

        Mode(String label) {
            this.label = label;
        }
    }

    /** What one mode of one run measured. */
    record Result(Mode mode, int run, long sourcePackets, long repairPackets, long paritySent, long nacks,
                  long decodes, double seconds, long kernelDrops, long lost) {

        double repairsPer1000() {
            return 1000.0 * repairPackets / sourcePackets;
        }

        double nacksPer1000() {
            return 1000.0 * nacks / sourcePackets;
        }
    }

    @Override
    public Integer call() throws Exception {
        validate();
        int runCount = quick ? 1 : runs;
        int objectCount = quick ? Math.min(objects, 12) : objects;
        ProgressBar progress = new ProgressBar("fec-repair", 2L * runCount);
        List<Result> results = new ArrayList<>();
        int port = 31000 + (int) (ProcessHandle.current().pid() % 1000) * 10;
        for (int run = 1; run <= runCount; run++) {
            for (Mode mode : Mode.values()) {
                Result r = measure(mode, run, objectCount, port++);
                results.add(r);
                progress.step(String.format("run %d %s: %.0f repairs per 1000, %.2f s", run, mode.label,
                        r.repairsPer1000(), r.seconds));
            }
        }
        ResultTable table = new ResultTable(String.format("fjm2-norm repair traffic: 1 sender -> %d receivers, %.0f%% "
                        + "independent loss each, %d objects of %d bytes, B=%d, RS8 parity %d, %d Mbit/s", receivers,
                loss * 100, objectCount, size, block, parity, rate / 1_000_000),
                "mode", "run", "source_packets", "repair_packets", "repairs_per_1000_source", "parity_sent",
                "nacks_per_1000_source", "fec_decodes", "completion_s", "kernel_drops", "lost_objects");
        for (Result r : results) {
            table.row(r.mode.label, r.run, r.sourcePackets, r.repairPackets, r.repairsPer1000(), r.paritySent,
                    r.nacksPer1000(), r.decodes, r.seconds, r.kernelDrops, r.lost);
        }
        table.print(System.out);
        Summary noCode = Summary.of(results, Mode.NO_CODE);
        Summary rs8 = Summary.of(results, Mode.RS8);
        double repairRatio = noCode.repairsPer1000() / rs8.repairsPer1000();
        double timeRatio = noCode.seconds() / rs8.seconds();
        System.out.printf("%nmedians of %d runs: no-code repair %.1f repair packets per 1000 source packets, %.2f s; "
                        + "RS8 parity repair %.1f, %.2f s%n", runCount, noCode.repairsPer1000(), noCode.seconds(),
                rs8.repairsPer1000(), rs8.seconds());
        System.out.printf("ratio no-code / RS8 (same runs): %.2fx repair packets, %.2fx NACKs, %.2fx completion time%n",
                repairRatio, noCode.nacksPer1000() / rs8.nacksPer1000(), timeRatio);
        Path csv = out.resolve("fec-repair.csv");
        Path png = out.resolve("fec-repair.png");
        table.writeCsv(csv);
        Plot.bars(png, String.format("Repair traffic, %d receivers at %.0f%% independent loss (medians of %d runs)",
                        receivers, loss * 100, runCount), "", "per 1000 source packets",
                List.of("repair packets sent", "NACKs sent"), List.of(Mode.NO_CODE.label, Mode.RS8.label),
                List.of(new double[] {noCode.repairsPer1000(), noCode.nacksPer1000()},
                        new double[] {rs8.repairsPer1000(), rs8.nacksPer1000()}));
        System.out.println("wrote " + csv + " and " + png);
        long lost = results.stream().mapToLong(Result::lost).sum();
        if (lost > 0) {
            System.err.println("fjm2 bench fec-repair: " + lost + " objects were lost (see lost_objects)");
            return 1;
        }
        return 0;
    }

    private void validate() {
        if (receivers < 1 || objects < 1 || size < 1 || runs < 1) {
            throw new IllegalArgumentException("--receivers, --objects, --size and --runs must be positive");
        }
        if (loss >= 1) {
            throw new IllegalArgumentException("--loss: must be below 100%, got " + loss);
        }
        if (block < 1 || parity < 1 || block + parity > 255) {
            throw new IllegalArgumentException("--block/--parity: need block >= 1, parity >= 1, block + parity <= 255");
        }
    }

    /** Medians of one mode over the runs. */
    record Summary(double repairsPer1000, double nacksPer1000, double seconds) {

        static Summary of(List<Result> results, Mode mode) {
            List<Result> ofMode = results.stream().filter(r -> r.mode == mode).toList();
            return new Summary(median(ofMode.stream().mapToDouble(Result::repairsPer1000)),
                    median(ofMode.stream().mapToDouble(Result::nacksPer1000)),
                    median(ofMode.stream().mapToDouble(Result::seconds)));
        }

        private static double median(java.util.stream.DoubleStream values) {
            double[] sorted = values.sorted().toArray();
            int middle = sorted.length / 2;
            return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
        }
    }

    private Result measure(Mode mode, int run, int objectCount, int port) throws Exception {
        NormConfig base = NormConfig.builder(group, port).interfaceName(interfaceName).txRate(rate)
                .segmentSize(SEGMENT).blockSize(block).parity(mode == Mode.RS8 ? parity : 0)
                .maxObjectSize(Math.max(size, 1024)).grttInitial(Duration.ofMillis(2))
                .senderTimeout(RUN_TIMEOUT).build();
        CountDownLatch complete = new CountDownLatch(receivers);
        AtomicLong lost = new AtomicLong();
        List<NormSession> rx = new ArrayList<>();
        long drops0 = kernelReceiveDrops();
        try {
            for (int i = 0; i < receivers; i++) {
                long lossSeed = seed * 1_000_003L + run * 1009L + i;
                LossInjector injected = LossInjector.random(loss, lossSeed, FecRepairBenchmark::isData);
                rx.add(NormSession.open(base.toBuilder().nodeId(100 + i).build(),
                        new CompletionListener(objectCount, complete, lost), lossSeed,
                        LossyTransport.around(injected, null)));
            }
            // A send-side "loss" that drops nothing counts every NORM_DATA the sender puts on the wire.
            AtomicLong dataSent = new AtomicLong();
            LossInjector counter = LossInjector.matching(datagram -> {
                if (isData(datagram)) {
                    dataSent.incrementAndGet();
                }
                return false;
            });
            try (NormSession tx = NormSession.open(base.toBuilder().nodeId(99).build(), null,
                    seed + run, LossyTransport.around(null, counter))) {
                byte[] content = new byte[size];
                new SplittableRandom(seed + run).nextBytes(content);
                long start = System.nanoTime();
                for (int i = 0; i < objectCount; i++) {
                    ByteBuf data = Unpooled.wrappedBuffer(content);
                    if (tx.enqueue(data, null, 4, RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS) < 0) {
                        throw new IllegalStateException(mode.label + ": object " + i + " not admitted within "
                                + RUN_TIMEOUT);
                    }
                }
                if (!complete.await(RUN_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    throw new IllegalStateException(mode.label + " run " + run + ": receivers incomplete after "
                            + RUN_TIMEOUT + "; sender " + tx.counters());
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                NormCounters sent = tx.counters();
                long nacks = 0;
                long decodes = 0;
                for (NormSession r : rx) {
                    nacks += r.counters().get(Counter.NACKS_SENT);
                    decodes += r.counters().get(Counter.FEC_DECODES);
                }
                // Source packets: each segment once. Everything else the sender sent as NORM_DATA was repair
                // (retransmitted segments, parity), however the engine's counters classify it.
                long source = (long) objectCount * ((size + SEGMENT - 1) / SEGMENT);
                return new Result(mode, run, source, dataSent.get() - source, sent.get(Counter.PARITY_SENT), nacks,
                        decodes, seconds, kernelReceiveDrops() - drops0, lost.get());
            }
        } finally {
            rx.forEach(NormSession::close);
        }
    }

    /** Counts a receiver's objects and opens the latch once it has them all (a lost object counts, and is noted). */
    private static final class CompletionListener implements NormListener {
        private final CountDownLatch complete;
        private final AtomicLong lost;
        private int remaining;

        CompletionListener(int objects, CountDownLatch complete, AtomicLong lost) {
            this.remaining = objects;
            this.complete = complete;
            this.lost = lost;
        }

        @Override
        public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
            count();
        }

        @Override
        public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
            lost.incrementAndGet();
            count();
        }

        private void count() {
            if (--remaining == 0) {
                complete.countDown();
            }
        }
    }

    /** Injected loss applies to NORM_DATA only (source, retransmitted and parity segments alike). */
    private static boolean isData(ByteBuf datagram) {
        return (datagram.getUnsignedByte(datagram.readerIndex()) & 0x0F) == NormWire.TYPE_DATA;
    }

    /** UDP datagrams the kernel dropped because a socket buffer was full (this network namespace), or 0. */
    static long kernelReceiveDrops() {
        try {
            List<String> lines = Files.readAllLines(Path.of("/proc/net/snmp"));
            for (int i = 0; i + 1 < lines.size(); i++) {
                if (lines.get(i).startsWith("Udp:") && lines.get(i + 1).startsWith("Udp:")) {
                    List<String> names = Arrays.asList(lines.get(i).trim().split("\\s+"));
                    String[] values = lines.get(i + 1).trim().split("\\s+");
                    int column = names.indexOf("RcvbufErrors");
                    return column > 0 ? Long.parseLong(values[column]) : 0;
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0;
        }
        return 0;
    }
}
