package org.fjm2.bench.scenario;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.testkit.linkem.LinkEmulator;
import org.fjm2.testkit.linkem.LinkProfile;
import org.fjm2.testkit.linkem.LinkStats;
import org.fjm2.testkit.linkem.UdpRelay;
import org.fjm2.tunnel.TunnelConfig;
import org.fjm2.tunnel.TunnelDaemon;
import org.fjm2.tunnel.relay.RelayCounters;
import org.fjm2.tunnel.security.TunnelKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench tunnel-wan}: FJM2D over a lossy WAN. Two LANs on loopback (a NORM sender on LAN A, a receiver
 * on LAN B), each with its FJM2D, joined only through the userspace link emulator (rate, delay and random loss each
 * way). The sender sends a fixed amount of data; the table gives the goodput at the receiver, its share of the link
 * rate and the completion time, with plain relaying (every NACK to the sender) and with hop-by-hop repair (the
 * daemon on the sender's side answers NACKs from its cache), plus the same transfer over a loss-free link as the
 * baseline of the same run. It also reports the bytes allocated on the two daemons' event-loop threads per packet
 * relayed (ThreadMXBean allocation counters).
 */
@Command(name = "tunnel-wan", mixinStandardHelpOptions = true,
        description = "FJM2D over a lossy WAN (link emulator): goodput and completion time, plain relaying vs "
                + "hop-by-hop repair, against a loss-free baseline.")
public final class TunnelWanBenchmark implements Callable<Integer> {

    @Option(names = "--link-rate", converter = QuantityConverters.BitRate.class, defaultValue = "50000000", description = "WAN rate, bit/s. Default: ${DEFAULT-VALUE}.")
    long linkRate;

    @Option(names = "--rtt", converter = QuantityConverters.Millis.class, defaultValue = "40ms",
            description = "WAN round-trip time (40ms, 0.1s). Default: ${DEFAULT-VALUE}.")
    int rttMillis;

    @Option(names = "--loss", converter = QuantityConverters.Loss.class, defaultValue = "0.02", description = "Random loss each way (0..1). Default: ${DEFAULT-VALUE}.")
    double loss;

    @Option(names = "--sender-rate", defaultValue = "0.9",
            description = "Sender rate as a share of the link rate. Default: ${DEFAULT-VALUE}.")
    double senderShare;

    @Option(names = "--megabytes", defaultValue = "40", description = "Data sent per run, MB. Default: ${DEFAULT-VALUE}.")
    int megabytes;

    @Option(names = "--object-size", converter = QuantityConverters.Bytes.class, defaultValue = "65536", description = "Object size, bytes. Default: ${DEFAULT-VALUE}.")
    int objectSize;

    @Option(names = "--runs", defaultValue = "2", description = "Runs per mode (the table shows each). Default: ${DEFAULT-VALUE}.")
    int runs;

    @Option(names = "--seed", defaultValue = "20261122", description = "Link emulator seed. Default: ${DEFAULT-VALUE}.")
    long seed;

    @Option(names = "--quick", description = "Short runs (10 MB, one run per mode).")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    private static final TunnelKey KEY = TunnelKey.of("tunnel-wan benchmark key, not secret"
            .getBytes(StandardCharsets.UTF_8));

    private int nextGroup = (int) (ProcessHandle.current().pid() % 200);

    @Override
    public Integer call() throws Exception {
        if (quick) {
            megabytes = Math.min(megabytes, 10);
            runs = 1;
        }
        if (loss < 0 || loss >= 1 || senderShare <= 0 || senderShare > 1 || megabytes < 1 || runs < 1) {
            throw new IllegalArgumentException("--loss must be 0..1, --sender-rate 0..1, --megabytes and --runs >= 1");
        }
        String[] modes = {"no loss (baseline)", "plain relaying", "hop-by-hop repair"};
        ProgressBar progress = new ProgressBar("tunnel-wan", (long) modes.length * runs);
        ResultTable table = new ResultTable(String.format(Locale.ROOT,
                "FJM2D over a WAN of %.0f Mbit/s, %d ms RTT, %.1f%% loss each way; sender at %.0f%% of the link; %d MB "
                        + "in %d KB objects", linkRate / 1e6, rttMillis, loss * 100, senderShare * 100, megabytes,
                objectSize / 1024),
                "mode", "run", "goodput_Mbit_s", "pct_of_link", "completion_s", "sender_repairs", "sender_nacks",
                "cache_repairs", "wan_lost_fwd", "wan_lost_rev", "queue_drops", "alloc_B_per_pkt");
        List<double[]> goodputs = new ArrayList<>();
        for (int m = 0; m < modes.length; m++) {
            double[] g = new double[runs];
            for (int r = 0; r < runs; r++) {
                Result res = measure(m == 0 ? 0 : loss, m == 2, seed + r);
                g[r] = res.goodputMbps;
                table.row(modes[m], (long) (r + 1), res.goodputMbps, 100 * res.goodputMbps * 1e6 / linkRate,
                        res.seconds, res.senderRepairs, res.senderNacks, res.cacheRepairs, res.lostForward,
                        res.lostReverse, res.queueDrops, res.allocPerPacket);
                progress.step(String.format(Locale.ROOT, "%s run %d: %.1f Mbit/s", modes[m], r + 1, res.goodputMbps));
            }
            goodputs.add(g);
        }
        table.print(System.out);
        double plain = mean(goodputs.get(1));
        double hop = mean(goodputs.get(2));
        System.out.printf(Locale.ROOT, "%nhop-by-hop vs plain relaying: %.2fx goodput; hop-by-hop delivers %.0f%% of "
                + "the link rate (baseline without loss: %.0f%%)%n", hop / plain, 100 * hop * 1e6 / linkRate,
                100 * mean(goodputs.get(0)) * 1e6 / linkRate);
        table.writeCsv(out.resolve("tunnel-wan.csv"));
        double[] means = {mean(goodputs.get(0)), plain, hop};
        double[] link = {linkRate / 1e6, linkRate / 1e6, linkRate / 1e6};
        Plot.bars(out.resolve("tunnel-wan.png"), String.format(Locale.ROOT,
                        "FJM2D goodput over %.0f Mbit/s, %d ms RTT, %.1f%% loss", linkRate / 1e6, rttMillis, loss * 100),
                "mode", "Mbit/s", List.of(modes), List.of("goodput (mean of runs)", "link rate"), List.of(means, link));
        System.out.println("wrote " + out.resolve("tunnel-wan.csv") + " and " + out.resolve("tunnel-wan.png"));
        return 0;
    }

    record Result(double goodputMbps, double seconds, long senderRepairs, long senderNacks, long cacheRepairs,
                  long lostForward, long lostReverse, long queueDrops, double allocPerPacket) {
    }

    private Result measure(double lossRate, boolean hopByHop, long linkSeed) throws Exception {
        int n = nextGroup++;
        NormConfig lanA = lan(n, 0);
        NormConfig lanB = lan(n, 1);
        int objects = (int) ((long) megabytes * 1_000_000 / objectSize);
        LinkProfile wan = LinkProfile.builder().rate(linkRate).delay(Duration.ofMillis(rttMillis / 2)).loss(lossRate)
                .queueLimit(256 * 1024).build();
        CountDownLatch done = new CountDownLatch(objects);
        AtomicLong bytes = new AtomicLong();
        AtomicLong lost = new AtomicLong();
        NormListener receiver = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                bytes.addAndGet(data.readableBytes());
                done.countDown();
            }

            @Override
            public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
                lost.incrementAndGet();
                done.countDown();
            }
        };
        try (TunnelDaemon a = tunnel(lanA, "bench-a", hopByHop, false);
             TunnelDaemon b = tunnel(lanB, "bench-b", hopByHop, true);
             UdpRelay link = (UdpRelay) LinkEmulator.udpRelay(new InetSocketAddress("127.0.0.1", 0),
                     new InetSocketAddress("127.0.0.1", b.listenPort())).both(wan).seed(linkSeed).name("wan")
                     .start();
             NormSession rx = NormSession.open(lanB.toBuilder().nodeId(2).build(), receiver, 2);
             NormSession tx = NormSession.open(lanA.toBuilder().nodeId(1)
                     .txRate((long) (linkRate * senderShare)).build(), null, 1)) {
            a.setStaticPeers(List.of(link.localAddress()));
            // Data flows once the daemons answered each other's hellos (through the link, so maybe after a loss).
            org.fjm2.testkit.Await.untilTrue("the daemons answer each other",
                    () -> a.allPeersAnswering() && b.allPeersAnswering(),
                    Duration.ofSeconds(30), () -> a.getStatusLine() + " | " + b.getStatusLine());
            long[] daemonThreads = daemonThreads();
            long alloc0 = allocated(daemonThreads);
            byte[] content = new byte[objectSize];
            new SplittableRandom(objectSize).nextBytes(content);
            long t0 = System.nanoTime();
            for (int i = 0; i < objects; i++) {
                if (tx.enqueue(Unpooled.wrappedBuffer(content), null, 4, 120, TimeUnit.SECONDS) < 0) {
                    throw new IllegalStateException("enqueue timed out at object " + i);
                }
            }
            if (!done.await(300, TimeUnit.SECONDS)) {
                throw new IllegalStateException("transfer incomplete after 300 s: " + done.getCount() + " objects "
                        + "missing; " + a.getStatusLine() + " | " + b.getStatusLine() + " | " + link.statusLine());
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            long allocatedBytes = allocated(daemonThreads) - alloc0;
            long packets = a.counters().get(RelayCounters.Counter.LAN_PACKETS_IN)
                    + b.counters().get(RelayCounters.Counter.LAN_PACKETS_OUT);
            if (lost.get() > 0) {
                System.err.println("warning: " + lost.get() + " objects lost at the receiver");
            }
            LinkStats s = link.stats();
            long queueDrops = a.peers().stream().mapToLong(p -> p.counters()
                    .get(org.fjm2.tunnel.relay.PeerCounters.Counter.QUEUE_DROPS)).sum();
            return new Result(bytes.get() * 8 / seconds / 1e6, seconds,
                    tx.counters().get(NormCounters.Counter.REPAIRS_SENT),
                    tx.counters().get(NormCounters.Counter.NACKS_RECEIVED),
                    a.counters().get(RelayCounters.Counter.REPAIRS_SERVED), s.forward().dropped(),
                    s.reverse().dropped(), queueDrops, packets == 0 ? 0 : (double) allocatedBytes / packets);
        }
    }


    /** The event-loop threads of the two daemons ("fjm2d-bench-a-...", "fjm2d-bench-b-..."). */
    private static long[] daemonThreads() {
        List<Long> ids = new ArrayList<>();
        for (java.lang.management.ThreadInfo info : java.lang.management.ManagementFactory.getThreadMXBean()
                .dumpAllThreads(false, false)) {
            if (info.getThreadName().startsWith("fjm2d-bench-")) {
                ids.add(info.getThreadId());
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private static long allocated(long[] threadIds) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean)
                java.lang.management.ManagementFactory.getThreadMXBean();
        long total = 0;
        for (long v : mx.getThreadAllocatedBytes(threadIds)) {
            total += Math.max(0, v);
        }
        return total;
    }

    private NormConfig lan(int n, int side) {
        return NormConfig.builder("239.255.89." + (2 * (n % 120) + side), 31000 + 2 * (n % 1000) + side)
                .interfaceName("lo").grttInitial(Duration.ofMillis(rttMillis)).build();
    }

    private TunnelDaemon tunnel(NormConfig lan, String node, boolean hopByHop, boolean acceptUnlisted)
            throws java.io.IOException {
        return TunnelDaemon.start(TunnelConfig.builder(lan.group().getHostAddress(), lan.port())
                .interfaceName("lo").listen(new InetSocketAddress("127.0.0.1", 0)).nodeId(node).key(KEY)
                .peerRate(linkRate).hopByHop(hopByHop).acceptUnlisted(acceptUnlisted).statusInterval(Duration.ZERO)
                .build());
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }
}
