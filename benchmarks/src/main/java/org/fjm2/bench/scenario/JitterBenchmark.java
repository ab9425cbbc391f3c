package org.fjm2.bench.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.bench.badnet.BadNetOptions;
import org.fjm2.bench.badnet.EmulatedPath;
import org.fjm2.bench.badnet.EmulatedPath.Kind;
import org.fjm2.bench.badnet.SequenceReceiver.Summary;
import org.fjm2.bench.badnet.StreamPublisher;
import org.fjm2.bench.badnet.StreamRun;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultTable;
import org.fjm2.testkit.linkem.LinkProfile;
import org.fjm2.testkit.linkem.UpDownSchedule;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench jitter}: a periodic producer (one message every T = 10..1000 ms, 512 B..6 KB) over a link that
 * drops for 3 s, repeatedly; at the subscriber J_n = t'_n - t'_(n-1) - T between consecutive arrivals. Reports
 * the distribution of J (percentiles, max and min) and the messages lost, FJM2 end to end and Artemis over TCP side
 * by side over links with the same profile; the ratio is FJM2's largest J against Artemis's.
 */
@Command(name = "jitter", mixinStandardHelpOptions = true,
        description = "Jitter J_n = t'_n - t'_(n-1) - T of a periodic producer over a link with repeated 3 s "
                + "outages, FJM2 vs Artemis.")
public final class JitterBenchmark implements Callable<Integer> {

    /** --quick: two cells, (period ms, size B), and one outage each. */
    static final int[][] QUICK_CELLS = {{10, 512}, {100, 6144}};
    static final int QUICK_DURATION_SECONDS = 10;
    static final int QUICK_UP_SECONDS = 5;

    @Mixin
    BadNetOptions common;

    @Option(names = "--periods", split = ",", defaultValue = "10,100,500,1000",
            description = "Producer periods T, ms. Default: ${DEFAULT-VALUE}.")
    int[] periods;

    @Option(names = "--sizes", converter = QuantityConverters.Bytes.class, split = ",", defaultValue = "512,2048,6144",
            description = "Message bodies, bytes. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--outage", defaultValue = "3", description = "Length of each outage, s. Default: ${DEFAULT-VALUE}.")
    int outageSeconds;

    @Option(names = "--up", converter = QuantityConverters.WholeSeconds.class, defaultValue = "7",
            description = "Time the link is up between outages, s. Default: ${DEFAULT-VALUE}; --quick: "
                    + QUICK_UP_SECONDS + ".")
    int upSeconds;

    @Option(names = "--delay", converter = QuantityConverters.Millis.class, defaultValue = "10ms",
            description = "One-way delay (10ms, 0.1s). Default: ${DEFAULT-VALUE}.")
    int delayMillis;

    @Option(names = "--link-rate", converter = QuantityConverters.BitRate.class, defaultValue = "100000000", description = "Link rate, bit/s. Default: ${DEFAULT-VALUE}.")
    long linkRate;

    @Option(names = "--duration", converter = QuantityConverters.WholeSeconds.class, defaultValue = "30",
            description = "Publishing time per cell, s (several outages). Default: ${DEFAULT-VALUE}; --quick: "
                    + QUICK_DURATION_SECONDS + ".")
    int durationSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<int[]> cells;
        if (common.quick) {
            cells = List.of(QUICK_CELLS);
            durationSeconds = Math.min(durationSeconds, QUICK_DURATION_SECONDS);
            upSeconds = Math.min(upSeconds, QUICK_UP_SECONDS);
        } else {
            cells = BadNetOptions.cells(periods, sizes);
        }
        validate(cells);
        System.out.println("jitter: seed " + common.seed);
        List<Kind> kinds = List.of(Kind.FJM2_END_TO_END, Kind.ARTEMIS);
        LinkProfile profile = LinkProfile.builder().rate(linkRate).delay(Duration.ofMillis(delayMillis))
                .queueLimit(1 << 20).upDown(UpDownSchedule.of(Duration.ofSeconds(upSeconds),
                        Duration.ofSeconds(outageSeconds))).build();
        EmulatedPath.Settings settings = new EmulatedPath.Settings(linkRate * 8 / 10,
                Math.max(0.01, 2 * delayMillis / 1000.0), linkRate, common.fjm2Params);
        ResultTable table = new ResultTable(String.format(Locale.ROOT,
                "Periodic producer for %d s per cell over %s (seed %d); J in ms", durationSeconds, profile.describe(),
                common.seed),
                "system", "period_ms", "size_B", "published", "received", "missing", "reported_lost", "J_p50_ms",
                "J_p90_ms", "J_p99_ms", "J_max_ms", "J_min_ms", "J_max_vs_artemis");
        ProgressBar progress = new ProgressBar("jitter", cells.size());
        List<String> categories = new ArrayList<>();
        List<double[]> plotted = new ArrayList<>();
        for (int i = 0; i < 2 * kinds.size(); i++) {
            plotted.add(new double[cells.size()]);
        }
        long silent = 0;
        try (EmbeddedArtemis broker = EmulatedPath.startBroker()) {
            for (int c = 0; c < cells.size(); c++) {
                int periodMillis = cells.get(c)[0];
                int size = cells.get(c)[1];
                int count = durationSeconds * 1000 / periodMillis;
                long periodNanos = periodMillis * 1_000_000L;
                long cellSeed = common.seed + 2L * c;
                List<StreamRun.Result> results = StreamRun.runOverFreshPaths(kinds, profile, cellSeed, settings,
                        broker, new StreamPublisher(count, size, periodNanos, cellSeed), count, common.tailWait());
                double artemisMax = Summary.percentile(results.get(1).summary().sortedJitterNanos(periodNanos), 100);
                for (int k = 0; k < kinds.size(); k++) {
                    Summary s = results.get(k).summary();
                    long[] j = s.sortedJitterNanos(periodNanos);
                    double max = Summary.percentile(j, 100) / 1e6;
                    plotted.get(2 * k)[c] = Summary.percentile(j, 99) / 1e6;
                    plotted.get(2 * k + 1)[c] = max;
                    if (kinds.get(k).isFjm2()) {
                        silent += s.silentlyLost();
                    }
                    table.row(kinds.get(k).label(), (long) periodMillis, (long) size, (long) count,
                            (long) s.received(), (long) s.missing(), s.reportedLost(),
                            Summary.percentile(j, 50) / 1e6, Summary.percentile(j, 90) / 1e6,
                            Summary.percentile(j, 99) / 1e6, max, j.length == 0 ? Double.NaN : j[0] / 1e6,
                            artemisMax > 0 ? max / (artemisMax / 1e6) : 0.0);
                }
                categories.add(periodMillis + " ms, " + size + " B");
                progress.step(String.format(Locale.ROOT, "T %d ms, %d B: FJM2 %d/%d, Artemis %d/%d", periodMillis,
                        size, results.get(0).summary().received(), count, results.get(1).summary().received(),
                        count));
            }
        }
        List<String> series = new ArrayList<>();
        for (Kind k : kinds) {
            series.add(k.label() + " p99");
            series.add(k.label() + " max");
        }
        Plot.bars(common.out.resolve("jitter.png"), String.format(Locale.ROOT,
                        "Jitter J_n of a periodic producer, %d s outages every %d s", outageSeconds,
                        upSeconds + outageSeconds), "cell (period, size)", "J, ms", categories, series, plotted);
        return common.finish("jitter", table, silent);
    }

    private void validate(List<int[]> cells) {
        common.validate();
        String problem = null;
        if (cells.isEmpty() || cells.stream().anyMatch(c -> c[0] < 1 || c[1] < 0 || c[1] > 16 << 20)) {
            problem = "--periods must be >= 1 ms and --sizes 0..16777216 bytes";
        } else if (upSeconds < 1 || outageSeconds < 1 || durationSeconds < 1) {
            problem = "--up, --outage and --duration must be >= 1 s";
        } else if (cells.stream().anyMatch(c -> durationSeconds * 1000 / c[0] < 2)) {
            problem = "--duration must cover at least two periods of every --periods value";
        } else if (delayMillis < 0 || linkRate < 1) {
            problem = "--delay must be >= 0 and --link-rate >= 1";
        }
        if (problem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
    }
}
