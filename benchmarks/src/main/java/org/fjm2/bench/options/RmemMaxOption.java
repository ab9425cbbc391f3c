package org.fjm2.bench.options;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Optional;

import org.fjm2.bench.kernel.RmemMax;
import org.fjm2.bench.kernel.RmemMaxOverride;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * {@code --rmem-max BYTES[,BYTES...]} of {@code bench throughput} and {@code bench latency} (a picocli mixin): runs
 * the whole measurement once under each receive buffer cap, as root, and puts the cap found at the start back
 * ({@link RmemMaxOverride}).
 */
public final class RmemMaxOption {

    @Option(names = "--rmem-max", split = ",", converter = QuantityConverters.Bytes.class,
            paramLabel = "BYTES",
            description = "Root only: set net.core.rmem_max (the kernel's cap on every socket's receive buffer, one "
                    + "value for the whole machine, also inside network namespaces) to each size in turn (208k, 4m, "
                    + "8m...; at least 64k) and run the whole table under each, the cap in its rmem_max_B column; the "
                    + "value found at the start is put back at the end, also when the run fails or is interrupted. "
                    + "From inside a network namespace (where the file is read-only) it is written through nsenter in "
                    + "the initial one. Default: one run under the current cap.")
    int[] caps;

    /** Whether several caps, or one set cap, were asked for. */
    public boolean isSet() {
        return caps != null && caps.length > 0;
    }

    /** The caps asked for, in order (empty: none). */
    public int[] caps() {
        return caps == null ? new int[0] : caps.clone();
    }

    /**
     * Checks the values and root: a {@link CommandLine.ParameterException} (exit 2, one line) when the option is
     * wrong or this process is not root.
     */
    public void validate(CommandLine cmd) {
        if (!isSet()) {
            return;
        }
        Optional<String> problem = problem(caps);
        if (problem.isPresent()) {
            throw new CommandLine.ParameterException(cmd, problem.get());
        }
        Optional<String> notRoot = RmemMax.whyNotRoot();
        if (notRoot.isPresent()) {
            throw new CommandLine.ParameterException(cmd, "--rmem-max: " + notRoot.get());
        }
    }

    /** What is wrong with these caps, if anything. */
    static Optional<String> problem(int[] caps) {
        for (int cap : caps) {
            if (cap < RmemMax.MIN_CAP) {
                return Optional.of("--rmem-max: " + cap + " bytes is below " + RmemMax.MIN_CAP
                        + " (a 64 KB datagram must fit a receive buffer)");
            }
        }
        if (Arrays.stream(caps).distinct().count() != caps.length) {
            return Optional.of("--rmem-max: a size twice");
        }
        return Optional.empty();
    }

    /**
     * Runs {@code body} once under the current cap when the option is not set, else once under each cap asked for,
     * and then puts back the cap found at the start (also when {@code body} throws).
     */
    public void forEachCap(PrintStream log, RmemMaxOverride.UnderCap body) throws Exception {
        if (!isSet()) {
            body.run(RmemMax.current());
            return;
        }
        RmemMaxOverride.forEach(RmemMax.sysctl(), caps, log, body);
    }
}
