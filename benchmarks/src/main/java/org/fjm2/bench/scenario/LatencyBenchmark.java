package org.fjm2.bench.scenario;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Callable;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.HdrHistogram.Histogram;
import org.fjm2.bench.aeron.AeronBaseline;
import org.fjm2.bench.aeron.AeronPublisher;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.bench.jms.ChildJvm;
import org.fjm2.bench.jms.ConnectionFactories;
import org.fjm2.bench.jms.LatencySubscriberMain;
import org.fjm2.bench.options.Baseline;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.options.RmemMaxOption;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.bench.udp.FixedRateSchedule;
import org.fjm2.bench.udp.RawUdp;
import org.fjm2.bench.udp.UdpEchoMain;
import org.fjm2.norm.transport.SocketBufferLimits;
import org.fjm2.util.Quantities;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench latency}: one-way latency at a fixed publishing rate, publisher in this JVM, receiver in a
 * child JVM, measured from the <em>intended</em> send time of each message (coordinated-omission aware; both JVMs
 * read CLOCK_MONOTONIC through System.nanoTime): FJM2, the embedded Artemis broker (in this JVM), Aeron (UDP
 * multicast, an embedded media driver in each JVM, {@link AeronBaseline}) and raw UDP multicast datagrams, all on the
 * same schedule. For reference, the round trip of a raw UDP ping-pong with a child JVM, one ping per slot of the
 * same schedule. With {@code --rmem-max}, every row is measured once per receive buffer cap.
 */
@Command(name = "latency", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"One-way latency at a fixed rate (HdrHistogram p50/p99/p99.9/max, coordinated-omission aware): "
                + "FJM2 vs Artemis vs Aeron vs raw UDP, and a raw UDP ping-pong round trip; the ratio of FJM2's p99 to "
                + "each.",
                "Aeron: UDP multicast on the same interface, an embedded Java media driver in the publisher's and in "
                        + "the receiver's JVM (SHARED threading, BackoffIdleStrategy), 8 KiB MTU, socket buffers as "
                        + "net.core.rmem_max allows (up to 8 MiB), min flow control; the same burst, warm-up and "
                        + "schedule as FJM2."})
public final class LatencyBenchmark implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--rate", defaultValue = "10000", description = "Messages per second. Default: ${DEFAULT-VALUE}.")
    double rate;

    @Option(names = "--seconds", converter = QuantityConverters.Seconds.class, defaultValue = "20", description = "Measured seconds per system (quick: 3). Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--warmup", converter = QuantityConverters.Seconds.class, defaultValue = "10", description = "Warm-up seconds per system at the fixed rate, not recorded (quick: 1). Default: ${DEFAULT-VALUE}.")
    double warmup;

    @Option(names = "--warmup-burst", defaultValue = "" + DEFAULT_BURST, description = "Messages each system (JMS, "
            + "Aeron) and the ping-pong first exchange back to back, not recorded, so that the JIT compilers of both JVMs are done "
            + "with the hot paths before the paced warm-up (quick: " + QUICK_BURST + "). Default: ${DEFAULT-VALUE}.")
    long warmupBurst;

    @Option(names = "--size", converter = QuantityConverters.Bytes.class, defaultValue = "100", description = "Message body / datagram bytes (16..65507). Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--quick", description = "3 s measured after 1 s of warm-up per system: under a minute.")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--group", defaultValue = "239.255.77.3", description = "Multicast group. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    @Option(names = "--fjm2-params", defaultValue = ThroughputBenchmark.FJM2_PARAMS,
            description = "Extra norm:// URL parameters. Default: ${DEFAULT-VALUE} (as in throughput).")
    String fjm2Params;

    @Option(names = "--child-jvm-option", description = "Option of the receiver's JVM, repeatable.")
    List<String> childJvmOptions = new ArrayList<>();

    @Option(names = "--baselines", split = ",", defaultValue = Baseline.ALL,
            paramLabel = "NAME",
            description = "Baselines measured beside FJM2: artemis (embedded broker), udp (raw UDP multicast one-way "
                    + "and the raw UDP ping-pong), aeron (Aeron UDP multicast); none: FJM2 alone. Default: ${DEFAULT-VALUE}.")
    List<String> baselines;

    @Option(names = "--aeron-group", defaultValue = "239.255.77.35",
            description = "Aeron's multicast data group: its last byte odd (Aeron sends control to the next address). "
                    + "Default: ${DEFAULT-VALUE}.")
    String aeronGroup;

    @Mixin
    RmemMaxOption rmemMax;

    static final String TOPIC = "bench.latency";
    static final double QUICK_SECONDS = 3;
    static final double QUICK_WARMUP = 1;
    /**
     * At 10,000 msg/s a JVM goes on compiling for tens of seconds (paths run once per batch or per acknowledgement
     * round reach the C2 thresholds late), and on 2 cores a compiler thread busy for 2-5 ms holds a woken event-loop
     * thread in its run queue: the p99 measured the JIT, not the messaging. A burst reaches the thresholds in a second.
     */
    static final long DEFAULT_BURST = 200_000;
    static final long QUICK_BURST = 20_000;
    /** The smallest message: seq and intended send time, two longs, in a raw datagram. */
    static final int MIN_SIZE = 16;
    /** A ping whose answer takes longer than this is counted lost. */
    static final int PING_TIMEOUT_MILLIS = 1000;
    /** Time between starting the schedule and its first slot, so the first message is not already late. */
    static final long SCHEDULE_DELAY_NANOS = 10_000_000;
    static final Duration CHILD_TIMEOUT = Duration.ofSeconds(60);

    /** One system's figures, microseconds; sendLateMax: how far behind its schedule the publisher fell at worst. */
    record Row(String system, long received, long lost, double p50, double p99, double p999, double max,
               double sendLateMax) {
    }

    /** Sends message {@code seq} stamped with its intended send time. */
    interface Sender {
        void send(long seq, long intendedNanos) throws Exception;

        /** Waits until the receiver can receive, where the transport tells (Aeron); the others need not. */
        default void awaitReceiver() throws Exception {
        }
    }

    /** A row measured under a receive buffer cap (0: unknown). */
    record CappedRow(long rmemMax, Row row) {
    }

    /** Row names. */
    static final String UDP_ONE_WAY = "raw UDP multicast one-way";
    static final String FJM2 = "FJM2";
    static final String ARTEMIS = "Artemis";
    static final String AERON = "Aeron";
    static final String PING_PONG = "raw UDP ping-pong RTT";

    @Override
    public Integer call() throws Exception {
        if (quick) {
            CommandLine.ParseResult parsed = spec.commandLine().getParseResult();
            seconds = parsed.hasMatchedOption("--seconds") ? seconds : QUICK_SECONDS;
            warmup = parsed.hasMatchedOption("--warmup") ? warmup : QUICK_WARMUP;
            warmupBurst = parsed.hasMatchedOption("--warmup-burst") ? warmupBurst : QUICK_BURST;
        }
        require(rate > 0 && rate <= 1_000_000, "--rate must be in (0, 1000000]: " + rate);
        require(seconds > 0, "--seconds must be positive: " + seconds);
        require(warmup >= 0, "--warmup must not be negative: " + warmup);
        require(warmupBurst >= 0, "--warmup-burst must not be negative: " + warmupBurst);
        require(size >= MIN_SIZE && size <= RawUdp.MAX_DATAGRAM, "--size must be in " + MIN_SIZE + ".." + RawUdp.MAX_DATAGRAM);
        Set<Baseline> measured;
        try {
            measured = Baseline.parse(baselines);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (measured.contains(Baseline.AERON)) {
            require(AeronBaseline.isDataGroup(aeronGroup), "--aeron-group: " + aeronGroup + " is not an IPv4 "
                    + "multicast group whose last byte is odd and below 255");
        }
        rmemMax.validate(spec.commandLine());
        String fjm2ParamsOption = fjm2Params;
        int caps = Math.max(1, rmemMax.caps().length);
        ProgressBar progress = new ProgressBar("latency", caps * (1L + measured.size()
                + (measured.contains(Baseline.UDP) ? 1 : 0)));
        List<CappedRow> all = new ArrayList<>();
        List<String> summaries = new ArrayList<>();
        rmemMax.forEachCap(System.out, cap -> {
            String params = ThroughputBenchmark.FJM2_PARAMS.equals(fjm2ParamsOption)
                    ? ThroughputBenchmark.loopbackParams(cap) : fjm2ParamsOption;
            List<Row> rows = measureRows(cap, params, measured, progress);
            rows.forEach(r -> all.add(new CappedRow(cap.orElse(0), r)));
            summaries.add((rmemMax.isSet() ? "rmem_max " + cap.orElse(0) + ": " : "") + ratios(rows));
        });
        ResultTable table = table(all);
        table.print(System.out);
        System.out.println();
        summaries.forEach(System.out::println);
        System.out.printf("%,.0f msg/s of %d B, %.1f s recorded after a burst of %,d (JMS, Aeron, ping-pong) and %.1f s "
                + "of warm-up; latency from the intended send time, microseconds; send_late_max_us: the publisher's "
                + "worst lag behind its schedule after a send (large: the system did not sustain the rate); "
                + "rmem_max_B: net.core.rmem_max during the row (0: unknown)%n", rate, size, seconds, warmupBurst, warmup);
        table.writeCsv(out.resolve("latency.csv"));
        boolean severalCaps = caps > 1;
        Plot.bars(out.resolve("latency.png"), String.format("One-way latency at %,.0f msg/s, %d B (loopback)", rate, size),
                "percentile", "microseconds", List.of("p50", "p99", "p99.9"),
                all.stream().map(c -> c.row().system() + (severalCaps
                        ? ", rmem " + Quantities.formatBytes(c.rmemMax()) : "")).toList(),
                all.stream().map(c -> new double[]{c.row().p50, c.row().p99, c.row().p999}).toList());
        System.out.println("wrote " + out.resolve("latency.csv") + " and " + out.resolve("latency.png"));
        return 0;
    }

    /** Every row under one receive buffer cap, in table order. */
    private List<Row> measureRows(OptionalLong cap, String params, Set<Baseline> measured, ProgressBar progress)
            throws Exception {
        long pacedWarmup = (long) (warmup * rate);
        long measuredCount = (long) (seconds * rate);
        int port = UdpBenchmark.basePort() + 30;
        List<Row> rows = new ArrayList<>();
        String udpUrl = "udp://" + group + ":" + port + "?interface=" + interfaceName;
        if (measured.contains(Baseline.UDP)) {
            try (DatagramChannel tx = RawUdp.sender(true, group, interfaceName, port)) {
                ByteBuffer buf = ByteBuffer.allocateDirect(size);
                // no burst: an unreliable receiver would drop part of it, and its few methods compile in the paced warm-up
                rows.add(oneWay(UDP_ONE_WAY, udpUrl, TOPIC, childJvmOptions, new Phases(0, pacedWarmup, measuredCount),
                        (seq, t) -> {
                            buf.clear();
                            buf.putLong(0, seq).putLong(8, t);
                            tx.write(buf);
                        }));
            }
            progress.step("raw UDP one-way");
        }
        Phases phases = new Phases(warmupBurst, pacedWarmup, measuredCount);
        rows.add(jms(FJM2, "norm://" + group + ":" + (port + 1) + "?interface=" + interfaceName
                + (params.isEmpty() ? "" : "&" + params), phases));
        progress.step("FJM2");
        if (measured.contains(Baseline.ARTEMIS)) {
            try (EmbeddedArtemis broker = EmbeddedArtemis.start(port + 2)) {
                rows.add(jms(ARTEMIS, broker.url(), phases));
            }
            progress.step("Artemis");
        }
        if (measured.contains(Baseline.AERON)) {
            String address = AeronBaseline.interfaceAddress(interfaceName);
            String subscription = AeronBaseline.subscriptionChannel(aeronGroup, port + 4, address, cap);
            String publication = AeronBaseline.publicationChannel(aeronGroup, port + 4, address, 1, cap,
                    SocketBufferLimits.cap(SocketBufferLimits.WMEM_MAX), size);
            System.out.println("Aeron: publication " + publication + ", subscription " + subscription);
            rows.add(aeron(subscription, publication, phases));
            progress.step("Aeron");
        }
        if (measured.contains(Baseline.UDP)) {
            rows.add(pingPong(port + 3, phases));
            progress.step("raw UDP ping-pong");
        }
        return rows;
    }

    /** FJM2's p99 over each other row's, one line. */
    static String ratios(List<Row> rows) {
        Row fjm2 = find(rows, FJM2).orElseThrow();
        List<String> parts = new ArrayList<>();
        for (String other : List.of(ARTEMIS, AERON, UDP_ONE_WAY, PING_PONG)) {
            find(rows, other).ifPresent(r -> parts.add(String.format(Locale.ROOT, "FJM2 p99 / %s p99 = %.2f", other,
                    UdpBenchmark.ratio(fjm2.p99, r.p99))));
        }
        return parts.isEmpty() ? "FJM2 only (no baseline measured)" : String.join("; ", parts);
    }

    private static Optional<Row> find(List<Row> rows, String system) {
        return rows.stream().filter(r -> r.system.equals(system)).findFirst();
    }

    private void require(boolean ok, String message) {
        if (!ok) {
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }

    /** Aeron: a publication in this JVM, the receiver's embedded driver and subscription in the child. */
    private Row aeron(String subscriptionChannel, String publicationChannel, Phases phases) throws Exception {
        try (AeronPublisher publisher = new AeronPublisher(publicationChannel, AeronBaseline.STREAM_ID)) {
            return oneWay(AERON, subscriptionChannel, String.valueOf(AeronBaseline.STREAM_ID), childJvmOptions, phases,
                    new Sender() {
                        @Override
                        public void send(long seq, long intendedNanos) {
                            publisher.send(seq, intendedNanos, size);
                        }

                        @Override
                        public void awaitReceiver() throws Exception {
                            publisher.awaitSubscribers(CHILD_TIMEOUT);
                        }
                    });
        }
    }

    private Row jms(String system, String url, Phases phases) throws Exception {
        try (Connection connection = ConnectionFactories.forUrl(url).createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createTopic(TOPIC));
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            byte[] body = new byte[size];
            return oneWay(system, url, TOPIC, childJvmOptions, phases, (seq, t) -> {
                BytesMessage m = session.createBytesMessage();
                m.writeBytes(body);
                m.setLongProperty("seq", seq);
                m.setLongProperty("t", t);
                producer.send(m);
            });
        }
    }

    /**
     * Publishes the burst back to back, then the rest of the messages on the fixed-rate schedule, to a receiver in a
     * child JVM that records those after the warm-up.
     */
    private Row oneWay(String system, String url, String topic, List<String> jvmOptions, Phases phases, Sender sender)
            throws Exception {
        try (ChildJvm child = ChildJvm.start(LatencySubscriberMain.class, jvmOptions, url, topic,
                String.valueOf(phases.unrecorded()), String.valueOf(phases.total()))) {
            child.await("READY", CHILD_TIMEOUT);
            sender.awaitReceiver();
            for (long i = 0; i < phases.burst(); i++) {
                sender.send(i, System.nanoTime());
            }
            FixedRateSchedule schedule = new FixedRateSchedule(rate, SCHEDULE_DELAY_NANOS);
            long sendLateMax = 0;
            for (long i = phases.burst(); i < phases.total(); i++) {
                long intended = schedule.awaitSlot(i - phases.burst());
                sender.send(i, intended);
                // a send() held back by flow control shows here: the system did not keep up with the rate
                sendLateMax = Math.max(sendLateMax, System.nanoTime() - intended);
            }
            child.send("END");
            String[] r = child.await("RESULT", CHILD_TIMEOUT).split(" ");
            return new Row(system, Long.parseLong(r[1]), Long.parseLong(r[2]) + Long.parseLong(r[3]),
                    Double.parseDouble(r[4]), Double.parseDouble(r[5]), Double.parseDouble(r[6]),
                    Double.parseDouble(r[7]), sendLateMax / 1e3);
        }
    }

    /**
     * A raw UDP ping-pong with an echo in a child JVM, one ping per slot of the same schedule (a late answer delays
     * the next ping): round-trip time from the actual send, the reference for what a wake-up costs here.
     */
    private Row pingPong(int port, Phases phases) throws Exception {
        Histogram histogram = new Histogram(60_000_000_000L, 3);
        long received = 0;
        long sendLateMax = 0;
        try (ChildJvm echo = ChildJvm.start(UdpEchoMain.class, childJvmOptions, String.valueOf(port));
             DatagramSocket socket = new DatagramSocket()) {
            echo.await("READY", CHILD_TIMEOUT);
            socket.setSoTimeout(PING_TIMEOUT_MILLIS);
            socket.connect(InetAddress.getLoopbackAddress(), port);
            byte[] out = new byte[size];
            DatagramPacket ping = new DatagramPacket(out, size);
            DatagramPacket pong = new DatagramPacket(new byte[RawUdp.MAX_DATAGRAM], RawUdp.MAX_DATAGRAM);
            for (long i = 0; i < phases.burst(); i++) {
                if (exchange(socket, ping, pong) >= 0) {
                    received++;
                }
            }
            FixedRateSchedule schedule = new FixedRateSchedule(rate, SCHEDULE_DELAY_NANOS);
            for (long i = phases.burst(); i < phases.total(); i++) {
                long intended = schedule.awaitSlot(i - phases.burst());
                sendLateMax = Math.max(sendLateMax, System.nanoTime() - intended);
                long rtt = exchange(socket, ping, pong);
                if (rtt >= 0) {
                    received++;
                    if (i >= phases.unrecorded()) {
                        histogram.recordValue(rtt);
                    }
                }
            }
        }
        return new Row(PING_PONG, received, phases.total() - received, histogram.getValueAtPercentile(50) / 1e3,
                histogram.getValueAtPercentile(99) / 1e3, histogram.getValueAtPercentile(99.9) / 1e3,
                histogram.getMaxValue() / 1e3, sendLateMax / 1e3);
    }

    /** One ping and its answer: the round trip in nanoseconds from the actual send, or -1 when none came back. */
    private static long exchange(DatagramSocket socket, DatagramPacket ping, DatagramPacket pong) throws IOException {
        long sent = System.nanoTime();
        socket.send(ping);
        try {
            socket.receive(pong);
        } catch (SocketTimeoutException e) {
            return -1;
        }
        return System.nanoTime() - sent;
    }

    /** Messages per system: a back-to-back burst, then the paced warm-up, then the measured ones, numbered on. */
    record Phases(long burst, long pacedWarmup, long measured) {
        long unrecorded() {
            return burst + pacedWarmup;
        }

        long total() {
            return unrecorded() + measured;
        }
    }

    private static ResultTable table(List<CappedRow> rows) {
        ResultTable table = new ResultTable("Latency at a fixed rate on loopback, microseconds (one-way from the "
                + "intended send time; ping-pong: round trip)", "rmem_max_B", "system", "received", "lost", "p50_us",
                "p99_us", "p99_9_us", "max_us", "fjm2_p99_ratio", "send_late_max_us");
        for (CappedRow c : rows) {
            double fjm2P99 = rows.stream().filter(o -> o.rmemMax() == c.rmemMax() && o.row().system.equals(FJM2))
                    .findFirst().orElseThrow().row().p99;
            Row r = c.row();
            table.row(c.rmemMax(), r.system, r.received, r.lost, r.p50, r.p99, r.p999, r.max,
                    UdpBenchmark.ratio(fjm2P99, r.p99), r.sendLateMax);
        }
        return table;
    }
}
