package org.fjm2.bench.scenario;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench norm-engine}: fjm2-norm alone on loopback multicast, one sender and one receiver, for object
 * sizes from 1 KB to 1 MB: objects/s, MB/s, and the bytes allocated per datagram on the sender's and the
 * receiver's event-loop threads in steady state (ThreadMXBean allocation counters). The baseline, measured in
 * the same run, is raw Java UDP multicast of 1400-byte datagrams between two threads.
 */
@Command(name = "norm-engine", mixinStandardHelpOptions = true,
        description = "fjm2-norm throughput (objects/s, MB/s) and allocation per datagram, vs raw UDP multicast.")
public final class NormEngineBenchmark implements Callable<Integer> {

    @Option(names = "--sizes", converter = QuantityConverters.Bytes.class, split = ",", defaultValue = "1024,8192,1048576",
            description = "Object sizes in bytes. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--seconds", converter = QuantityConverters.Seconds.class, defaultValue = "6", description = "Measured seconds per size. Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--rate", converter = QuantityConverters.BitRate.class, defaultValue = "2000000000", description = "Sender rate, bit/s. Default: ${DEFAULT-VALUE}.")
    long rate;

    @Option(names = "--transports", split = ",", defaultValue = "epoll,jdk",
            description = "Transports to measure: epoll (Netty native, batched reads), nio, jdk (allocation-free JDK "
                    + "channels). Default: ${DEFAULT-VALUE}.")
    String[] transports;

    @Option(names = "--quick", description = "Short runs (under a minute in all).")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--group", defaultValue = "239.255.88.1", description = "Multicast group. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    static final int UDP_DATAGRAM = 1400;

    @Override
    public Integer call() throws Exception {
        double measure = quick ? Math.min(seconds, 2.5) : seconds;
        double warmup = quick ? 1.0 : 2.0;
        ProgressBar progress = new ProgressBar("norm-engine", (long) sizes.length * transports.length + 1);
        double udpMBps = rawUdpMulticast(measure);
        progress.step("raw UDP multicast: " + String.format("%.0f MB/s", udpMBps));
        ResultTable table = new ResultTable("fjm2-norm, 1 sender -> 1 receiver, loopback multicast",
                "transport", "object_bytes", "objects_per_s", "MB_per_s", "vs_raw_udp", "repair_pct",
                "alloc_B_per_pkt_tx", "alloc_B_per_pkt_rx");
        int port = 30000 + (int) (ProcessHandle.current().pid() % 1000) * 10;
        List<double[]> perTransport = new ArrayList<>();
        for (String transport : transports) {
            double[] mbps = new double[sizes.length];
            for (int i = 0; i < sizes.length; i++) {
                Result r = measureNorm(transport, sizes[i], port++, warmup, measure);
                table.row(transport, (long) sizes[i], r.objectsPerSecond, r.megabytesPerSecond,
                        r.megabytesPerSecond / udpMBps, r.repairPercent, r.allocPerPacketTx, r.allocPerPacketRx);
                mbps[i] = r.megabytesPerSecond;
                progress.step(transport + ", " + sizes[i] + " B objects: "
                        + String.format("%.0f MB/s", r.megabytesPerSecond));
            }
            perTransport.add(mbps);
        }
        table.print(System.out);
        System.out.printf("%nraw UDP multicast baseline (%d-byte datagrams, two threads, same run): %.1f MB/s%n",
                UDP_DATAGRAM, udpMBps);
        table.writeCsv(out.resolve("norm-engine.csv"));
        List<String> categories = new ArrayList<>();
        for (int s : sizes) {
            categories.add(s >= 1 << 20 ? (s >> 20) + " MB" : s >= 1024 ? (s >> 10) + " KB" : s + " B");
        }
        double[] udp = new double[sizes.length];
        java.util.Arrays.fill(udp, udpMBps);
        List<String> names = new ArrayList<>();
        for (String t : transports) {
            names.add("fjm2-norm (" + t + ")");
        }
        names.add("raw UDP multicast (1400 B datagrams)");
        perTransport.add(udp);
        Plot.bars(out.resolve("norm-engine.png"), "fjm2-norm throughput vs raw UDP multicast (loopback)",
                "object size", "MB/s", categories, names, perTransport);
        System.out.println("wrote " + out.resolve("norm-engine.csv") + " and " + out.resolve("norm-engine.png"));
        return 0;
    }

    record Result(double objectsPerSecond, double megabytesPerSecond, double repairPercent, double allocPerPacketTx,
                  double allocPerPacketRx) {
    }

    private Result measureNorm(String transport, int size, int port, double warmupSeconds, double measureSeconds)
            throws Exception {
        NormConfig base = NormConfig.builder(group, port).interfaceName(interfaceName).txRate(rate).transport(transport)
                .maxObjectSize(Math.max(size, 1024)).grttInitial(Duration.ofMillis(2)).build();
        AtomicLong objects = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        NormListener counting = new NormListener() {
            @Override
            public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
                objects.incrementAndGet();
                bytes.addAndGet(data.readableBytes());
            }
        };
        try (NormSession rx = NormSession.open(base.toBuilder().nodeId(2).build(), counting, 1);
             NormSession tx = NormSession.open(base.toBuilder().nodeId(1).build(), null, 2)) {
            AtomicBoolean running = new AtomicBoolean(true);
            Thread producer = new Thread(() -> {
                byte[] content = new byte[size];
                new java.util.SplittableRandom(size).nextBytes(content);
                try {
                    while (running.get()) {
                        ByteBuf buf = PooledByteBufAllocator.DEFAULT.heapBuffer(size);
                        buf.writeBytes(content);
                        tx.enqueue(buf, null, 4, 1, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException | IllegalStateException e) {
                    // stopping
                }
            }, "producer");
            producer.start();
            Thread.sleep((long) (warmupSeconds * 1000));
            long[] txThreads = loopThreads(1);
            long[] rxThreads = loopThreads(2);
            long txAlloc0 = allocated(txThreads);
            long rxAlloc0 = allocated(rxThreads);
            long txPackets0 = tx.counters().get(Counter.PACKETS_SENT);
            long rxPackets0 = rx.counters().get(Counter.PACKETS_RECEIVED);
            long repairs0 = tx.counters().get(Counter.REPAIRS_SENT);
            long data0 = tx.counters().get(Counter.DATA_SENT);
            long objects0 = objects.get();
            long bytes0 = bytes.get();
            long t0 = System.nanoTime();
            Thread.sleep((long) (measureSeconds * 1000));
            long elapsed = System.nanoTime() - t0;
            long txAlloc = allocated(txThreads) - txAlloc0;
            long rxAlloc = allocated(rxThreads) - rxAlloc0;
            long txPackets = tx.counters().get(Counter.PACKETS_SENT) - txPackets0;
            long rxPackets = rx.counters().get(Counter.PACKETS_RECEIVED) - rxPackets0;
            long repairs = tx.counters().get(Counter.REPAIRS_SENT) - repairs0;
            long data = tx.counters().get(Counter.DATA_SENT) - data0;
            double secs = elapsed / 1e9;
            running.set(false);
            producer.interrupt();
            producer.join(5000);
            return new Result((objects.get() - objects0) / secs, (bytes.get() - bytes0) / secs / 1e6,
                    data == 0 ? 0 : 100.0 * repairs / data, txPackets == 0 ? 0 : (double) txAlloc / txPackets,
                    rxPackets == 0 ? 0 : (double) rxAlloc / rxPackets);
        }
    }

    /** Thread ids of a session's event loop ("norm-<node>-..."). */
    private static long[] loopThreads(int nodeId) {
        List<Long> ids = new ArrayList<>();
        for (ThreadInfo info : ManagementFactory.getThreadMXBean().dumpAllThreads(false, false)) {
            if (info.getThreadName().startsWith("norm-" + nodeId + "-")) {
                ids.add(info.getThreadId());
            }
        }
        return ids.stream().mapToLong(Long::longValue).toArray();
    }

    private static long allocated(long[] threadIds) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long total = 0;
        for (long v : mx.getThreadAllocatedBytes(threadIds)) {
            total += Math.max(0, v);
        }
        return total;
    }

    /** Raw Java UDP multicast between two threads: the machine's ceiling for this traffic. */
    private double rawUdpMulticast(double measureSeconds) throws Exception {
        InetAddress groupAddress = InetAddress.getByName(group);
        NetworkInterface nif = NetworkInterface.getByName(interfaceName);
        int port = 29000 + (int) (ProcessHandle.current().pid() % 1000);
        AtomicLong received = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        try (DatagramChannel rx = DatagramChannel.open(StandardProtocolFamily.INET);
             DatagramChannel tx = DatagramChannel.open(StandardProtocolFamily.INET)) {
            rx.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            rx.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
            rx.bind(new InetSocketAddress(port));
            rx.join(groupAddress, nif);
            tx.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            tx.setOption(StandardSocketOptions.SO_SNDBUF, 2 << 20);
            tx.connect(new InetSocketAddress(groupAddress, port));
            Thread reader = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(65536);
                try {
                    while (running.get()) {
                        buf.clear();
                        rx.receive(buf);
                        received.addAndGet(buf.position());
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            }, "udp-reader");
            reader.start();
            Thread writer = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(UDP_DATAGRAM);
                try {
                    while (running.get()) {
                        buf.clear();
                        tx.write(buf);
                    }
                } catch (java.io.IOException e) {
                    // closed
                }
            }, "udp-writer");
            writer.start();
            Thread.sleep(500);
            long r0 = received.get();
            long t0 = System.nanoTime();
            Thread.sleep((long) (measureSeconds * 1000));
            double mbps = (received.get() - r0) / ((System.nanoTime() - t0) / 1e9) / 1e6;
            running.set(false);
            rx.close();
            tx.close();
            writer.join(2000);
            reader.join(2000);
            return mbps;
        }
    }
}
