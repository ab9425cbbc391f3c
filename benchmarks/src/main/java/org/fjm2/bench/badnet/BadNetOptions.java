package org.fjm2.bench.badnet;

import java.nio.file.Path;
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

    @Option(names = "--out", defaultValue = "benchmarks/results", description = "Output directory. Default: ${DEFAULT-VALUE}.")
    public Path out;

    @Option(names = "--tail-wait", defaultValue = "" + DEFAULT_TAIL_WAIT_SECONDS,
            description = "Longest wait after the last publish for the subscriber to catch up, s. Default: ${DEFAULT-VALUE}.")
    public int tailWaitSeconds;

    public Duration tailWait() {
        return Duration.ofSeconds(tailWaitSeconds);
    }

    /** Checks the shared options; throws with a clear message when one is out of range. */
    public void validate() {
        if (tailWaitSeconds < 1) {
            throw new IllegalArgumentException("--tail-wait must be >= 1 s, got " + tailWaitSeconds);
        }
    }
}
