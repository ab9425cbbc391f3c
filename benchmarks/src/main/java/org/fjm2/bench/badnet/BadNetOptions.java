package org.fjm2.bench.badnet;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.fjm2.bench.options.QuantityConverters;
import org.fjm2.bench.report.ResultFiles;
import org.fjm2.bench.report.ResultTable;
import java.time.Duration;
import picocli.CommandLine.Option;

/** Options every bad-network scenario shares (a picocli mixin). */
public final class BadNetOptions {

    /** Default seed of the link emulators' random draws (loss, jitter); each cell adds its index. */
    public static final long DEFAULT_SEED = 20261124L;
    /** Default bound of the wait after the last publish for the subscriber to catch up, seconds. */
    public static final int DEFAULT_TAIL_WAIT_SECONDS = 30;

    @Option(names = "--quick", description = "A short run with fewer cells (under a minute).")
    public boolean quick;

    @Option(names = "--seed", defaultValue = "" + DEFAULT_SEED,
            description = "Seed of the link emulators (cell i uses seed + i). Default: ${DEFAULT-VALUE}.")
    public long seed;

    @Option(names = "--out", defaultValue = ResultFiles.DEFAULT_DIRECTORY,
            description = "Output directory (benchmarks/results for the committed results). Default: ${DEFAULT-VALUE}.")
    public Path out;

    @Option(names = "--tail-wait", converter = QuantityConverters.WholeSeconds.class, defaultValue = "" + DEFAULT_TAIL_WAIT_SECONDS,
            description = "Longest wait after the last publish for the subscriber to catch up, s. Default: ${DEFAULT-VALUE}.")
    public int tailWaitSeconds;

    @Option(names = "--fjm2-params", paramLabel = "PARAMS", defaultValue = "",
            description = "More URL parameters for FJM2's connections, as a URL's query writes them (e.g."
                    + " backoff=1&autoParity=2): to measure a setting on these links. Default: none.")
    public String fjm2Params;

    public Duration tailWait() {
        return Duration.ofSeconds(tailWaitSeconds);
    }

    /** Exit code of a run in which FJM2 lost messages without reporting them. */
    public static final int EXIT_SILENT_LOSS = 3;

    /**
     * Ends a scenario: prints the table, writes {@code NAME.csv} (the caller has written {@code NAME.png}), and
     * returns {@link #EXIT_SILENT_LOSS} when FJM2 lost messages without reporting them, else 0.
     */
    public int finish(String name, ResultTable table, long fjm2SilentlyLost) throws IOException {
        table.print(System.out);
        table.writeCsv(out.resolve(name + ".csv"));
        System.out.println("wrote " + out.resolve(name + ".csv") + " and " + out.resolve(name + ".png"));
        if (fjm2SilentlyLost > 0) {
            System.out.println("FJM2 LOST " + fjm2SilentlyLost + " MESSAGES WITHOUT REPORTING THEM");
            return EXIT_SILENT_LOSS;
        }
        return 0;
    }

    /** Every pair (a, b) of the two lists, a major: the cells of a paced scenario. */
    public static List<int[]> cells(int[] as, int[] bs) {
        List<int[]> cells = new ArrayList<>();
        for (int a : as) {
            for (int b : bs) {
                cells.add(new int[] {a, b});
            }
        }
        return cells;
    }

    /** Checks the shared options; throws with a clear message when one is out of range. */
    public void validate() {
        if (tailWaitSeconds < 1) {
            throw new IllegalArgumentException("--tail-wait must be >= 1 s, got " + tailWaitSeconds);
        }
    }
}
