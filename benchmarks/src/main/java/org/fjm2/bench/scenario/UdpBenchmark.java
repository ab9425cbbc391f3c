package org.fjm2.bench.scenario;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.bench.udp.RawUdp;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench udp}: raw Java UDP throughput on loopback by datagram size, unicast and multicast, one
 * sender thread writing as fast as it can and one receiver thread: datagrams/s and MB/s received. The physical
 * ceiling of this machine for the other scenarios; the ratio column compares multicast with unicast of the same
 * size, measured in the same run.
 */
@Command(name = "udp", mixinStandardHelpOptions = true,
        description = "Raw Java UDP unicast and multicast throughput on loopback by datagram size (the ceiling).")
public final class UdpBenchmark implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--sizes", converter = QuantityConverters.Bytes.class, split = ",", defaultValue = "64,512,1400,8192,65507",
            description = "Datagram payload sizes in bytes, 1..65507. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--seconds", converter = QuantityConverters.Seconds.class, defaultValue = "3", description = "Measured seconds per point. Default: ${DEFAULT-VALUE}.")
    double seconds;

    @Option(names = "--quick", description = "1 s per point after 0.3 s of warm-up (about 15 s in all).")
    boolean quick;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--group", defaultValue = "239.255.77.1", description = "Multicast group. Default: ${DEFAULT-VALUE}.")
    String group;

    @Option(names = "--interface", defaultValue = "lo", description = "Interface. Default: ${DEFAULT-VALUE}.")
    String interfaceName;

    /** Warm-up before each measured window (socket buffers filled, JIT compiled), seconds. */
    static final double WARMUP_SECONDS = 1.0;
    static final double QUICK_WARMUP_SECONDS = 0.3;
    static final double QUICK_SECONDS = 1.0;

    @Override
    public Integer call() throws Exception {
        for (int s : sizes) {
            if (s < 1 || s > RawUdp.MAX_DATAGRAM) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "--sizes: " + s + " is not a UDP payload size (1.." + RawUdp.MAX_DATAGRAM + ")");
            }
        }
        if (seconds <= 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--seconds must be positive: " + seconds);
        }
        double measure = quick ? Math.min(seconds, QUICK_SECONDS) : seconds;
        double warmup = quick ? QUICK_WARMUP_SECONDS : WARMUP_SECONDS;
        ProgressBar progress = new ProgressBar("udp", 2L * sizes.length);
        ResultTable table = new ResultTable("Raw Java UDP on loopback (" + interfaceName + "), 1 sender thread -> "
                + "1 receiver thread", "mode", "size_B", "datagrams_per_s", "MB_per_s", "sent_per_s", "rx_loss_pct",
                "multicast_vs_unicast");
        int port = basePort();
        double[] unicast = new double[sizes.length];
        double[] multicast = new double[sizes.length];
        int rcvbuf = 0;
        for (int i = 0; i < sizes.length; i++) {
            RawUdp.Throughput u = RawUdp.throughput(false, group, interfaceName, port++, sizes[i], warmup, measure);
            progress.step("unicast " + sizes[i] + " B");
            RawUdp.Throughput m = RawUdp.throughput(true, group, interfaceName, port++, sizes[i], warmup, measure);
            progress.step("multicast " + sizes[i] + " B");
            unicast[i] = u.megabytesPerSecond();
            multicast[i] = m.megabytesPerSecond();
            rcvbuf = m.receiveBuffer();
            table.row("unicast", (long) sizes[i], u.datagramsPerSecond(), u.megabytesPerSecond(), u.sentPerSecond(),
                    u.lossPercent(), 1.0);
            table.row("multicast", (long) sizes[i], m.datagramsPerSecond(), m.megabytesPerSecond(),
                    m.sentPerSecond(), m.lossPercent(), ratio(m.megabytesPerSecond(), u.megabytesPerSecond()));
        }
        table.print(System.out);
        System.out.printf("%nSO_RCVBUF asked %d, granted %d (the kernel caps it at net.core.rmem_max, doubled)%n",
                RawUdp.RECEIVE_BUFFER, rcvbuf);
        table.writeCsv(out.resolve("udp.csv"));
        List<String> categories = new ArrayList<>();
        for (int s : sizes) {
            categories.add(sizeLabel(s));
        }
        Plot.bars(out.resolve("udp.png"), "Raw Java UDP throughput on loopback", "datagram size", "MB/s received",
                categories, List.of("unicast", "multicast"), List.of(unicast, multicast));
        System.out.println("wrote " + out.resolve("udp.csv") + " and " + out.resolve("udp.png"));
        return 0;
    }

    static double ratio(double a, double b) {
        return b == 0 ? 0 : a / b;
    }

    static String sizeLabel(int bytes) {
        return bytes >= 1024 && bytes % 1024 == 0 ? (bytes >> 10) + " KB" : bytes + " B";
    }

    /**
     * First of the 40 ports of this run: distinct per process so that runs in parallel namespaces or tests do not
     * collide (udp uses 2 per size, throughput 16 + one per N, latency 4).
     */
    static int basePort() {
        return 20000 + (int) (ProcessHandle.current().pid() % 1000) * 40;
    }
}
