package org.fjm2.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fjm2.bench.cc.TcpFlowMain;
import org.fjm2.bench.norm.NrlBenchBinary;
import org.fjm2.bench.norm.PeerLauncher;
import org.fjm2.bench.norm.PeerLauncher.Engine;
import org.fjm2.bench.norm.PeerProcess;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.testkit.linkem.LinkemCommand;
import org.fjm2.testkit.netns.Host;
import org.fjm2.testkit.netns.JavaProcess;
import org.fjm2.testkit.netns.NetNs;
import org.fjm2.testkit.netns.TestNetwork;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench cc}: NORM-CC through a bottleneck the senders are not told of (issue 18). Two network
 * namespaces on one LAN (h1, h2: each joined to the LAN's bridge by its veth pair); a tbf qdisc on h1's veth shapes
 * everything h1 sends to {@code --link} (20 Mbit/s). A congestion-controlled sender in h1 (NRL NORM's
 * NormSetCongestionControl, or fjm2's {@code rateControl=cc}), starting at 1 Mbit/s with a 1 Gbit/s ceiling, sends
 * 64 KB objects as fast as its congestion control lets it to one receiver in h2. The table gives the receiver's
 * goodput (object bytes completed per second, after a warm-up) as a share of the link and as a ratio to NRL(cc) ->
 * NRL measured in the same run, and the objects the receiver gave up (none may be). Needs root (network
 * namespaces) and libnorm-dev with g++ (the NRL peer); says so and exits 2 otherwise.
 */
@Command(name = "cc", mixinStandardHelpOptions = true,
        description = "NORM-CC through an unknown 20 Mbit/s bottleneck (tbf between two network namespaces): "
                + "NRL(cc)->NRL baseline, NRL(cc)->fjm2, fjm2(cc)->fjm2, fjm2(cc)->NRL as %% of the link.")
public final class CcBenchmark implements Callable<Integer> {

    static final Engine[][] PAIRS = {
        {Engine.NRL, Engine.NRL}, {Engine.NRL, Engine.FJM2}, {Engine.FJM2, Engine.FJM2}, {Engine.FJM2, Engine.NRL},
    };
    static final String GROUP = "239.255.18.1";
    static final int SENDER_NODE = 1;
    static final int RECEIVER_NODE = 2;
    /** Both senders start here (NORM-CC's slow start then finds the link). */
    static final long START_RATE = 1_000_000L;
    /** Both senders' ceiling: far above the link, so that only congestion control holds them to it. */
    static final long CEILING = 1_000_000_000L;
    static final long READY_TIMEOUT_MS = 20_000;
    static final double PEER_SLACK_SECONDS = 3;
    /** Pairs run beside a competing TCP flow: each engine to its own kind. */
    static final Engine[][] TCP_PAIRS = {{Engine.NRL, Engine.NRL}, {Engine.FJM2, Engine.FJM2}};
    static final int TCP_PORT = 5201;

    @Option(names = "--link", converter = QuantityConverters.BitRate.class, defaultValue = "20000000",
            description = "Bottleneck rate (tbf), bit/s. Default: ${DEFAULT-VALUE}.")
    long link;

    @Option(names = "--burst", defaultValue = "32kb", description = "tbf burst. Default: ${DEFAULT-VALUE}.")
    String burst;

    @Option(names = "--latency", defaultValue = "50ms",
            description = "tbf latency (the queue: this long at the link rate). Default: ${DEFAULT-VALUE}.")
    String latency;

    @Option(names = "--size", converter = QuantityConverters.Bytes.class, defaultValue = "65536",
            description = "Object size, bytes. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--segment", converter = QuantityConverters.Bytes.class, defaultValue = "1400",
            description = "Segment (payload) bytes. Default: ${DEFAULT-VALUE}.")
    int segment;

    @Option(names = "--seconds", defaultValue = "20", description = "Measured seconds per pair. Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--warmup", defaultValue = "5", description = "Seconds before measuring (slow start). Default: ${DEFAULT-VALUE}.")
    double warmup;

    @Option(names = "--runs", defaultValue = "1", description = "Runs per pair (the median is reported). Default: ${DEFAULT-VALUE}.")
    int runs;

    @Option(names = "--pairs", split = ",", defaultValue = "all",
            description = "all, or any of nrl-fjm2,fjm2-fjm2,fjm2-nrl (nrl-nrl always runs as the baseline). "
                    + "Default: ${DEFAULT-VALUE}.")
    String[] pairs;

    @Option(names = "--paths", split = ",", defaultValue = "tbf,tcp,linkem",
            description = "tbf: the shaped link alone; tcp: the same with a competing TCP flow (fjm2 and NRL senders "
                    + "to their own receiver); linkem: through `fjm2 linkem` (--link rate, --wan-delay each way, "
                    + "--wan-loss each way) instead. Default: ${DEFAULT-VALUE}.")
    List<String> paths;

    @Option(names = "--wan-delay", defaultValue = "20ms",
            description = "linkem: one-way delay (a 40 ms round trip). Default: ${DEFAULT-VALUE}.")
    String wanDelay;

    @Option(names = "--wan-loss", defaultValue = "1%", description = "linkem: random loss each way. Default: ${DEFAULT-VALUE}.")
    String wanLoss;

    @Option(names = "--seed", defaultValue = "18", description = "linkem's seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--quick", description = "Short runs (10 s measured after 4 s).")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (NetNs.unavailableReason().isPresent()) {
            System.err.println("fjm2 bench cc: needs network namespaces (root): " + NetNs.unavailableReason().get());
            return 2;
        }
        String reason = NrlBenchBinary.unavailableReason();
        if (reason != null) {
            System.err.println("fjm2 bench cc: " + reason);
            return 2;
        }
        if (link <= 0 || size < 1 || seconds <= 0 || warmup < 0 || runs < 1 || runs > 20) {
            throw new IllegalArgumentException("need --link, --size, --seconds positive, --warmup >= 0, --runs 1..20");
        }
        double measure = quick ? Math.min(seconds, 10) : seconds;
        double warm = quick ? Math.min(warmup, 4) : warmup;
        for (String path : paths) {
            if (!List.of("tbf", "tcp", "linkem").contains(path)) {
                throw new IllegalArgumentException("--paths: tbf, tcp or linkem, not " + path);
            }
        }
        List<Engine[]> selected = selectedPairs();
        PeerLauncher launcher = new PeerLauncher(NrlBenchBinary.ensureBuilt(), List.of());
        long steps = 0;
        for (String path : paths) {
            steps += (long) runs * (path.equals("tcp") ? TCP_PAIRS.length : selected.size());
        }
        ProgressBar progress = new ProgressBar("cc", steps);
        double linkMbit = link / 1e6;
        ResultTable table = new ResultTable(String.format(Locale.ROOT,
                "NORM-CC through an unknown %.0f Mbit/s bottleneck: tbf (burst %s, latency %s) between two "
                        + "namespaces, or fjm2 linkem (%s each way, %s loss each way); %d B objects, segment %d B, "
                        + "senders start at %.0f Mbit/s with a %.0f Mbit/s ceiling; %.0f s measured after %.0f s",
                linkMbit, burst, latency, wanDelay, wanLoss, size, segment, START_RATE / 1e6, CEILING / 1e6,
                measure, warm),
                "path", "sender", "receiver", "goodput_Mbit_s", "pct_of_link", "vs_nrl_nrl", "objects_per_s",
                "aborted", "tcp_Mbit_s", "runs_Mbit_s");
        int port = 32000 + (int) (ProcessHandle.current().pid() % 500) * 8;
        List<String> categories = new ArrayList<>();
        List<Double> goodputs = new ArrayList<>();
        for (String path : paths) {
            Engine[][] pairsOfPath = path.equals("tcp") ? TCP_PAIRS : selected.toArray(new Engine[0][]);
            double baseline = 0;
            for (Engine[] pair : pairsOfPath) {
                List<Measured> runsOfPair = new ArrayList<>();
                for (int run = 0; run < runs; run++) {
                    Measured m = measure(path, launcher, pair[0], pair[1], port, warm, measure);
                    port += 4;
                    runsOfPair.add(m);
                    progress.step(String.format(Locale.ROOT, "%s: %s(cc) -> %s, run %d: %.1f Mbit/s, %d aborted%s",
                            path, pair[0].label, pair[1].label, run + 1, m.rate.megabytesPerSecond() * 8,
                            m.rate.aborted(), m.tcpMbit >= 0 ? String.format(Locale.ROOT, ", TCP %.1f Mbit/s",
                                    m.tcpMbit) : ""));
                }
                runsOfPair.sort(java.util.Comparator.comparingDouble(m -> m.rate.megabytesPerSecond()));
                Measured median = runsOfPair.get((runsOfPair.size() - 1) / 2);
                double mbit = median.rate.megabytesPerSecond() * 8;
                if (pair == pairsOfPath[0]) {
                    baseline = mbit;
                }
                StringBuilder all = new StringBuilder();
                for (Measured each : runsOfPair) {
                    all.append(all.isEmpty() ? "" : "/").append(String.format(Locale.ROOT, "%.1f",
                            each.rate.megabytesPerSecond() * 8));
                }
                long aborted = runsOfPair.stream().mapToLong(m -> m.rate.aborted()).sum();
                table.row(path, pair[0].label + "(cc)", pair[1].label, mbit, 100 * mbit / linkMbit,
                        baseline == 0 ? 0 : mbit / baseline, median.rate.objectsPerSecond(), aborted,
                        median.tcpMbit >= 0 ? String.format(Locale.ROOT, "%.2f", median.tcpMbit) : "-",
                        all.toString());
                categories.add(path + ": " + pair[0].label + "(cc) -> " + pair[1].label);
                goodputs.add(mbit);
            }
        }
        table.print(System.out);
        Files.createDirectories(out);
        table.writeCsv(out.resolve("cc.csv"));
        double[] goodput = goodputs.stream().mapToDouble(Double::doubleValue).toArray();
        double[] linkLine = new double[goodput.length];
        Arrays.fill(linkLine, linkMbit);
        Plot.bars(out.resolve("cc.png"), String.format(Locale.ROOT, "NORM-CC through an unknown %.0f Mbit/s "
                + "bottleneck: receiver goodput (%d KB objects)", linkMbit, size / 1024), "path and pair", "Mbit/s",
                categories, List.of("goodput", "link"), List.of(goodput, linkLine));
        System.out.println("wrote " + out.resolve("cc.csv") + " and " + out.resolve("cc.png"));
        return 0;
    }

    /** A run's receiver rate and, with a competing flow, that flow's goodput (-1 without). */
    record Measured(PeerProcess.Rate rate, double tcpMbit) {
    }

    private Measured measure(String path, PeerLauncher launcher, Engine senderEngine, Engine receiverEngine, int port,
                             double warmupSeconds, double measureSeconds) throws Exception {
        if (path.equals("linkem")) {
            return measureOverLinkem(launcher, senderEngine, receiverEngine, port, warmupSeconds, measureSeconds);
        }
        try (TestNetwork net = TestNetwork.lan(2)) {
            Host sender = net.host("h1");
            sender.exec("tc", "qdisc", "replace", "dev", "eth0", "root", "tbf", "rate",
                    Long.toString(link) + "bit", "burst", burst, "latency", latency).orThrow();
            JavaProcess sink = null;
            JavaProcess source = null;
            if (path.equals("tcp")) {
                double lifetime = warmupSeconds + measureSeconds + PEER_SLACK_SECONDS;
                sink = net.host("h2").startJava(TcpFlowMain.class, "sink", Integer.toString(TCP_PORT),
                        Double.toString(lifetime + 5));
                sink.awaitLine(Pattern.compile("^READY"), Duration.ofSeconds(30));
                source = sender.startJava(TcpFlowMain.class, "source", net.host("h2").address() + ":" + TCP_PORT,
                        Double.toString(lifetime));
                source.awaitLine(Pattern.compile("^READY"), Duration.ofSeconds(30));
            }
            try {
                double[] window = new double[2];
                PeerProcess.Rate rate = measurePair(launcher, senderEngine, receiverEngine, port, "eth0", port,
                        sender.namespace(), net.host("h2").namespace(), warmupSeconds, measureSeconds, window);
                return new Measured(rate, sink == null ? -1 : tcpMbit(sink.allLines(), window[0], window[1]));
            } finally {
                if (source != null) {
                    source.close();
                }
                if (sink != null) {
                    sink.close();
                }
            }
        }
    }

    /** Sender and receiver in one namespace on two groups' ports, bridged by `fjm2 linkem --mode mcast`. */
    private Measured measureOverLinkem(PeerLauncher launcher, Engine senderEngine, Engine receiverEngine, int port,
                                       double warmupSeconds, double measureSeconds) throws Exception {
        try (TestNetwork net = TestNetwork.lan(1)) {
            Host host = net.host("h1");
            JavaProcess linkem = host.startJava(LinkemCommand.class, "--mode", "mcast",
                    "--side-a", GROUP + ":" + port + "@eth0", "--side-b", GROUP + ":" + (port + 1) + "@eth0",
                    "--rate", Long.toString(link) + "bit", "--delay", wanDelay, "--loss", wanLoss,
                    "--seed", Long.toString(seed), "--status-interval", "0");
            try {
                awaitStarted(linkem);
                double[] window = new double[2];
                PeerProcess.Rate rate = measurePair(launcher, senderEngine, receiverEngine, port, "eth0", port + 1,
                        host.namespace(), host.namespace(), warmupSeconds, measureSeconds, window);
                return new Measured(rate, -1);
            } finally {
                linkem.close();
            }
        }
    }

    /** Waits until linkem logged that it relays (on stderr, which {@link JavaProcess#diagnostics} shows). */
    private static void awaitStarted(JavaProcess linkem) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!linkem.diagnostics().contains(" started: ")) {
            if (!linkem.isAlive() || System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("linkem did not start: " + linkem.diagnostics());
            }
            Thread.sleep(50);
        }
    }

    /** The TCP sink's goodput between two monotonic times, Mbit/s. */
    static double tcpMbit(List<String> lines, double from, double to) {
        double firstT = -1;
        long firstBytes = 0;
        double lastT = -1;
        long lastBytes = 0;
        Pattern stat = Pattern.compile("^TCPSTAT t=([0-9.]+) bytes=(\\d+)");
        for (String line : lines) {
            Matcher m = stat.matcher(line);
            if (!m.find()) {
                continue;
            }
            double t = Double.parseDouble(m.group(1));
            long bytes = Long.parseLong(m.group(2));
            if (firstT < 0 && t >= from) {
                firstT = t;
                firstBytes = bytes;
            }
            if (t <= to) {
                lastT = t;
                lastBytes = bytes;
            }
        }
        return firstT < 0 || lastT <= firstT ? 0 : (lastBytes - firstBytes) * 8 / (lastT - firstT) / 1e6;
    }

    private PeerProcess.Rate measurePair(PeerLauncher launcher, Engine senderEngine, Engine receiverEngine,
                                         int senderPort, String iface, int receiverPort, String senderNamespace,
                                         String receiverNamespace, double warmupSeconds, double measureSeconds,
                                         double[] window) throws Exception {
        double lifetime = warmupSeconds + measureSeconds + PEER_SLACK_SECONDS;
        List<String> rxOptions = new ArrayList<>(List.of("--addr", GROUP, "--port", Integer.toString(receiverPort),
                "--iface", iface, "--report", "0.1", "--id", Integer.toString(RECEIVER_NODE),
                "--seconds", Double.toString(lifetime + READY_TIMEOUT_MS / 1000.0)));
        List<String> txOptions = new ArrayList<>(List.of("--addr", GROUP, "--port", Integer.toString(senderPort),
                "--iface", iface, "--report", "0.1", "--id", Integer.toString(SENDER_NODE),
                "--seconds", Double.toString(lifetime), "--size", Integer.toString(size),
                "--segment", Integer.toString(segment), "--cc", "1", "--rate", Long.toString(START_RATE),
                "--rate-max", Long.toString(CEILING), "--grtt", "0.01"));
        try (PeerProcess receiver = launcher.start(receiverEngine, "recv", rxOptions, receiverNamespace)) {
            receiver.awaitReady(READY_TIMEOUT_MS);
            try (PeerProcess tx = launcher.start(senderEngine, "send", txOptions, senderNamespace)) {
                tx.awaitReady(READY_TIMEOUT_MS);
                Thread.sleep((long) (warmupSeconds * 1000));
                window[0] = System.nanoTime() / 1e9;
                Thread.sleep((long) (measureSeconds * 1000));
                window[1] = System.nanoTime() / 1e9;
                Thread.sleep(150); // the sample just after the window end has arrived
                PeerProcess.Rate rate = receiver.rate(window[0], window[1]);
                if (rate.aborted() > 0) {
                    System.out.println(receiverEngine.label + " receiver gave objects up:" + receiver.describe());
                }
                return rate;
            }
        }
    }

    private List<Engine[]> selectedPairs() {
        List<String> wanted = Arrays.asList(pairs);
        for (String p : wanted) {
            if (!List.of("all", "nrl-nrl", "nrl-fjm2", "fjm2-fjm2", "fjm2-nrl").contains(p)) {
                throw new IllegalArgumentException("--pairs: unknown pair " + p);
            }
        }
        List<Engine[]> selected = new ArrayList<>();
        for (Engine[] pair : PAIRS) {
            String name = pair[0].label.toLowerCase(Locale.ROOT) + "-" + pair[1].label.toLowerCase(Locale.ROOT);
            if (selected.isEmpty() || wanted.contains("all") || wanted.contains(name)) {
                selected.add(pair);
            }
        }
        return selected;
    }
}
