package org.fjm2.bench.scenario;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 bench lossy-link}: a fixed number of messages published as fast as each system allows over a link of
 * 100 Mbit/s, 100 ms one-way delay and random loss (seeded) each way, for FJM2 end to end (multicast bridged
 * through the link), FJM2 through an FJM2D hop on each side, and Artemis over TCP through the same link. Reports
 * goodput, messages lost (missing at the subscriber, and reported lost by the provider), duplicates and delivery
 * latency; the ratio is each system's goodput against Artemis's at the same loss rate.
 */
@Command(name = "lossy-link", mixinStandardHelpOptions = true,
        description = "Goodput, loss and latency over a 100 Mbit/s, 100 ms link with 0.1%%..5%% loss: FJM2 end to end, "
                + "FJM2 via FJM2D, Artemis over TCP.")
public final class LossyLinkBenchmark implements Callable<Integer> {

    static final String DEFAULT_LOSSES = "0.001,0.005,0.01,0.02,0.05";
    static final String QUICK_LOSSES = "0.005,0.05";
    /** Messages per cell in --quick mode. */
    static final int QUICK_MESSAGES = 1000;

    @Mixin
    BadNetOptions common;

    @Option(names = "--loss", converter = QuantityConverters.Loss.class, split = ",", defaultValue = DEFAULT_LOSSES,
            description = "Random loss rates each way, comma-separated (0..1). Default: ${DEFAULT-VALUE}; --quick: "
                    + QUICK_LOSSES + ".")
    double[] losses;

    @Option(names = "--messages", defaultValue = "20000", description = "Messages per cell. Default: ${DEFAULT-VALUE}.")
    int messages;

    @Option(names = "--size", converter = QuantityConverters.Bytes.class, defaultValue = "1024", description = "Message body, bytes. Default: ${DEFAULT-VALUE}.")
    int size;

    @Option(names = "--link-rate", converter = QuantityConverters.BitRate.class, defaultValue = "100000000", description = "Link rate, bit/s. Default: ${DEFAULT-VALUE}.")
    long linkRate;

    @Option(names = "--delay", converter = QuantityConverters.Millis.class, defaultValue = "100ms",
            description = "One-way delay (100ms, 0.1s). Default: ${DEFAULT-VALUE}.")
    int delayMillis;

    @Option(names = "--sender-share", defaultValue = "0.8",
            description = "FJM2 sender rate as a share of the link rate (room for repairs). Default: ${DEFAULT-VALUE}.")
    double senderShare;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (common.quick) {
            if (spec.commandLine().getParseResult().matchedOption("--loss") == null) {
                losses = Arrays.stream(QUICK_LOSSES.split(",")).mapToDouble(Double::parseDouble).toArray();
            }
            messages = Math.min(messages, QUICK_MESSAGES);
        }
        validate();
        System.out.println("lossy-link: seed " + common.seed);
        Kind[] kinds = Kind.values();
        ProgressBar progress = new ProgressBar("lossy-link", (long) losses.length * kinds.length);
        ResultTable table = new ResultTable(String.format(Locale.ROOT,
                "%d messages of %d B as fast as possible over %.0f Mbit/s, %d ms one-way delay, random loss each way "
                        + "(seed %d)", messages, size, linkRate / 1e6, delayMillis, common.seed),
                "system", "loss_pct", "received", "missing", "reported_lost", "duplicates", "msgs_per_s", "MB_per_s",
                "p50_ms", "p99_ms", "vs_artemis", "link_drops", "publish_s", "tail_ms");
        EmulatedPath.Settings settings = new EmulatedPath.Settings((long) (linkRate * senderShare),
                2 * delayMillis / 1000.0, linkRate, common.fjm2Params);
        List<double[]> goodput = new ArrayList<>();
        for (Kind ignored : kinds) {
            goodput.add(new double[losses.length]);
        }
        long silent = 0;
        try (EmbeddedArtemis broker = EmulatedPath.startBroker()) {
            for (int l = 0; l < losses.length; l++) {
                LinkProfile profile = LinkProfile.builder().rate(linkRate).delay(Duration.ofMillis(delayMillis))
                        .loss(losses[l]).queueLimit(1 << 20).build();
                StreamRun.Result[] results = new StreamRun.Result[kinds.length];
                for (int k = 0; k < kinds.length; k++) {
                    long cellSeed = common.seed + (long) l * kinds.length + k;
                    try (EmulatedPath path = EmulatedPath.open(kinds[k], profile, cellSeed, settings, broker)) {
                        results[k] = StreamRun.run(path, new StreamPublisher(messages, size, 0, cellSeed), messages,
                                common.tailWait());
                    }
                    Summary s = results[k].summary();
                    goodput.get(k)[l] = msgsPerSecond(results[k]) * size / 1e6;
                    progress.step(String.format(Locale.ROOT, "%s, %.1f%% loss: %d/%d", kinds[k].label(),
                            losses[l] * 100, s.received(), messages));
                }
                double artemis = msgsPerSecond(results[Kind.ARTEMIS.ordinal()]);
                for (int k = 0; k < kinds.length; k++) {
                    StreamRun.Result r = results[k];
                    Summary s = r.summary();
                    if (kinds[k].isFjm2()) {
                        silent += s.silentlyLost();
                    }
                    table.row(kinds[k].label(), losses[l] * 100, (long) s.received(), (long) s.missing(),
                            s.reportedLost(), s.duplicates(), msgsPerSecond(r), msgsPerSecond(r) * size / 1e6,
                            s.latencyMillis(50), s.latencyMillis(99), artemis > 0 ? msgsPerSecond(r) / artemis : 0.0,
                            r.link().forward().dropped() + r.link().reverse().dropped(), r.publishNanos() / 1e9,
                            Math.max(0, r.completionNanos() - r.publishNanos()) / 1e6);
                }
            }
        }
        List<String> categories = Arrays.stream(losses).mapToObj(x -> String.format(Locale.ROOT, "%.1f%%", x * 100))
                .toList();
        Plot.bars(common.out.resolve("lossy-link.png"), String.format(Locale.ROOT,
                        "Goodput over %.0f Mbit/s, %d ms one-way, by loss rate", linkRate / 1e6, delayMillis),
                "loss each way", "MB/s", categories, Arrays.stream(kinds).map(Kind::label).toList(), goodput);
        return common.finish("lossy-link", table, silent);
    }

    private static double msgsPerSecond(StreamRun.Result r) {
        return r.completionNanos() <= 0 ? 0 : r.summary().received() / (r.completionNanos() / 1e9);
    }

    private void validate() {
        common.validate();
        String problem = null;
        if (losses.length == 0 || Arrays.stream(losses).anyMatch(x -> x < 0 || x >= 1)) {
            problem = "--loss values must be in 0..1 (exclusive of 1)";
        } else if (messages < 1 || size < 0 || linkRate < 1 || delayMillis < 0) {
            problem = "--messages must be >= 1, --size and --delay >= 0, --link-rate >= 1";
        } else if (senderShare <= 0 || senderShare > 1) {
            problem = "--sender-share must be in (0, 1]";
        }
        if (problem != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), problem);
        }
    }
}
