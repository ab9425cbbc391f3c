package org.fjm2.bench.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import org.fjm2.bench.norm.NrlBenchBinary;
import org.fjm2.bench.norm.PeerLauncher;
import org.fjm2.bench.norm.PeerLauncher.Engine;
import org.fjm2.bench.norm.PeerProcess;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.bench.udp.RawUdp;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.bench.options.RmemMaxOption;
import org.fjm2.util.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code fjm2 bench norm}: fjm2-norm against NRL NORM (libnorm) on the same loopback multicast, in one run. For each
 * object size, four pairs of separate processes: NRL -> NRL (the baseline), fjm2 -> fjm2, fjm2 -> NRL and
 * NRL -> fjm2. Same segment size, block size and parity on both engines; both paced at {@code --rate}; each sender
 * enqueues one object size as fast as its engine accepts. Objects/s and MB/s are counted at the receiver over a
 * window after warm-up; the ratio is objects/s against the same size's NRL -> NRL pair (under the same receive
 * buffer cap, with {@code --rmem-max}, which runs everything once per cap). Beside them, under each cap, the
 * ceiling: raw UDP multicast of datagrams the size of a NORM_DATA packet, one Java thread writing as fast as it can
 * ({@link RawUdp}), as payload MB/s; every pair is also shown against it. It is what the kernel's loopback path
 * takes without any protocol on this machine: an engine at most of it leaves the other no room to be twice as
 * fast. With {@code --files N}, the file path instead ({@link NormFilesBenchmark}).
 */
@Command(name = "norm", mixinStandardHelpOptions = true,
        description = "fjm2-norm vs NRL NORM (libnorm peers): objects/s and MB/s at the receiver, same loopback, "
                + "separate processes.")
public final class NormVsNrlBenchmark implements Callable<Integer> {

    /** The pairs measured per size, sender engine first; the first is the baseline. */
    static final Engine[][] PAIRS = {
        {Engine.NRL, Engine.NRL}, {Engine.FJM2, Engine.FJM2}, {Engine.FJM2, Engine.NRL}, {Engine.NRL, Engine.FJM2}};
    /** Longest a peer may take to print READY (a JVM starting on a busy 2-core machine). */
    static final long READY_TIMEOUT_MS = 20_000;
    /** Seconds the peers keep running after the measured window ends (they are stopped right after it anyway). */
    static final double PEER_SLACK_SECONDS = 3;
    /** --quick: measured and warm-up seconds per pair (eight pairs stay under a minute). */
    static final double QUICK_MEASURE_SECONDS = 2;
    static final double QUICK_WARMUP_SECONDS = 2;
    /**
     * Bytes a NORM_DATA packet adds to its segment with the Reed-Solomon FEC both engines use here (fec_id 5): its
     * header with the FEC payload id, and EXT_FTI. The ceiling's datagrams are that much larger than a segment.
     */
    static final int DATA_PACKET_OVERHEAD = ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA,
            NormWire.FEC_RS8) + HeaderExtensions.FTI_RS8_LENGTH;
    /** Ceiling measurement: warm-up and measured seconds. */
    static final double CEILING_WARMUP_SECONDS = 0.3;
    static final double CEILING_SECONDS = 2;
    /** Sender node id; receivers use 2. */
    static final int SENDER_NODE = 1;
    static final int RECEIVER_NODE = 2;

    @Option(names = "--sizes", converter = QuantityConverters.Bytes.class, split = ",", defaultValue = "8192,1048576",
            description = "Object sizes in bytes. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--seconds", converter = QuantityConverters.Seconds.class, defaultValue = "6", description = "Measured seconds per pair. Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--warmup", converter = QuantityConverters.Seconds.class, defaultValue = "3", description = "Warm-up seconds before measuring (a fresh JVM "
            + "receiver loses much of a 2 Gbit/s stream until its code is compiled). Default: ${DEFAULT-VALUE}.")
    double warmup;

    @Option(names = "--runs", defaultValue = "1", description = "Runs of every pair, interleaved; the table shows "
            + "the median run (by objects/s). On a shared machine, 3 or more. Default: ${DEFAULT-VALUE}.")
    int runs;

    @Option(names = "--rate", converter = QuantityConverters.BitRate.class, defaultValue = "2000000000", description = "Both senders' rate, bit/s. Default: ${DEFAULT-VALUE}.")
    long rate;

    @Option(names = "--segment", converter = QuantityConverters.Bytes.class, defaultValue = "1400", description = "Segment (payload) bytes. Default: ${DEFAULT-VALUE}.")
    int segment;

    @Option(names = "--block", defaultValue = "64", description = "Source segments per FEC block. Default: ${DEFAULT-VALUE}.")
    int block;

    @Option(names = "--parity", defaultValue = "0", description = "Parity segments per block. Default: ${DEFAULT-VALUE}.")
    int parity;

    @Option(names = "--pairs", split = ",", defaultValue = "all",
            description = "Pairs to run: all, or any of nrl-nrl,fjm2-fjm2,fjm2-nrl,nrl-fjm2 (nrl-nrl always runs "
                    + "as the baseline). Default: ${DEFAULT-VALUE}.")
    String[] pairs;

    @Option(names = "--jvm-opts", split = " ", description = "Extra options for the fjm2 peer JVMs (e.g. "
            + "-XX:StartFlightRecording=duration=30s,filename=rx.jfr).")
    List<String> jvmOptions = new ArrayList<>();

    @Option(names = "--files", paramLabel = "N", defaultValue = "0",
            description = {"Measure the file path instead: N files of --file-size from fjm2 norm send to fjm2 norm"
                    + " recv (the CLI, own JVMs) and NRL's file path (NormFileEnqueue, cache directory), from the"
                    + " sender's start to the last file written, every file compared. 0: objects in memory."
                    + " Default: ${DEFAULT-VALUE}."})
    int files;

    @Option(names = "--file-size", converter = QuantityConverters.Bytes.class, defaultValue = "8192",
            description = "--files: bytes per file. Default: ${DEFAULT-VALUE}.")
    int fileSize;

    @Option(names = "--nrl-file-rates", converter = QuantityConverters.BitRate.class, split = ",",
            defaultValue = "200000000,300000000",
            description = {"--files: NRL senders' rates, bit/s, each measured (fjm2 senders use --rate); the"
                    + " baseline is NRL -> NRL at the fastest of them that delivered every file. NRL's file path,"
                    + " paced by nothing but its rate, gave up files at 300 Mbit/s and above here. Default:"
                    + " ${DEFAULT-VALUE}."})
    long[] nrlFileRates;

    @Option(names = "--nrl-ahead", paramLabel = "N", defaultValue = "256",
            description = {"--files: an NRL sender enqueues at most N objects beyond those it has sent (nrlbench"
                    + " --ahead; 0: as many as libnorm takes). libnorm accepts up to its cache count (4096) at once"
                    + " and purges the oldest objects to take more, so a sender far ahead keeps only a fraction of a"
                    + " second of what it sent for repair. Default: ${DEFAULT-VALUE}."})
    int nrlAhead;

    @Option(names = "--files-dir", paramLabel = "DIR", defaultValue = "/dev/shm",
            description = {"--files: where the files are written and received (a fresh directory inside, deleted"
                    + " after). The default, tmpfs, costs every pair the same: on ext4, creating files soon after"
                    + " many were deleted (the previous pair's) spends seconds scanning for free inodes."
                    + " Default: ${DEFAULT-VALUE} (the temporary directory where missing)."})
    Path filesDir;

    @Mixin
    RmemMaxOption rmemMax = new RmemMaxOption();

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Short runs (under a minute in all).")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--group", defaultValue = "239.255.89.1", description = "Multicast group. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    @Override
    public Integer call() throws Exception {
        validate();
        String reason = NrlBenchBinary.unavailableReason();
        if (reason != null) {
            System.err.println("fjm2 bench norm: " + reason);
            return 2;
        }
        if (files > 0) {
            if (!NormFilesBenchmark.cliOnClassPath()) {
                System.err.println("fjm2 bench norm --files: run it as bin/fjm2 bench (the fjm2 CLI is not on the"
                        + " class path)");
                return 2;
            }
            return new NormFilesBenchmark(this, NrlBenchBinary.ensureBuilt()).run(selectedPairs());
        }
        double measure = quick ? Math.min(seconds, QUICK_MEASURE_SECONDS) : seconds;
        double warm = quick ? Math.min(warmup, QUICK_WARMUP_SECONDS) : warmup;
        List<Engine[]> selected = selectedPairs();
        PeerLauncher launcher = new PeerLauncher(NrlBenchBinary.ensureBuilt(), jvmOptions);
        rmemMax.validate(spec.commandLine());
        ProgressBar progress = new ProgressBar("norm",
                (long) sizes.length * selected.size() * runs * Math.max(1, rmemMax.caps().length));
        ResultTable table = new ResultTable("fjm2-norm vs NRL NORM, 1 sender -> 1 receiver, loopback multicast, "
                + "segment " + segment + " B, block " + block + ", parity " + parity + ", rate "
                + String.format("%.2g", (double) rate) + " bit/s",
                "object_bytes", "sender", "receiver", "objects_per_s", "MB_per_s", "aborted", "vs_nrl_nrl",
                "vs_udp_ceiling", "runs_objects_per_s", "rmem_max_B");
        int[] port = {31000 + (int) (ProcessHandle.current().pid() % 500) * 64};
        int capCount = Math.max(1, rmemMax.caps().length);
        List<double[]> mbps = new ArrayList<>();
        for (int p = 0; p < selected.size(); p++) {
            mbps.add(new double[sizes.length * capCount]);
        }
        List<String> categories = new ArrayList<>();
        rmemMax.forEachCap(System.out, cap -> {
            int datagram = segment + DATA_PACKET_OVERHEAD;
            RawUdp.Throughput udp = RawUdp.throughput(true, group, interfaceName, port[0]++, datagram,
                    CEILING_WARMUP_SECONDS, CEILING_SECONDS);
            double ceiling = udp.datagramsPerSecond() * segment / 1e6;
            table.row((long) datagram, "raw UDP", "raw UDP", udp.datagramsPerSecond(), ceiling, 0L, "-", 1.0,
                    "-", cap.orElse(0));
            for (int i = 0; i < sizes.length; i++) {
                List<List<PeerProcess.Rate>> perPair = new ArrayList<>();
                for (int p = 0; p < selected.size(); p++) {
                    perPair.add(new ArrayList<>());
                }
                for (int run = 0; run < runs; run++) {
                    for (int p = 0; p < selected.size(); p++) {
                        Engine[] pair = selected.get(p);
                        PeerProcess.Rate r = measurePair(launcher, pair[0], pair[1], sizes[i], port[0]++, warm,
                                measure);
                        perPair.get(p).add(r);
                        progress.step(pair[0].label + " -> " + pair[1].label + ", " + sizes[i] + " B, run "
                                + (run + 1) + ": " + String.format("%.0f objects/s", r.objectsPerSecond()));
                    }
                }
                double baseline = median(perPair.get(0)).objectsPerSecond();
                int column = categories.size();
                for (int p = 0; p < selected.size(); p++) {
                    Engine[] pair = selected.get(p);
                    PeerProcess.Rate r = median(perPair.get(p));
                    table.row((long) sizes[i], pair[0].label, pair[1].label, r.objectsPerSecond(),
                            r.megabytesPerSecond(), r.aborted(), baseline == 0 ? 0 : r.objectsPerSecond() / baseline,
                            ceiling == 0 ? 0 : r.megabytesPerSecond() / ceiling, runsText(perPair.get(p)),
                            cap.orElse(0));
                    mbps.get(p)[column] = r.megabytesPerSecond();
                }
                categories.add(sizeLabel(sizes[i]) + (rmemMax.isSet() && cap.isPresent()
                        ? ", rmem " + Quantities.formatBytes(cap.getAsLong()) : ""));
            }
        });
        table.print(System.out);
        table.writeCsv(out.resolve("norm.csv"));
        List<String> names = new ArrayList<>();
        for (Engine[] pair : selected) {
            names.add(pair[0].label + " -> " + pair[1].label);
        }
        Plot.bars(out.resolve("norm.png"), "fjm2-norm vs NRL NORM, receiver MB/s (loopback)", "object size", "MB/s",
                categories, names, mbps);
        System.out.println("wrote " + out.resolve("norm.csv") + " and " + out.resolve("norm.png"));
        return 0;
    }

    private PeerProcess.Rate measurePair(PeerLauncher launcher, Engine senderEngine, Engine receiverEngine, int size,
                                         int port, double warmupSeconds, double measureSeconds) throws Exception {
        double lifetime = warmupSeconds + measureSeconds + PEER_SLACK_SECONDS;
        List<String> common = List.of("--addr", group, "--port", Integer.toString(port), "--iface", interfaceName,
                "--report", "0.1");
        List<String> rxOptions = new ArrayList<>(common);
        rxOptions.addAll(List.of("--id", Integer.toString(RECEIVER_NODE),
                "--seconds", Double.toString(lifetime + READY_TIMEOUT_MS / 1000.0)));
        List<String> txOptions = new ArrayList<>(common);
        txOptions.addAll(List.of("--id", Integer.toString(SENDER_NODE), "--seconds", Double.toString(lifetime),
                "--size", Integer.toString(size), "--rate", Long.toString(rate),
                "--segment", Integer.toString(segment), "--block", Integer.toString(block),
                "--parity", Integer.toString(parity)));
        try (PeerProcess receiver = launcher.start(receiverEngine, "recv", rxOptions)) {
            receiver.awaitReady(READY_TIMEOUT_MS);
            try (PeerProcess sender = launcher.start(senderEngine, "send", txOptions)) {
                sender.awaitReady(READY_TIMEOUT_MS);
                Thread.sleep((long) (warmupSeconds * 1000));
                double from = System.nanoTime() / 1e9;
                Thread.sleep((long) (measureSeconds * 1000));
                double to = System.nanoTime() / 1e9;
                Thread.sleep(150); // the sample just after the window end has arrived
                return receiver.rate(from, to);
            }
        }
    }

    private static String sizeLabel(int s) {
        return s >= 1 << 20 ? (s >> 20) + " MB" : s >= 1024 ? (s >> 10) + " KB" : s + " B";
    }

    /** The run with the median objects/s (the lower middle one for an even count). */
    static PeerProcess.Rate median(List<PeerProcess.Rate> rates) {
        return Runs.median(rates, PeerProcess.Rate::objectsPerSecond);
    }

    /** Every run's objects/s, e.g. "2780/6888/12490". */
    private static String runsText(List<PeerProcess.Rate> rates) {
        return Runs.text(rates, PeerProcess.Rate::objectsPerSecond);
    }

    private List<Engine[]> selectedPairs() {
        List<String> wanted = Arrays.asList(pairs);
        List<Engine[]> selected = new ArrayList<>();
        for (Engine[] pair : PAIRS) {
            String name = pair[0].label.toLowerCase() + "-" + pair[1].label.toLowerCase();
            if (selected.isEmpty() || wanted.contains("all") || wanted.contains(name)) {
                selected.add(pair);
            }
        }
        return selected;
    }

    private void validate() {
        if (sizes.length == 0 || Arrays.stream(sizes).anyMatch(s -> s < 1 || s > 64 << 20)) {
            throw new IllegalArgumentException("--sizes must be 1 .. 67108864 bytes");
        }
        if (seconds <= 0 || warmup < 0) {
            throw new IllegalArgumentException("--seconds must be positive and --warmup not negative");
        }
        if (runs < 1 || runs > 20) {
            throw new IllegalArgumentException("--runs must be 1..20");
        }
        if (rate <= 0) {
            throw new IllegalArgumentException("--rate must be positive");
        }
        if (segment < 64 || segment > 8192 || block < 1 || block > 255 || parity < 0 || block + parity > 255) {
            throw new IllegalArgumentException("need --segment 64..8192, --block 1..255, --parity >= 0, "
                    + "block + parity <= 255");
        }
        if (files < 0 || files > 1_000_000 || fileSize < 1 || fileSize > 64 << 20
                || nrlAhead < 0 || nrlFileRates.length == 0 || Arrays.stream(nrlFileRates).anyMatch(r -> r <= 0)) {
            throw new IllegalArgumentException("need --files 0..1000000, --file-size 1..67108864, --nrl-file-rates"
                    + " > 0");
        }
        for (String p : pairs) {
            if (!List.of("all", "nrl-nrl", "fjm2-fjm2", "fjm2-nrl", "nrl-fjm2").contains(p)) {
                throw new IllegalArgumentException("unknown pair " + p);
            }
        }
    }
}
