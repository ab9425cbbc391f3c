package org.fjm2.bench.scenario;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.bench.jms.ChildJvm;
import org.fjm2.bench.jms.ConnectionFactories;
import org.fjm2.bench.jms.MaxRatePublisher;
import org.fjm2.bench.jms.ThroughputSubscribersMain;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.bench.udp.RawUdp;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.SocketBufferLimits;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code fjm2 bench throughput}: one JMS publisher to N subscribers, FJM2 (NORM multicast on loopback) side by
 * side with the embedded Artemis broker (TCP on loopback), in the same run. The publisher and the Artemis broker
 * run in this JVM; the N subscribers (one Connection each, non-durable, DUPS_OK_ACKNOWLEDGE, a counting
 * MessageListener) run together in one child JVM. Messages are NON_PERSISTENT BytesMessages numbered by a long
 * property, so the subscribers count gaps (lost) and duplicates. Per size: a warm-up (at least until every subscriber receives), then a measured window in
 * which each subscriber counts what it receives on its own clock (steady-state receive rate), then a drain in
 * which every subscriber must reach the last message sent. The baseline is raw UDP multicast of the same payload
 * size measured in the same run ({@link RawUdp}).
 */
@Command(name = "throughput", mixinStandardHelpOptions = true,
        description = "FJM2 JMS vs embedded Artemis, 1 publisher -> N subscribers (child JVM): msgs/s per subscriber, "
                + "MB/s, lost messages, ratios to Artemis and to raw UDP multicast.")
public final class ThroughputBenchmark implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--subscribers", split = ",", defaultValue = "1,2,4,8",
            description = "Subscriber counts N (quick: 1,4). Default: ${DEFAULT-VALUE}.")
    int[] subscribers;

    @Option(names = "--sizes", converter = QuantityConverters.Bytes.class, split = ",", defaultValue = "100,1024,8192,65536",
            description = "Message body sizes in bytes (quick: 100,8192). Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--seconds", converter = QuantityConverters.Seconds.class, defaultValue = "5", description = "Measured seconds per point (quick: 0.8). Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--warmup", converter = QuantityConverters.Seconds.class, defaultValue = "2", description = "Warm-up seconds per point (quick: 0.5). Default: ${DEFAULT-VALUE}.")
    double warmup;

    @Option(names = "--quick", description = "Fewer points, shorter windows: under a minute.")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--group", defaultValue = "239.255.77.2", description = "FJM2 multicast group. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    @Option(names = "--fjm2-params", defaultValue = FJM2_PARAMS,
            description = "Extra norm:// URL parameters of every FJM2 connection. Default: ${DEFAULT-VALUE}: "
                    + "rateControl=adaptive&grtt=0.002&rate=40g, or rate=10g where net.core.rmem_max caps the "
                    + "receive buffer below 8 MiB.")
    String fjm2Params;

    @Option(names = "--artemis", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Measure the Artemis baseline too (default); --no-artemis for FJM2-only development runs.")
    boolean artemis;

    @Option(names = "--child-jvm-option", description = "Option of the subscribers' JVM, repeatable; {system} and {n} "
            + "are replaced (e.g. -XX:StartFlightRecording=filename=sub-{system}-{n}.jfr,dumponexit=true).")
    List<String> childJvmOptions = new ArrayList<>();

    /** The --fjm2-params value that stands for {@link #loopbackParams()}. */
    static final String FJM2_PARAMS = "auto";
    /**
     * FJM2 URL parameters for loopback: the rate as a ceiling that adapts to the subscribers
     * ({@code rateControl=adaptive}: a fixed rate high enough for 8 KB messages overruns a subscriber decoding 1 KB
     * ones, one low enough for those leaves 8 KB at half speed), and a loopback-sized initial round-trip estimate.
     * The default rate (100m, fixed) suits a real LAN; the segment size follows lo's MTU (64 KB datagrams).
     */
    static final String LOOPBACK_PARAMS = "rateControl=adaptive&grtt=0.002&rate=";
    /** Rate ceiling where the kernel grants the default receive buffer: bursts fit, the subscriber sets the pace. */
    static final String RATE_FULL_BUFFER = "40g";
    /**
     * Rate ceiling where the kernel caps the receive buffer below the default (net.core.rmem_max): a higher
     * ceiling overflows it in bursts, and the repairs cost more than the rate gains.
     */
    static final String RATE_CAPPED_BUFFER = "10g";

    /** The loopback parameters for this machine's receive buffer cap, saying which and why. */
    static String loopbackParams() {
        return loopbackParams(SocketBufferLimits.cap(SocketBufferLimits.RMEM_MAX));
    }

    /** The loopback parameters for a kernel receive buffer cap (empty: none known), saying which and why. */
    static String loopbackParams(OptionalLong cap) {
        boolean full = cap.isEmpty() || cap.getAsLong() >= NormConfig.DEFAULT_RECEIVE_BUFFER;
        String rate = full ? RATE_FULL_BUFFER : RATE_CAPPED_BUFFER;
        System.out.printf("FJM2 rate ceiling %s: net.core.rmem_max = %s bytes%s%n", rate,
                cap.isPresent() ? cap.getAsLong() : "unknown",
                full ? "" : " caps the " + NormConfig.DEFAULT_RECEIVE_BUFFER + "-byte receive buffer (as root: sysctl -w "
                        + "net.core.rmem_max=" + NormConfig.DEFAULT_RECEIVE_BUFFER + " for " + RATE_FULL_BUFFER + ")");
        return LOOPBACK_PARAMS + rate;
    }

    /** {@code params}, or this machine's loopback parameters for "auto". */
    static String resolveParams(String params) {
        return FJM2_PARAMS.equals(params) ? loopbackParams() : params;
    }
    static final String TOPIC = "bench.throughput";
    static final int[] QUICK_SUBSCRIBERS = {1, 4};
    static final int[] QUICK_SIZES = {100, 8192};
    static final double QUICK_SECONDS = 0.8;
    static final double QUICK_WARMUP = 0.5;
    /**
     * Least warm-up of the first size measured by a fresh publisher and subscriber JVM pair: its code is still being
     * JIT-compiled (the first window of a quick run measured a fraction of the next ones without it).
     */
    static final double FIRST_ROUND_WARMUP = 3;
    /** Raw UDP baseline: warm-up and measured seconds per size. */
    static final double UDP_WARMUP = 0.3;
    static final double UDP_SECONDS = 1.0;
    /** Longest wait for the subscribers' JVM to subscribe, and for one answer of it. */
    static final Duration CHILD_TIMEOUT = Duration.ofSeconds(60);
    /** Longest drain: a backlog that still moves is waited for (a stall ends the drain in the child sooner). */
    static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(300);

    /** One measured point; {@code longestGapMs} and {@code slowestSlice} as {@link DeliveryWindow} defines them. */
    record Point(double msgsPerSubscriber, long lost, long duplicates, double longestGapMs, double slowestSlice) {
    }

    @Override
    public Integer call() throws Exception {
        applyQuick();
        validate();
        fjm2Params = resolveParams(fjm2Params);
        int artemisPort = UdpBenchmark.basePort() + 15;
        int port = UdpBenchmark.basePort() + 16;
        ProgressBar progress = new ProgressBar("throughput",
                sizes.length * (1L + (artemis ? 2L : 1L) * subscribers.length));
        double[] udpMBps = new double[sizes.length];
        for (int i = 0; i < sizes.length; i++) {
            int datagram = Math.min(sizes[i], RawUdp.MAX_DATAGRAM);
            udpMBps[i] = RawUdp.throughput(true, group, interfaceName, port, datagram, UDP_WARMUP, UDP_SECONDS)
                    .megabytesPerSecond();
            progress.step("raw UDP multicast " + datagram + " B");
        }
        Map<String, Point> points = new HashMap<>();
        try (EmbeddedArtemis broker = EmbeddedArtemis.start(artemisPort)) {
            for (int n : subscribers) {
                String fjm2Url = "norm://" + group + ":" + (++port) + "?interface=" + interfaceName + "&" + fjm2Params;
                measure("FJM2", fjm2Url, n, points, progress);
                if (artemis) {
                    measure("Artemis", broker.url(), n, points, progress);
                }
            }
        }
        ResultTable table = table(points, udpMBps);
        table.print(System.out);
        System.out.println();
        System.out.println("msgs/s and MB/s are per subscriber (mean over the N subscribers), payload bytes only, "
                + "counted by the subscribers in a " + seconds + " s window after " + warmup + " s of warm-up (first size "
                + "of each JVM pair: at least " + FIRST_ROUND_WARMUP + " s).");
        System.out.println("lost = sequence gaps + messages never received by the end of the drain; "
                + "acknowledge mode DUPS_OK, NON_PERSISTENT, non-durable subscribers.");
        System.out.println("longest_gap_ms = the longest time any subscriber went without a delivery in the window; "
                + "slowest_100ms = the fewest messages any subscriber received in a whole 100 ms slice, per second "
                + "(a stall shows there, not in the mean).");
        table.writeCsv(out.resolve("throughput.csv"));
        plot(table);
        System.out.println("wrote " + out.resolve("throughput.csv") + " and " + out.resolve("throughput.png"));
        return 0;
    }

    private void applyQuick() {
        if (!quick) {
            return;
        }
        CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
        if (!parsed.hasMatchedOption("--subscribers")) {
            subscribers = QUICK_SUBSCRIBERS;
        }
        if (!parsed.hasMatchedOption("--sizes")) {
            sizes = QUICK_SIZES;
        }
        if (!parsed.hasMatchedOption("--seconds")) {
            seconds = QUICK_SECONDS;
        }
        if (!parsed.hasMatchedOption("--warmup")) {
            warmup = QUICK_WARMUP;
        }
    }

    private void validate() {
        for (int n : subscribers) {
            require(n >= 1 && n <= 64, "--subscribers: " + n + " is not in 1..64");
        }
        require(Arrays.stream(subscribers).distinct().count() == subscribers.length, "--subscribers: a count twice");
        require(Arrays.stream(sizes).distinct().count() == sizes.length, "--sizes: a size twice");
        for (int s : sizes) {
            require(s >= 8 && s <= 16 << 20, "--sizes: " + s + " is not in 8..16777216 bytes");
        }
        require(seconds > 0, "--seconds must be positive: " + seconds);
        require(warmup >= 0, "--warmup must not be negative: " + warmup);
    }

    private void require(boolean ok, String message) {
        if (!ok) {
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }

    /** One system at one N: a child JVM of N subscribers, one publisher, every size in turn. */
    private void measure(String system, String url, int n, Map<String, Point> points, ProgressBar progress)
            throws Exception {
        List<String> options = childJvmOptions.stream()
                .map(o -> o.replace("{system}", system.toLowerCase()).replace("{n}", String.valueOf(n))).toList();
        try (ChildJvm child = ChildJvm.start(ThroughputSubscribersMain.class, options, url, TOPIC, String.valueOf(n));
             MaxRatePublisher publisher = new MaxRatePublisher(ConnectionFactories.forUrl(url), TOPIC)) {
            child.await("READY", CHILD_TIMEOUT);
            for (int size : sizes) {
                publisher.start(size);
                boolean first = size == sizes[0];
                Thread.sleep((long) ((first ? Math.max(warmup, FIRST_ROUND_WARMUP) : warmup) * 1000));
                child.send("MARK " + seconds);
                child.await("MARKED", CHILD_TIMEOUT);
                Thread.sleep((long) (seconds * 1000));
                child.send("STOP");
                String rates = child.await("RATES", CHILD_TIMEOUT);
                String[] evenness = child.await("WINDOWS", CHILD_TIMEOUT).split(" ");
                long last = publisher.stop();
                child.send("DRAIN " + last);
                String[] drained = child.await("DRAINED", DRAIN_TIMEOUT).split(" ", 5);
                double mean = Arrays.stream(rates.split(" ")).skip(1).mapToDouble(Double::parseDouble).average()
                        .orElse(0);
                points.put(key(system, n, size), new Point(mean,
                        Long.parseLong(drained[1]) + Long.parseLong(drained[3]), Long.parseLong(drained[2]),
                        Double.parseDouble(evenness[1]), Double.parseDouble(evenness[2])));
                progress.step(system + " N=" + n + " " + size + " B: " + Math.round(mean) + " msgs/s"
                        + (drained.length > 4 && !drained[4].isBlank() ? "; subscribers' counters: " + drained[4] : ""));
            }
        }
    }

    private static String key(String system, int n, int size) {
        return system + "/" + n + "/" + size;
    }

    private ResultTable table(Map<String, Point> points, double[] udpMBps) {
        ResultTable table = new ResultTable("JMS 1 publisher -> N subscribers on loopback: FJM2 (NORM multicast) vs "
                + "Artemis (embedded broker, TCP)", "size_B", "subscribers", "fjm2_msgs_per_s", "fjm2_MB_per_s",
                "fjm2_lost", "fjm2_dups", "fjm2_longest_gap_ms", "fjm2_slowest_100ms_msgs_per_s",
                "artemis_msgs_per_s", "artemis_MB_per_s", "artemis_lost", "artemis_longest_gap_ms",
                "fjm2_vs_artemis", "udp_mcast_MB_per_s", "fjm2_vs_udp_mcast");
        for (int i = 0; i < sizes.length; i++) {
            for (int n : subscribers) {
                Point f = points.get(key("FJM2", n, sizes[i]));
                Point a = points.getOrDefault(key("Artemis", n, sizes[i]), new Point(0, 0, 0, 0, 0));
                double fMB = f.msgsPerSubscriber * sizes[i] / 1e6;
                table.row((long) sizes[i], (long) n, f.msgsPerSubscriber, fMB, f.lost, f.duplicates,
                        f.longestGapMs, f.slowestSlice,
                        a.msgsPerSubscriber, a.msgsPerSubscriber * sizes[i] / 1e6, a.lost, a.longestGapMs,
                        UdpBenchmark.ratio(f.msgsPerSubscriber, a.msgsPerSubscriber), udpMBps[i],
                        UdpBenchmark.ratio(fMB, udpMBps[i]));
            }
        }
        return table;
    }

    private void plot(ResultTable table) throws Exception {
        List<String> categories = new ArrayList<>();
        for (List<Object> row : table.rows()) {
            categories.add(UdpBenchmark.sizeLabel(((Long) row.get(0)).intValue()) + ", N=" + row.get(1));
        }
        Plot.bars(out.resolve("throughput.png"), "JMS msgs/s per subscriber, 1 publisher -> N subscribers (loopback)",
                "message size, subscribers", "msgs/s per subscriber", categories, List.of("FJM2", "Artemis"),
                List.of(table.column("fjm2_msgs_per_s"), table.column("artemis_msgs_per_s")));
    }
}
