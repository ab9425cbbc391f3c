package org.fjm2.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
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
import org.fjm2.testkit.netns.Host;
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
                + "NRL(cc)->NRL baseline, NRL(cc)->fjm2, fjm2(cc)->fjm2, fjm2(cc)->NRL as % of the link.")
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
        List<Engine[]> selected = selectedPairs();
        PeerLauncher launcher = new PeerLauncher(NrlBenchBinary.ensureBuilt(), List.of());
        ProgressBar progress = new ProgressBar("cc", (long) selected.size() * runs);
        double linkMbit = link / 1e6;
        ResultTable table = new ResultTable(String.format(Locale.ROOT,
                "NORM-CC through a %.0f Mbit/s tbf bottleneck (burst %s, latency %s) between two namespaces: "
                        + "%d B objects, segment %d B, senders start at %.0f Mbit/s with a %.0f Mbit/s ceiling; "
                        + "%.0f s measured after %.0f s", linkMbit, burst, latency, size, segment, START_RATE / 1e6,
                CEILING / 1e6, measure, warm),
                "sender", "receiver", "goodput_Mbit_s", "pct_of_link", "vs_nrl_nrl", "objects_per_s", "aborted",
                "runs_Mbit_s");
        int port = 32000 + (int) (ProcessHandle.current().pid() % 500) * 8;
        List<List<PeerProcess.Rate>> results = new ArrayList<>();
        for (Engine[] pair : selected) {
            List<PeerProcess.Rate> runsOfPair = new ArrayList<>();
            for (int run = 0; run < runs; run++) {
                PeerProcess.Rate r = measurePair(launcher, pair[0], pair[1], port++, warm, measure);
                runsOfPair.add(r);
                progress.step(String.format(Locale.ROOT, "%s(cc) -> %s, run %d: %.1f Mbit/s, %d aborted",
                        pair[0].label, pair[1].label, run + 1, r.megabytesPerSecond() * 8, r.aborted()));
            }
            results.add(runsOfPair);
        }
        double baseline = NormVsNrlBenchmark.median(results.get(0)).megabytesPerSecond() * 8;
        double[] goodput = new double[selected.size()];
        for (int p = 0; p < selected.size(); p++) {
            PeerProcess.Rate r = NormVsNrlBenchmark.median(results.get(p));
            double mbit = r.megabytesPerSecond() * 8;
            goodput[p] = mbit;
            StringBuilder all = new StringBuilder();
            for (PeerProcess.Rate each : results.get(p)) {
                all.append(all.isEmpty() ? "" : "/").append(String.format(Locale.ROOT, "%.1f",
                        each.megabytesPerSecond() * 8));
            }
            long aborted = results.get(p).stream().mapToLong(PeerProcess.Rate::aborted).sum();
            table.row(selected.get(p)[0].label + "(cc)", selected.get(p)[1].label, mbit, 100 * mbit / linkMbit,
                    baseline == 0 ? 0 : mbit / baseline, r.objectsPerSecond(), aborted, all.toString());
        }
        table.print(System.out);
        Files.createDirectories(out);
        table.writeCsv(out.resolve("cc.csv"));
        List<String> categories = new ArrayList<>();
        for (Engine[] pair : selected) {
            categories.add(pair[0].label + "(cc) -> " + pair[1].label);
        }
        double[] linkLine = new double[selected.size()];
        Arrays.fill(linkLine, linkMbit);
        Plot.bars(out.resolve("cc.png"), String.format(Locale.ROOT, "NORM-CC through an unknown %.0f Mbit/s "
                + "bottleneck: receiver goodput (%d KB objects)", linkMbit, size / 1024), "pair", "Mbit/s",
                categories, List.of("goodput", "link"), List.of(goodput, linkLine));
        System.out.println("wrote " + out.resolve("cc.csv") + " and " + out.resolve("cc.png"));
        return 0;
    }

    private PeerProcess.Rate measurePair(PeerLauncher launcher, Engine senderEngine, Engine receiverEngine, int port,
                                         double warmupSeconds, double measureSeconds) throws Exception {
        double lifetime = warmupSeconds + measureSeconds + PEER_SLACK_SECONDS;
        List<String> common = List.of("--addr", GROUP, "--port", Integer.toString(port), "--iface", "eth0",
                "--report", "0.1");
        List<String> rxOptions = new ArrayList<>(common);
        rxOptions.addAll(List.of("--id", Integer.toString(RECEIVER_NODE),
                "--seconds", Double.toString(lifetime + READY_TIMEOUT_MS / 1000.0)));
        List<String> txOptions = new ArrayList<>(common);
        txOptions.addAll(List.of("--id", Integer.toString(SENDER_NODE), "--seconds", Double.toString(lifetime),
                "--size", Integer.toString(size), "--segment", Integer.toString(segment), "--cc", "1",
                "--rate", Long.toString(START_RATE), "--rate-max", Long.toString(CEILING), "--grtt", "0.01"));
        try (TestNetwork net = TestNetwork.lan(2)) {
            Host sender = net.host("h1");
            sender.exec("tc", "qdisc", "replace", "dev", "eth0", "root", "tbf", "rate",
                    Long.toString(link) + "bit", "burst", burst, "latency", latency).orThrow();
            try (PeerProcess receiver = launcher.start(receiverEngine, "recv", rxOptions,
                    net.host("h2").namespace())) {
                receiver.awaitReady(READY_TIMEOUT_MS);
                try (PeerProcess tx = launcher.start(senderEngine, "send", txOptions, sender.namespace())) {
                    tx.awaitReady(READY_TIMEOUT_MS);
                    Thread.sleep((long) (warmupSeconds * 1000));
                    double from = System.nanoTime() / 1e9;
                    Thread.sleep((long) (measureSeconds * 1000));
                    double to = System.nanoTime() / 1e9;
                    Thread.sleep(150); // the sample just after the window end has arrived
                    return receiver.rate(from, to);
                }
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
