package org.fjm2.bench.scenario;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fjm2.bench.mesh.MeshPeerMain;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.testkit.linkem.LinkemCommand;
import org.fjm2.testkit.netns.JavaProcess;
import org.fjm2.testkit.netns.NetNs;
import org.fjm2.testkit.netns.TestNetwork;
import org.fjm2.tunnel.tool.TunnelCommand;
import org.fjm2.util.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench mesh}: JMS across a three-LAN FJM2D mesh, the multi-process path users run. Three LANs in network
 * namespaces (a, b, c) joined only by a unicast router; on each LAN an {@code fjm2 tunnel} process (x1) with the two
 * others as peers, paced per peer; a JMS subscriber process on each LAN (x2) and a JMS publisher on LAN a (a3)
 * sending 1 KB messages as fast as flow control lets it. The table gives each LAN's end-to-end rate (messages/s
 * between its first and last message), its share of the per-peer pacing rate, and what was lost, once with direct WAN
 * legs and once with every leg through the userspace link emulator (delay and random loss each way, run in the router
 * namespace), plus the publisher's view (its rate, time blocked in send, evictions and squelches it logged). Needs
 * root (network namespaces); says so and exits 2 otherwise.
 */
@Command(name = "mesh", mixinStandardHelpOptions = true,
        description = "JMS across a three-LAN FJM2D mesh in network namespaces: end-to-end msg/s per LAN vs the "
                + "per-peer pacing rate, with direct and with emulated (delay, loss) WAN legs.")
public final class MeshBenchmark implements Callable<Integer> {

    static final String GROUP = "239.255.79.1:6007";
    static final int TUNNEL_PORT = 6004;
    static final int LINK_BASE_PORT = 9100;
    static final List<String> LANS = List.of("a", "b", "c");

    @Option(names = "--messages", defaultValue = "30000", description = "Messages published per run. Default: ${DEFAULT-VALUE}.")
    int messages;

    @Option(names = "--size", defaultValue = "1000", description = "Message body, bytes. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--pacing", defaultValue = "100m", description = "Tunnel pacing per peer. Default: ${DEFAULT-VALUE}.")
    String pacing;

    @Option(names = "--publisher-rate", defaultValue = "90m",
            description = "The publisher's NORM rate (a little under the pacing, which counts the tunnel's frame and "
                    + "IP/UDP headers). Default: ${DEFAULT-VALUE}.")
    String publisherRate;

    @Option(names = "--wan-delay", defaultValue = "20ms",
            description = "One-way delay of each emulated WAN leg (40 ms round trip). Default: ${DEFAULT-VALUE}.")
    String wanDelay;

    @Option(names = "--wan-loss", defaultValue = "1%", description = "Random loss each way of each emulated WAN leg. "
            + "Default: ${DEFAULT-VALUE}.")
    String wanLoss;

    @Option(names = "--modes", split = ",", defaultValue = "local,direct,wan",
            description = "local (the baseline: a subscriber on the publisher's LAN only, the tunnels running), "
                    + "direct (subscribers on every LAN, WAN legs through the router only), wan (the same through "
                    + "the link emulator). Default: ${DEFAULT-VALUE}.")
    List<String> modes;

    @Option(names = "--seed", defaultValue = "20261126", description = "Link emulator seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--url-options", defaultValue = "",
            description = "Extra JMS URL parameters for publisher and subscribers, e.g. maxHold=10 (for experiments).")
    String urlOptions;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Override
    public Integer call() throws Exception {
        if (NetNs.unavailableReason().isPresent()) {
            System.err.println("fjm2 bench mesh: needs network namespaces (root): "
                    + NetNs.unavailableReason().get());
            return 2;
        }
        long pacingBits = Quantities.rate("--pacing", pacing);
        Quantities.rate("--publisher-rate", publisherRate);
        Quantities.duration("--wan-delay", wanDelay);
        Quantities.loss("--wan-loss", wanLoss);
        Path key = Files.createTempFile("fjm2-mesh", ".key", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rw-------")));
        Files.writeString(key, "fjm2 bench mesh: a test key, not a secret");
        double pacingMessages = pacingBits / 8.0 / size;
        ResultTable table = new ResultTable(String.format(Locale.ROOT,
                "JMS across a 3-LAN FJM2D mesh: %d messages of %d B from LAN a, tunnels paced at %s per peer "
                        + "(%.0f msg/s of bodies), publisher at %s; wan = %s one way, %s loss each way",
                messages, size, pacing, pacingMessages, publisherRate, wanDelay, wanLoss),
                "mode", "lan", "received", "msg_per_s", "pct_of_pacing", "gaps", "lost", "seconds",
                "pub_msg_per_s", "pub_blocked_s", "evictions", "squelches", "tunnel_qdrop");
        ProgressBar progress = new ProgressBar("mesh", modes.size());
        List<double[]> rates = new ArrayList<>();
        try {
            for (String mode : modes) {
                if (!List.of("local", "direct", "wan").contains(mode)) {
                    throw new IllegalArgumentException("--modes: local, direct or wan, not " + mode);
                }
                double[] r = run(mode, key, pacingMessages, table);
                rates.add(r);
                progress.step(String.format(Locale.ROOT, "%s: a %.0f, b %.0f, c %.0f msg/s", mode, r[0], r[1], r[2]));
            }
        } finally {
            Files.deleteIfExists(key);
        }
        table.print(System.out);
        for (int m = 0; m < modes.size(); m++) {
            double[] r = rates.get(m);
            double slowest = modes.get(m).equals("local") ? r[0] : Math.min(r[0], Math.min(r[1], r[2]));
            System.out.printf(Locale.ROOT, "%s: slowest LAN at %.0f%% of the pacing rate%s%n", modes.get(m),
                    100 * slowest / pacingMessages, modes.contains("local") && !modes.get(m).equals("local")
                            ? String.format(Locale.ROOT, ", %.2fx the local baseline",
                            slowest / rates.get(modes.indexOf("local"))[0]) : "");
        }
        Files.createDirectories(out);
        table.writeCsv(out.resolve("mesh.csv"));
        List<String> series = new ArrayList<>(modes);
        series.add("pacing rate");
        List<double[]> values = new ArrayList<>(rates);
        values.add(new double[] {pacingMessages, pacingMessages, pacingMessages});
        Plot.bars(out.resolve("mesh.png"), "JMS msg/s per LAN across a 3-LAN FJM2D mesh (" + size + " B messages)",
                "LAN", "messages/s", List.of("a (publisher's)", "b", "c"), series, values);
        System.out.println("wrote " + out.resolve("mesh.csv") + " and " + out.resolve("mesh.png") + " (each process's "
                + "output in " + out.resolve("mesh-logs") + ")");
        return 0;
    }

    /** One run; returns the rates of LANs a, b, c (0 where no subscriber ran). */
    private double[] run(String mode, Path key, double pacingMessages, ResultTable table) throws Exception {
        boolean wan = mode.equals("wan");
        int subscribed = mode.equals("local") ? 1 : 3;
        List<JavaProcess> processes = new ArrayList<>();
        try (TestNetwork net = TestNetwork.lansWithRouter(3, 3)) {
            List<JavaProcess> tunnels = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                List<String> args = new ArrayList<>(List.of("--group", GROUP, "--interface", "eth0", "--listen",
                        String.valueOf(TUNNEL_PORT), "--key-file", key.toString(), "--rate", pacing,
                        "--state-dir", key.getParent().resolve("fjm2-mesh-state").toString(),
                        "--status-interval", "2s"));
                for (int j = 0; j < 3; j++) {
                    if (j == i) {
                        continue;
                    }
                    if (!wan) {
                        args.addAll(List.of("--peer", net.host(LANS.get(j) + "1").address() + ":" + TUNNEL_PORT));
                    } else if (j > i) {
                        // Leg i-j through the emulator in the router: i calls, j learns i from its authentic traffic.
                        args.addAll(List.of("--peer", routerAddress(i) + ":" + linkPort(i, j)));
                    }
                }
                if (wan && i > 0) {
                    args.add("--accept-unlisted");
                }
                JavaProcess t = net.host(LANS.get(i) + "1").startJava(TunnelCommand.class, args.toArray(new String[0]));
                tunnels.add(t);
                processes.add(t);
            }
            if (wan) {
                for (int i = 0; i < 3; i++) {
                    for (int j = i + 1; j < 3; j++) {
                        processes.add(net.host("r").startJava(LinkemCommand.class, "--mode", "udp", "--listen",
                                ":" + linkPort(i, j), "--target", net.host(LANS.get(j) + "1").address() + ":"
                                        + TUNNEL_PORT, "--delay", wanDelay, "--loss", wanLoss, "--seed",
                                String.valueOf(seed + 10 * i + j), "--status-interval", "0"));
                    }
                }
            }
            for (JavaProcess t : tunnels) {
                t.awaitLine(Pattern.compile("^fjm2d .* ready.*"), Duration.ofSeconds(60));
            }
            String url = "norm://" + GROUP + "?interface=eth0" + (urlOptions.isBlank() ? "" : "&" + urlOptions);
            List<JavaProcess> subscribers = new ArrayList<>();
            for (String lan : LANS.subList(0, subscribed)) {
                JavaProcess s = net.host(lan + "2").startJava(MeshPeerMain.class, "sub",
                        url + "&consumerQueueMessages=1000000", String.valueOf(messages), "30");
                subscribers.add(s);
                processes.add(s);
            }
            for (JavaProcess s : subscribers) {
                s.awaitLine(Pattern.compile("^READY"), Duration.ofSeconds(60));
            }
            awaitPeersAnswering(tunnels);
            JavaProcess publisher = net.host("a3").startJava(MeshPeerMain.class, "pub", url + "&rate=" + publisherRate,
                    String.valueOf(messages), String.valueOf(size));
            processes.add(publisher);
            double[] rates = new double[3];
            String[] results = new String[3];
            for (int i = 0; i < subscribed; i++) {
                results[i] = subscribers.get(i).awaitLine(Pattern.compile("^RESULT"), Duration.ofSeconds(600));
                rates[i] = number(results[i], "rate");
            }
            String sent = publisher.awaitLine(Pattern.compile("^SENT"), Duration.ofSeconds(120));
            List<String> publisherLines = publisher.allLines();
            long evictions = publisherLines.stream().filter(l -> l.contains("evicted")).count();
            long squelches = publisherLines.stream().filter(l -> l.toLowerCase(Locale.ROOT).contains("squelch")).count();
            double pubRate = messages / number(sent, "seconds");
            for (int i = 0; i < subscribed; i++) {
                String status = lastStatus(tunnels.get(i));
                table.row(mode, LANS.get(i), (long) number(results[i], "received"), rates[i],
                        100 * rates[i] / pacingMessages, (long) number(results[i], "gaps"),
                        (long) number(results[i], "lost"), number(results[i], "seconds"), pubRate,
                        number(sent, "blocked_s"), evictions, squelches, qdrops(status));
                System.out.println("tunnel " + LANS.get(i) + ": " + status);
            }
            return rates;
        } finally {
            Path logs = out.resolve("mesh-logs");
            Files.createDirectories(logs);
            for (JavaProcess p : processes) {
                p.close();
                List<String> log = new ArrayList<>(p.allLines());
                log.addAll(p.stderrTail());
                Files.write(logs.resolve(mode + "-" + p.toString().replaceAll("[^A-Za-z0-9@.-]", "_") + ".log"), log);
            }
        }
    }

    /** How often the daemons' status lines are looked at while waiting for their peers to answer. */
    private static final long STATUS_POLL_MILLIS = 200;

    /** Waits until each daemon logged a status line in which every peer answers (at most 60 s). */
    private static void awaitPeersAnswering(List<JavaProcess> tunnels) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        for (JavaProcess t : tunnels) {
            while (System.nanoTime() - deadline < 0) {
                String s = lastStatus(t);
                if (s.split("\\| ").length == 3 && !s.contains(" waiting ") && !s.contains(" silent ")) {
                    break;
                }
                Thread.sleep(STATUS_POLL_MILLIS);
            }
        }
    }

    private static String lastStatus(JavaProcess t) {
        List<String> lines = t.stderrTail().stream().filter(l -> l.contains(": lan in ")).toList();
        return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
    }

    private static long qdrops(String status) {
        Matcher m = Pattern.compile("qdrop (\\d+)").matcher(status);
        long sum = 0;
        while (m.find()) {
            sum += Long.parseLong(m.group(1));
        }
        return sum;
    }

    private static double number(String line, String name) {
        Matcher m = Pattern.compile(name + "=([0-9.]+)").matcher(line);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in: " + line);
        }
        return Double.parseDouble(m.group(1));
    }

    private static String routerAddress(int lan) {
        return TestNetwork.SUBNET_BASE + "." + (lan + 1) + ".254";
    }

    private static int linkPort(int i, int j) {
        return LINK_BASE_PORT + 10 * i + j;
    }
}
