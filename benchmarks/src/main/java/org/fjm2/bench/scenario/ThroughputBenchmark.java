package org.fjm2.bench.scenario;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;

import org.fjm2.bench.aeron.AeronBaseline;
import org.fjm2.bench.aeron.AeronPublisher;
import org.fjm2.bench.aeron.AeronSubscribersMain;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.bench.jms.ChildJvm;
import org.fjm2.bench.jms.ConnectionFactories;
import org.fjm2.bench.jms.MaxRatePublisher;
import org.fjm2.bench.jms.NumberedPublisher;
import org.fjm2.bench.jms.ThroughputSubscribersMain;
import org.fjm2.bench.options.Baseline;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.options.RmemMaxOption;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.bench.udp.RawUdp;
import org.fjm2.jms.transport.norm.NormTransportFactory;
import org.fjm2.norm.transport.SocketBufferLimits;
import org.fjm2.util.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * {@code fjm2 bench throughput}: one JMS publisher to N subscribers, FJM2 (NORM multicast on loopback) side by
 * side with the embedded Artemis broker (TCP on loopback) and with Aeron (UDP multicast on loopback, not JMS), in the
 * same run. The publisher and the Artemis broker run in this JVM; the N subscribers (one Connection each,
 * non-durable, DUPS_OK_ACKNOWLEDGE, a counting MessageListener) run together in one child JVM. Messages are
 * NON_PERSISTENT BytesMessages numbered by a long property, so the subscribers count gaps (lost) and duplicates. Per
 * size: a warm-up (at least until every subscriber receives), then a measured window in which each subscriber counts
 * what it receives on its own clock (steady-state receive rate), then a drain in which every subscriber must reach
 * the last message sent. Aeron follows the same steps with payloads of the same sizes whose first 8 bytes number
 * them ({@link AeronPublisher}, {@link AeronSubscribersMain}: a media driver per subscriber, configured as
 * {@link AeronBaseline} says). A further baseline is raw UDP multicast of the same payload size ({@link RawUdp}).
 * With {@code --rmem-max}, the whole table is measured once per receive buffer cap.
 */
@Command(name = "throughput", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"FJM2 JMS vs embedded Artemis vs Aeron, 1 publisher -> N subscribers (child JVM): msgs/s per "
                + "subscriber, MB/s, lost messages, the longest gap and the slowest 100 ms, ratios to Artemis, to "
                + "Aeron and to raw UDP multicast.",
                "Aeron: UDP multicast on the same interface (group --aeron-group), one embedded Java media driver "
                        + "in the publisher's JVM and one per subscriber (SHARED threading, BackoffIdleStrategy), 8 KiB MTU, socket "
                        + "buffers and receiver window as large as net.core.rmem_max allows (up to 8 MiB), a 16 MiB "
                        + "term, min flow control over the N subscribers; tryClaim/offer of the same payload sizes, "
                        + "subscribers check the numbers in the payloads."})
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
            description = "Extra norm:// URL parameters of every FJM2 connection (e.g. rateControl=fixed&rate=2g). "
                    + "Default: ${DEFAULT-VALUE}: none, what a user who sets nothing gets.")
    String fjm2Params;

    @Option(names = "--baselines", split = ",", defaultValue = Baseline.ALL,
            paramLabel = "NAME",
            description = "Baselines measured beside FJM2: artemis (embedded broker, JMS over TCP), udp (raw UDP "
                    + "multicast of the same sizes), aeron (Aeron UDP multicast); none: FJM2 alone. Default: ${DEFAULT-VALUE}.")
    List<String> baselines;

    @Option(names = "--artemis", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "--no-artemis leaves Artemis out of --baselines (the older spelling; FJM2 alone: "
                    + "--baselines none).")
    boolean artemis;

    @Option(names = "--aeron-group", defaultValue = "239.255.77.33",
            description = "Aeron's multicast data group: its last byte odd (Aeron sends control to the next address). "
                    + "Default: ${DEFAULT-VALUE}.")
    String aeronGroup;

    @Mixin
    RmemMaxOption rmemMax;

    @Option(names = "--child-jvm-option", description = "Option of the subscribers' JVM, repeatable; {system} and {n} "
            + "are replaced (e.g. -XX:StartFlightRecording=filename=sub-{system}-{n}.jfr,dumponexit=true).")
    List<String> childJvmOptions = new ArrayList<>();

    /** The --fjm2-params value that stands for {@link #loopbackParams()}: the URL's own defaults. */
    static final String FJM2_PARAMS = "defaults";

    /** The parameters for this machine's receive buffer cap: none, what a user who sets nothing gets. */
    static String loopbackParams() {
        return loopbackParams(SocketBufferLimits.cap(SocketBufferLimits.RMEM_MAX));
    }

    /**
     * The parameters for a kernel receive buffer cap (empty: none known): none whatever the cap — the URL's defaults
     * (receiver-paced flow control, a rate found by slow start up to 10 Gbit/s) are what is measured — saying so.
     */
    static String loopbackParams(OptionalLong cap) {
        System.out.printf("FJM2 with the norm:// URL's defaults (flowControl=true, rateControl=auto, rate=%s); "
                + "net.core.rmem_max = %s bytes%n", NormTransportFactory.DEFAULT_RATE,
                cap.isPresent() ? cap.getAsLong() : "unknown");
        return "";
    }

    /** {@code params}, or the URL's defaults for "defaults". */
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
        static final Point NONE = new Point(0, 0, 0, 0, 0);
    }

    /** Starts the subscribers' JVM of one system and its publisher, once that JVM is READY. */
    private interface SystemUnderTest {
        ChildJvm startSubscribers(List<String> jvmOptions) throws Exception;

        NumberedPublisher startPublisher() throws Exception;
    }

    @Override
    public Integer call() throws Exception {
        applyQuick();
        validate();
        Set<Baseline> measured = measuredBaselines();
        String fjm2ParamsOption = fjm2Params;
        int[] caps = rmemMax.caps();
        ProgressBar progress = new ProgressBar("throughput", Math.max(1, caps.length) * sizes.length
                * ((measured.contains(Baseline.UDP) ? 1L : 0L) + systems(measured).size() * (long) subscribers.length));
        ResultTable table = newTable(measured);
        rmemMax.forEachCap(System.out, cap -> {
            fjm2Params = FJM2_PARAMS.equals(fjm2ParamsOption) ? loopbackParams(cap) : fjm2ParamsOption;
            measureTable(cap, measured, table, progress);
        });
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
        if (measured.contains(Baseline.AERON)) {
            System.out.println("Aeron: payloads of the same sizes (not JMS messages), a media driver per subscriber, "
                    + "min flow control; settings in benchmarks/README.md (AeronBaseline).");
        }
        System.out.println("rmem_max_B = net.core.rmem_max during the row (0: unknown); every system asks for "
                + "receive buffers up to it.");
        table.writeCsv(out.resolve("throughput.csv"));
        plot(table, measured, caps.length > 1);
        System.out.println("wrote " + out.resolve("throughput.csv") + " and " + out.resolve("throughput.png"));
        return 0;
    }

    /** The baselines asked for, without Artemis under --no-artemis. */
    Set<Baseline> measuredBaselines() {
        Set<Baseline> set;
        try {
            set = Baseline.parse(baselines);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!artemis) {
            set.remove(Baseline.ARTEMIS);
        }
        return set;
    }

    /** The messaging systems measured per N: FJM2 and the baselines that are systems (not raw UDP). */
    private static List<String> systems(Set<Baseline> measured) {
        List<String> systems = new ArrayList<>(List.of("FJM2"));
        if (measured.contains(Baseline.ARTEMIS)) {
            systems.add("Artemis");
        }
        if (measured.contains(Baseline.AERON)) {
            systems.add("Aeron");
        }
        return systems;
    }

    /** The whole table under one receive buffer cap: its rows go into {@code table}. */
    private void measureTable(OptionalLong cap, Set<Baseline> measured, ResultTable table, ProgressBar progress)
            throws Exception {
        int artemisPort = UdpBenchmark.basePort() + 15;
        int port = UdpBenchmark.basePort() + 16;
        double[] udpMBps = new double[sizes.length];
        if (measured.contains(Baseline.UDP)) {
            for (int i = 0; i < sizes.length; i++) {
                int datagram = Math.min(sizes[i], RawUdp.MAX_DATAGRAM);
                udpMBps[i] = RawUdp.throughput(true, group, interfaceName, port, datagram, UDP_WARMUP, UDP_SECONDS)
                        .megabytesPerSecond();
                progress.step("raw UDP multicast " + datagram + " B");
            }
        }
        Map<String, Point> points = new HashMap<>();
        String aeronInterface = measured.contains(Baseline.AERON) ? AeronBaseline.interfaceAddress(interfaceName) : null;
        OptionalLong wmemMax = SocketBufferLimits.cap(SocketBufferLimits.WMEM_MAX);
        int largest = Arrays.stream(sizes).max().orElse(0);
        try (EmbeddedArtemis broker = measured.contains(Baseline.ARTEMIS) ? EmbeddedArtemis.start(artemisPort) : null) {
            for (int k = 0; k < subscribers.length; k++) {
                int n = subscribers[k];
                String fjm2Url = "norm://" + group + ":" + (++port) + "?interface=" + interfaceName
                        + (fjm2Params.isEmpty() ? "" : "&" + fjm2Params);
                measure("FJM2", n, jms(fjm2Url, n), points, progress);
                if (broker != null) {
                    measure("Artemis", n, jms(broker.url(), n), points, progress);
                }
                if (aeronInterface != null) {
                    int aeronPort = UdpBenchmark.basePort() + AERON_PORT_OFFSET + k % AERON_PORTS;
                    String subscription = AeronBaseline.subscriptionChannel(aeronGroup, aeronPort, aeronInterface, cap);
                    String publication = AeronBaseline.publicationChannel(aeronGroup, aeronPort, aeronInterface, n, cap,
                            wmemMax, largest);
                    System.out.println("Aeron N=" + n + ": publication " + publication + ", subscriptions "
                            + subscription);
                    measure("Aeron", n, aeron(subscription, publication, n), points, progress);
                }
            }
        }
        addRows(table, cap, points, udpMBps);
    }

    /** First of the ports of the Aeron channels (one per subscriber count, reused after {@link #AERON_PORTS}). */
    static final int AERON_PORT_OFFSET = 24;
    static final int AERON_PORTS = 6;

    private SystemUnderTest jms(String url, int n) {
        return new SystemUnderTest() {
            @Override
            public ChildJvm startSubscribers(List<String> jvmOptions) throws Exception {
                return ChildJvm.start(ThroughputSubscribersMain.class, jvmOptions, url, TOPIC, String.valueOf(n));
            }

            @Override
            public NumberedPublisher startPublisher() throws Exception {
                return new MaxRatePublisher(ConnectionFactories.forUrl(url), TOPIC);
            }
        };
    }

    private static SystemUnderTest aeron(String subscriptionChannel, String publicationChannel, int n) {
        return new SystemUnderTest() {
            @Override
            public ChildJvm startSubscribers(List<String> jvmOptions) throws Exception {
                return ChildJvm.start(AeronSubscribersMain.class, jvmOptions, subscriptionChannel,
                        String.valueOf(AeronBaseline.STREAM_ID), String.valueOf(n));
            }

            @Override
            public NumberedPublisher startPublisher() {
                return new AeronPublisher(publicationChannel, AeronBaseline.STREAM_ID);
            }
        };
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
        measuredBaselines();
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
        if (measuredBaselines().contains(Baseline.AERON)) {
            require(AeronBaseline.isDataGroup(aeronGroup), "--aeron-group: " + aeronGroup + " is not an IPv4 multicast "
                    + "group whose last byte is odd and below 255");
            for (int s : sizes) {
                require(s <= AeronBaseline.MAX_MESSAGE, "--sizes: " + s + " is larger than Aeron's largest message ("
                        + AeronBaseline.MAX_MESSAGE + "); leave aeron out of --baselines for it");
            }
        }
        rmemMax.validate(spec.commandLine());
    }

    private void require(boolean ok, String message) {
        if (!ok) {
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }

    /** One system at one N: a child JVM of N subscribers, one publisher, every size in turn. */
    private void measure(String system, int n, SystemUnderTest sut, Map<String, Point> points, ProgressBar progress)
            throws Exception {
        List<String> options = childJvmOptions.stream()
                .map(o -> o.replace("{system}", system.toLowerCase()).replace("{n}", String.valueOf(n))).toList();
        try (ChildJvm child = sut.startSubscribers(options);
             NumberedPublisher publisher = sut.startPublisher()) {
            child.await("READY", CHILD_TIMEOUT);
            publisher.awaitSubscribers(CHILD_TIMEOUT);
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

    private static ResultTable newTable(Set<Baseline> measured) {
        return new ResultTable("JMS 1 publisher -> N subscribers on loopback: FJM2 (NORM multicast) vs Artemis "
                + "(embedded broker, TCP) vs Aeron (UDP multicast, not JMS)" + (measured.size() < Baseline.values().length
                ? " (baselines measured: " + measured.stream().map(b -> b.name().toLowerCase()).toList() + ")" : ""),
                "rmem_max_B", "size_B", "subscribers", "fjm2_msgs_per_s", "fjm2_MB_per_s",
                "fjm2_lost", "fjm2_dups", "fjm2_longest_gap_ms", "fjm2_slowest_100ms_msgs_per_s",
                "artemis_msgs_per_s", "artemis_MB_per_s", "artemis_lost", "artemis_longest_gap_ms",
                "aeron_msgs_per_s", "aeron_MB_per_s", "aeron_lost", "aeron_dups", "aeron_longest_gap_ms",
                "aeron_slowest_100ms_msgs_per_s",
                "fjm2_vs_artemis", "fjm2_vs_aeron", "fjm2_vs_aeron_slowest_100ms",
                "udp_mcast_MB_per_s", "fjm2_vs_udp_mcast");
    }

    private void addRows(ResultTable table, OptionalLong cap, Map<String, Point> points, double[] udpMBps) {
        for (int i = 0; i < sizes.length; i++) {
            for (int n : subscribers) {
                Point f = points.get(key("FJM2", n, sizes[i]));
                Point a = points.getOrDefault(key("Artemis", n, sizes[i]), Point.NONE);
                Point r = points.getOrDefault(key("Aeron", n, sizes[i]), Point.NONE);
                double fMB = f.msgsPerSubscriber * sizes[i] / 1e6;
                table.row(cap.orElse(0), (long) sizes[i], (long) n, f.msgsPerSubscriber, fMB, f.lost, f.duplicates,
                        f.longestGapMs, f.slowestSlice,
                        a.msgsPerSubscriber, a.msgsPerSubscriber * sizes[i] / 1e6, a.lost, a.longestGapMs,
                        r.msgsPerSubscriber, r.msgsPerSubscriber * sizes[i] / 1e6, r.lost, r.duplicates,
                        r.longestGapMs, r.slowestSlice,
                        UdpBenchmark.ratio(f.msgsPerSubscriber, a.msgsPerSubscriber),
                        UdpBenchmark.ratio(f.msgsPerSubscriber, r.msgsPerSubscriber),
                        UdpBenchmark.ratio(f.slowestSlice, r.slowestSlice),
                        udpMBps[i], UdpBenchmark.ratio(fMB, udpMBps[i]));
            }
        }
    }

    private void plot(ResultTable table, Set<Baseline> measured, boolean severalCaps) throws Exception {
        List<String> categories = new ArrayList<>();
        for (List<Object> row : table.rows()) {
            categories.add(UdpBenchmark.sizeLabel(((Long) row.get(1)).intValue()) + ", N=" + row.get(2)
                    + (severalCaps ? ", rmem " + Quantities.formatBytes((Long) row.get(0)) : ""));
        }
        List<String> names = new ArrayList<>(List.of("FJM2"));
        List<double[]> series = new ArrayList<>(List.<double[]>of(table.column("fjm2_msgs_per_s")));
        if (measured.contains(Baseline.ARTEMIS)) {
            names.add("Artemis");
            series.add(table.column("artemis_msgs_per_s"));
        }
        if (measured.contains(Baseline.AERON)) {
            names.add("Aeron");
            series.add(table.column("aeron_msgs_per_s"));
        }
        Plot.bars(out.resolve("throughput.png"), "msgs/s per subscriber, 1 publisher -> N subscribers (loopback)",
                "message size, subscribers", "msgs/s per subscriber", categories, names, series);
    }
}
