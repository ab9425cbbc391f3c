package org.fjm2.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Tiny runs of {@code fjm2 bench udp}, {@code throughput} and {@code latency}: each completes, writes its CSV and
 * PNG with the expected rows, and neither FJM2 nor the Aeron baseline loses a message. They send multicast on lo, so
 * they run only inside a named network namespace (as CI does); elsewhere they are skipped with the reason printed.
 */
class JmsScenariosTest {

    @TempDir
    Path out;

    @BeforeAll
    static void onlyInAPrivateNetworkNamespace() {
        Optional<String> reason = whyNotInPrivateNamespace();
        reason.ifPresent(r -> System.out.println("skipped: " + r));
        Assumptions.assumeTrue(reason.isEmpty(), () -> reason.orElse(""));
    }

    @Test
    void udpMeasuresUnicastAndMulticastPerSize() throws Exception {
        assertThat(run(new UdpBenchmark(), "--quick", "--sizes", "64,1400", "--seconds", "0.5",
                "--group", "239.255.77.101", "--out", out.toString())).isZero();
        List<Map<String, String>> rows = csv("udp");
        assertThat(rows).extracting(r -> r.get("mode") + "/" + r.get("size_B"))
                .containsExactly("\"unicast\"/64", "\"multicast\"/64", "\"unicast\"/1400", "\"multicast\"/1400");
        assertThat(rows).allSatisfy(r -> assertThat(number(r, "datagrams_per_s")).isPositive());
    }

    @Test
    void throughputComparesFjm2WithArtemisAndAeronWithoutLoss() throws Exception {
        assertThat(run(new ThroughputBenchmark(), "--subscribers", "2", "--sizes", "1024", "--warmup", "2",
                "--seconds", "2", "--group", "239.255.77.102", "--aeron-group", "239.255.77.111",
                "--out", out.toString())).isZero();
        List<Map<String, String>> rows = csv("throughput");
        assertThat(rows).hasSize(1);
        Map<String, String> row = rows.get(0);
        assertThat(row.get("size_B")).isEqualTo("1024");
        assertThat(row.get("subscribers")).isEqualTo("2");
        assertThat(number(row, "fjm2_lost")).as("FJM2 lost messages").isZero();
        assertThat(number(row, "fjm2_dups")).as("FJM2 duplicates").isZero();
        assertThat(number(row, "fjm2_msgs_per_s")).isPositive();
        assertThat(number(row, "artemis_msgs_per_s")).isPositive();
        assertThat(number(row, "aeron_lost")).as("Aeron lost messages").isZero();
        assertThat(number(row, "aeron_dups")).as("Aeron duplicates").isZero();
        assertThat(number(row, "aeron_msgs_per_s")).isPositive();
        assertThat(number(row, "fjm2_vs_aeron")).isPositive();
        assertThat(number(row, "udp_mcast_MB_per_s")).isPositive();
        assertThat(number(row, "rmem_max_B")).as("the cap in effect").isPositive();
    }

    @Test
    void throughputMeasuresOnlyTheBaselinesAskedFor() throws Exception {
        assertThat(run(new ThroughputBenchmark(), "--subscribers", "1", "--sizes", "16k", "--warmup", "0.5",
                "--seconds", "0.5", "--baselines", "aeron", "--group", "239.255.77.104",
                "--aeron-group", "239.255.77.113", "--out", out.toString())).isZero();
        Map<String, String> row = csv("throughput").get(0);
        assertThat(number(row, "aeron_msgs_per_s")).as("16 KB: two frames per message, reassembled").isPositive();
        assertThat(number(row, "aeron_lost")).isZero();
        assertThat(number(row, "aeron_dups")).isZero();
        assertThat(number(row, "artemis_msgs_per_s")).as("Artemis not asked for").isZero();
        assertThat(number(row, "udp_mcast_MB_per_s")).as("raw UDP not asked for").isZero();
    }

    @Test
    void latencyMeasuresEverySystemAtTheFixedRate() throws Exception {
        assertThat(run(new LatencyBenchmark(), "--rate", "2000", "--warmup", "0.3", "--seconds", "0.5",
                "--warmup-burst", "500", "--group", "239.255.77.103", "--aeron-group", "239.255.77.115",
                "--out", out.toString())).isZero();
        List<Map<String, String>> rows = csv("latency");
        assertThat(rows).extracting(r -> r.get("system")).containsExactly("\"raw UDP multicast one-way\"",
                "\"FJM2\"", "\"Artemis\"", "\"Aeron\"", "\"raw UDP ping-pong RTT\"");
        Map<String, String> fjm2 = rows.get(1);
        assertThat(number(fjm2, "lost")).as("FJM2 lost messages").isZero();
        assertThat(number(fjm2, "received")).as("burst 500 + 0.8 s at 2000 msg/s").isEqualTo(2100);
        Map<String, String> aeron = rows.get(3);
        assertThat(number(aeron, "lost")).as("Aeron: gaps, duplicates (out of order) and missing").isZero();
        assertThat(number(aeron, "received")).as("Aeron: the same burst and schedule").isEqualTo(2100);
        assertThat(number(aeron, "fjm2_p99_ratio")).isPositive();
        assertThat(number(rows.get(0), "received") + number(rows.get(0), "lost")).as("raw UDP: no burst")
                .isEqualTo(1600);
        assertThat(rows).allSatisfy(r -> assertThat(number(r, "p99_us")).isPositive());
    }

    @Test
    void badOptionsAreRefusedWithExitCode2() {
        assertThat(run(new UdpBenchmark(), "--sizes", "70000")).isEqualTo(2);
        assertThat(run(new ThroughputBenchmark(), "--subscribers", "0")).isEqualTo(2);
        assertThat(run(new ThroughputBenchmark(), "--sizes", "100,100")).isEqualTo(2);
        assertThat(run(new LatencyBenchmark(), "--rate", "0")).isEqualTo(2);
        assertThat(run(new LatencyBenchmark(), "--size", "8")).isEqualTo(2);
        assertThat(run(new LatencyBenchmark(), "--warmup-burst", "-1")).isEqualTo(2);
        assertThat(run(new ThroughputBenchmark(), "--baselines", "artemis,qpid")).isEqualTo(2);
        assertThat(run(new LatencyBenchmark(), "--baselines", "none,udp")).as("none stands alone").isEqualTo(2);
        assertThat(run(new ThroughputBenchmark(), "--aeron-group", "239.255.77.2")).as("even: Aeron's control address")
                .isEqualTo(2);
        assertThat(run(new LatencyBenchmark(), "--aeron-group", "10.0.0.1")).isEqualTo(2);
        assertThat(run(new ThroughputBenchmark(), "--rmem-max", "16k")).isEqualTo(2);
        assertThat(run(new LatencyBenchmark(), "--rmem-max", "4m,4m")).isEqualTo(2);
    }

    private static int run(Callable<Integer> command, String... args) {
        CommandLine cli = new CommandLine(command);
        cli.setErr(new PrintWriter(new StringWriter()));
        return cli.execute(args);
    }

    /** The rows of {@code NAME.csv} as column name to raw value, after checking that the PNG was written too. */
    private List<Map<String, String>> csv(String name) throws IOException {
        assertThat(Files.size(out.resolve(name + ".png"))).as(name + ".png").isPositive();
        List<String> lines = Files.readAllLines(out.resolve(name + ".csv"));
        List<String> header = Arrays.asList(lines.get(0).split(","));
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            String[] values = line.split(",");
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), values[i]);
            }
            rows.add(row);
        }
        return rows;
    }

    private static double number(Map<String, String> row, String column) {
        return Double.parseDouble(row.get(column));
    }

    /**
     * Empty when this process runs in a named network namespace ({@code ip netns exec NAME}, as CI and the build
     * instructions do), where multicast on lo stays private: its namespace is one of those under /run/netns.
     */
    static Optional<String> whyNotInPrivateNamespace() {
        try {
            String own = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
            Path named = Path.of("/run/netns");
            if (Files.isDirectory(named)) {
                try (var namespaces = Files.list(named)) {
                    for (Path ns : (Iterable<Path>) namespaces::iterator) {
                        if (own.equals("net:[" + Files.getAttribute(ns, "unix:ino") + "]")) {
                            return Optional.empty();
                        }
                    }
                }
            }
            return Optional.of("multicast tests run only inside a named network namespace (ip netns exec NAME ...), "
                    + "and " + own + " is none of those under /run/netns");
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return Optional.of("cannot tell the network namespace (needs Linux, root and ip netns): " + e);
        }
    }
}
