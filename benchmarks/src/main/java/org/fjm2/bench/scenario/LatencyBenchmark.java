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
import java.util.concurrent.Callable;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.HdrHistogram.Histogram;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.bench.jms.ChildJvm;
import org.fjm2.bench.jms.ConnectionFactories;
import org.fjm2.bench.jms.LatencySubscriberMain;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.bench.udp.FixedRateSchedule;
import org.fjm2.bench.udp.RawUdp;
import org.fjm2.bench.udp.UdpEchoMain;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench latency}: one-way latency at a fixed publishing rate, publisher in this JVM, receiver in a
 * child JVM, measured from the <em>intended</em> send time of each message (coordinated-omission aware; both JVMs
 * read CLOCK_MONOTONIC through System.nanoTime): FJM2, the embedded Artemis broker (in this JVM), and raw UDP
 * multicast datagrams at the same rate. For reference, the round trip of a raw UDP ping-pong with a child JVM,
 * one ping per slot of the same schedule.
 */
@Command(name = "latency", mixinStandardHelpOptions = true,
        description = "One-way latency at a fixed rate (HdrHistogram p50/p99/p99.9/max, coordinated-omission aware): "
                + "FJM2 vs Artemis vs raw UDP, and a raw UDP ping-pong round trip.")
public final class LatencyBenchmark implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--rate", defaultValue = "10000", description = "Messages per second. Default: ${DEFAULT-VALUE}.")
    double rate;

    @Option(names = "--seconds", converter = QuantityConverters.Seconds.class, defaultValue = "20", description = "Measured seconds per system (quick: 3). Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--warmup", converter = QuantityConverters.Seconds.class, defaultValue = "10", description = "Warm-up seconds per system at the fixed rate, not recorded (quick: 1). Default: ${DEFAULT-VALUE}.")
    double warmup;

    @Option(names = "--warmup-burst", defaultValue = "" + DEFAULT_BURST, description = "Messages each JMS system and "
            + "the ping-pong first exchange back to back, not recorded, so that the JIT compilers of both JVMs are done "
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
    }

    @Override
    public Integer call() throws Exception {
        fjm2Params = ThroughputBenchmark.resolveParams(fjm2Params);
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
        long pacedWarmup = (long) (warmup * rate);
        long measured = (long) (seconds * rate);
        int port = UdpBenchmark.basePort() + 30;
        ProgressBar progress = new ProgressBar("latency", 4);
        List<Row> rows = new ArrayList<>();
        String udpUrl = "udp://" + group + ":" + port + "?interface=" + interfaceName;
        try (DatagramChannel tx = RawUdp.sender(true, group, interfaceName, port)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(size);
            // no burst: an unreliable receiver would drop part of it, and its few methods compile in the paced warm-up
            rows.add(oneWay("raw UDP multicast one-way", udpUrl, new Phases(0, pacedWarmup, measured), (seq, t) -> {
                buf.clear();
                buf.putLong(0, seq).putLong(8, t);
                tx.write(buf);
            }));
        }
        progress.step("raw UDP one-way");
        Phases phases = new Phases(warmupBurst, pacedWarmup, measured);
        rows.add(jms("FJM2", "norm://" + group + ":" + (port + 1) + "?interface=" + interfaceName + "&" + fjm2Params,
                phases));
        progress.step("FJM2");
        try (EmbeddedArtemis broker = EmbeddedArtemis.start(port + 2)) {
            rows.add(jms("Artemis", broker.url(), phases));
        }
        progress.step("Artemis");
        rows.add(pingPong(port + 3, phases));
        progress.step("raw UDP ping-pong");
        ResultTable table = table(rows);
        table.print(System.out);
        Row udp = rows.get(0);
        Row fjm2 = rows.get(1);
        Row artemis = rows.get(2);
        Row ping = rows.get(3);
        System.out.printf("%nFJM2 p99 / Artemis p99 = %.2f; FJM2 p99 / raw UDP one-way p99 = %.2f; "
                        + "FJM2 p99 / raw UDP ping-pong RTT p99 = %.2f%n", fjm2.p99 / artemis.p99, fjm2.p99 / udp.p99,
                fjm2.p99 / ping.p99);
        System.out.printf("%,.0f msg/s of %d B, %.1f s recorded after a burst of %,d (JMS, ping-pong) and %.1f s of "
                + "warm-up; latency from the intended send time, microseconds; send_late_max_us: the publisher's worst "
                + "lag behind its schedule after a send (large: the system did not sustain the rate)%n", rate, size,
                seconds, warmupBurst, warmup);
        table.writeCsv(out.resolve("latency.csv"));
        Plot.bars(out.resolve("latency.png"), String.format("One-way latency at %,.0f msg/s, %d B (loopback)", rate, size),
                "percentile", "microseconds", List.of("p50", "p99", "p99.9"),
                rows.stream().map(Row::system).toList(),
                rows.stream().map(r -> new double[]{r.p50, r.p99, r.p999}).toList());
        System.out.println("wrote " + out.resolve("latency.csv") + " and " + out.resolve("latency.png"));
        return 0;
    }

    private void require(boolean ok, String message) {
        if (!ok) {
            throw new CommandLine.ParameterException(spec.commandLine(), message);
        }
    }

    private Row jms(String system, String url, Phases phases) throws Exception {
        try (Connection connection = ConnectionFactories.forUrl(url).createConnection()) {
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            MessageProducer producer = session.createProducer(session.createTopic(TOPIC));
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            byte[] body = new byte[size];
            return oneWay(system, url, phases, (seq, t) -> {
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
    private Row oneWay(String system, String url, Phases phases, Sender sender) throws Exception {
        try (ChildJvm child = ChildJvm.start(LatencySubscriberMain.class, childJvmOptions, url, TOPIC,
                String.valueOf(phases.unrecorded()), String.valueOf(phases.total()))) {
            child.await("READY", CHILD_TIMEOUT);
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
        return new Row("raw UDP ping-pong RTT", received, phases.total() - received, histogram.getValueAtPercentile(50) / 1e3,
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

    private static ResultTable table(List<Row> rows) {
        ResultTable table = new ResultTable("Latency at a fixed rate on loopback, microseconds (one-way from the "
                + "intended send time; ping-pong: round trip)", "system", "received", "lost", "p50_us", "p99_us",
                "p99_9_us", "max_us", "fjm2_p99_ratio", "send_late_max_us");
        double fjm2P99 = rows.get(1).p99;
        for (Row r : rows) {
            table.row(r.system, r.received, r.lost, r.p50, r.p99, r.p999, r.max, UdpBenchmark.ratio(fjm2P99, r.p99),
                    r.sendLateMax);
        }
        return table;
    }
}
