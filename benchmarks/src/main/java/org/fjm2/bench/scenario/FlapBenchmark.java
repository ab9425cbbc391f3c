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
 * {@code fjm2 bench flap}: paced publishing (5..100 Hz, 0..64 KB) over a link that is up 4 s, down 2 s, with 1%
 * random loss while up; FJM2 end to end and Artemis over TCP each over their own link with the same profile, side by
 * side. Reports the longest time between two consecutive messages at the subscriber and the messages lost (missing,
 * and reported lost by the provider); the ratio is FJM2's longest gap against Artemis's in the same cell.
 */
@Command(name = "flap", mixinStandardHelpOptions = true,
        description = "Paced publishing over a link up 4 s / down 2 s with 1%% loss: longest inter-message delay and "
                + "messages lost, FJM2 vs Artemis.")
public final class FlapBenchmark implements Callable<Integer> {

    /** --quick: two cells, (rate Hz, size B), and one up/down cycle each. */
    static final int[][] QUICK_CELLS = {{100, 1024}, {25, 16 * 1024}};
    static final int QUICK_DURATION_SECONDS = 7;

    @Mixin
    BadNetOptions common;

    @Option(names = "--rates", split = ",", defaultValue = "5,25,50,100",
            description = "Publishing rates, messages/s. Default: ${DEFAULT-VALUE}.")
    int[] rates;

    @Option(names = "--sizes", converter = QuantityConverters.Bytes.class, split = ",", defaultValue = "0,1024,16384,65536",
            description = "Message bodies, bytes. Default: ${DEFAULT-VALUE}.")
    int[] sizes;

    @Option(names = "--up", converter = QuantityConverters.WholeSeconds.class, defaultValue = "4", description = "Up period of the link, s. Default: ${DEFAULT-VALUE}.")
    int upSeconds;

    @Option(names = "--down", converter = QuantityConverters.WholeSeconds.class, defaultValue = "2", description = "Down period of the link, s. Default: ${DEFAULT-VALUE}.")
    int downSeconds;

    @Option(names = "--loss", converter = QuantityConverters.Loss.class, defaultValue = "0.01", description = "Random loss each way while up (0..1). Default: ${DEFAULT-VALUE}.")
    double loss;

    @Option(names = "--delay", converter = QuantityConverters.Millis.class, defaultValue = "10ms",
            description = "One-way delay (10ms, 0.1s). Default: ${DEFAULT-VALUE}.")
    int delayMillis;

    @Option(names = "--link-rate", converter = QuantityConverters.BitRate.class, defaultValue = "100000000", description = "Link rate, bit/s. Default: ${DEFAULT-VALUE}.")
    long linkRate;

    @Option(names = "--duration", converter = QuantityConverters.WholeSeconds.class, defaultValue = "20",
            description = "Publishing time per cell, s (several up/down cycles). Default: ${DEFAULT-VALUE}; --quick: "
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
        } else {
            cells = BadNetOptions.cells(rates, sizes);
        }
        validate();
        System.out.println("flap: seed " + common.seed);
        List<Kind> kinds = List.of(Kind.FJM2_END_TO_END, Kind.ARTEMIS);
        LinkProfile profile = LinkProfile.builder().rate(linkRate).delay(Duration.ofMillis(delayMillis)).loss(loss)
                .queueLimit(1 << 20).upDown(UpDownSchedule.of(Duration.ofSeconds(upSeconds),
                        Duration.ofSeconds(downSeconds))).build();
        EmulatedPath.Settings settings = new EmulatedPath.Settings(linkRate * 8 / 10,
                Math.max(0.01, 2 * delayMillis / 1000.0), linkRate, common.fjm2Params);
        ResultTable table = new ResultTable(String.format(Locale.ROOT,
                "Paced publishing for %d s per cell over %s (seed %d)", durationSeconds, profile.describe(),
                common.seed),
                "system", "rate_hz", "size_B", "published", "received", "missing", "reported_lost", "duplicates",
                "max_gap_ms", "p99_latency_ms", "max_gap_vs_artemis");
        ProgressBar progress = new ProgressBar("flap", cells.size());
        List<String> categories = new ArrayList<>();
        List<double[]> maxGaps = List.of(new double[cells.size()], new double[cells.size()]);
        long silent = 0;
        try (EmbeddedArtemis broker = EmulatedPath.startBroker()) {
            for (int c = 0; c < cells.size(); c++) {
                int rate = cells.get(c)[0];
                int size = cells.get(c)[1];
                int count = rate * durationSeconds;
                long cellSeed = common.seed + 2L * c;
                List<StreamRun.Result> results = StreamRun.runOverFreshPaths(kinds, profile, cellSeed, settings,
                        broker, new StreamPublisher(count, size, 1_000_000_000L / rate, cellSeed), count,
                        common.tailWait());
                double artemisGap = results.get(1).summary().maxGapNanos() / 1e6;
                for (int k = 0; k < kinds.size(); k++) {
                    Summary s = results.get(k).summary();
                    double gap = s.maxGapNanos() / 1e6;
                    maxGaps.get(k)[c] = gap;
                    if (kinds.get(k).isFjm2()) {
                        silent += s.silentlyLost();
                    }
                    table.row(kinds.get(k).label(), (long) rate, (long) size, (long) count, (long) s.received(),
                            (long) s.missing(), s.reportedLost(), s.duplicates(), gap, s.latencyMillis(99),
                            artemisGap > 0 ? gap / artemisGap : 0.0);
                }
                categories.add(rate + " Hz, " + size + " B");
                progress.step(String.format(Locale.ROOT, "%d Hz, %d B: FJM2 %d/%d, Artemis %d/%d", rate, size,
                        results.get(0).summary().received(), count, results.get(1).summary().received(), count));
            }
        }
        Plot.bars(common.out.resolve("flap.png"), String.format(Locale.ROOT,
                        "Longest gap between messages, link up %d s / down %d s, %.1f%% loss", upSeconds, downSeconds,
                        loss * 100), "cell", "max inter-message delay, ms", categories,
                kinds.stream().map(Kind::label).toList(), maxGaps);
        return common.finish("flap", table, silent);
    }

    private void validate() {
        common.validate();
        String problem = null;
        if (rates.length == 0 || java.util.Arrays.stream(rates).anyMatch(r -> r < 1 || r > 100_000)) {
            problem = "--rates must be 1..100000 messages/s";
        } else if (sizes.length == 0 || java.util.Arrays.stream(sizes).anyMatch(s -> s < 0 || s > 16 << 20)) {
            problem = "--sizes must be 0..16777216 bytes";
        } else if (upSeconds < 1 || downSeconds < 1 || durationSeconds < 1) {
            problem = "--up, --down and --duration must be >= 1 s";
        } else if (loss < 0 || loss >= 1 || delayMillis < 0 || linkRate < 1) {
            problem = "--loss must be in 0..1, --delay >= 0, --link-rate >= 1";
        }
        if (problem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
    }
}
