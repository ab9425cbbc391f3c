package org.fjm2.norm.fec.bench;

import java.util.Collection;
import java.util.Locale;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link FecCodecBenchmark} and prints a Markdown table of MB/s of source data coded (10^6 bytes per second).
 * Any JMH command-line option may be given (e.g. {@code -p k=16 -wi 1 -i 2}, or a regex such as {@code decode} to run
 * some of the benchmarks). Run it with
 * {@code ./mvnw -q -pl fjm2-norm -Pjmh verify}, or add {@code -Djmh.args="-p parity=4"}.
 */
public final class FecBenchmarkMain {

    private FecBenchmarkMain() {
    }

    public static void main(String[] args) throws RunnerException, CommandLineOptionException {
        CommandLineOptions commandLine = new CommandLineOptions(args);
        OptionsBuilder builder = new OptionsBuilder();
        builder.parent(commandLine);
        if (commandLine.getIncludes().isEmpty()) { // a regex on the command line picks benchmarks, e.g. "decode"
            builder.include(FecCodecBenchmark.class.getName());
        }
        Options options = builder.build();
        Collection<RunResult> results = new Runner(options).run();
        System.out.println();
        System.out.println("| benchmark | fec_id | k | parity | symbol bytes | blocks/s | MB/s of source data (+/- 99.9% CI) |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (RunResult result : results) {
            var params = result.getParams();
            int k = Integer.parseInt(params.getParam("k"));
            int symbolLength = Integer.parseInt(params.getParam("symbolLength"));
            double blocksPerSecond = result.getPrimaryResult().getScore();
            double error = result.getPrimaryResult().getScoreError();
            double bytesPerBlock = (double) k * symbolLength;
            String name = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
            System.out.println(String.format(Locale.ROOT, "| %s | %s | %d | %s | %d | %.0f | %.0f (+/- %.0f) |",
                    name, params.getParam("fecId"), k, params.getParam("parity"), symbolLength, blocksPerSecond,
                    blocksPerSecond * bytesPerBlock / 1e6, error * bytesPerBlock / 1e6));
        }
    }
}
