package org.fjm2.bench;

import org.fjm2.bench.scenario.CcBenchmark;
import org.fjm2.bench.scenario.FecRepairBenchmark;
import org.fjm2.bench.scenario.FlapBenchmark;
import org.fjm2.bench.scenario.JitterBenchmark;
import org.fjm2.bench.scenario.LossyLinkBenchmark;
import org.fjm2.bench.scenario.NormEngineBenchmark;
import org.fjm2.bench.scenario.NormVsNrlBenchmark;
import org.fjm2.bench.scenario.PersistentBenchmark;
import org.fjm2.bench.scenario.MeshBenchmark;
import org.fjm2.bench.scenario.TunnelWanBenchmark;
import org.fjm2.bench.scenario.UdpBenchmark;
import org.fjm2.bench.scenario.ThroughputBenchmark;
import org.fjm2.bench.scenario.LatencyBenchmark;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code fjm2 bench SCENARIO}: benchmark scenarios. Each prints a table, writes CSV and a PNG plot into its
 * {@code --out} directory (by default under the system's temporary directory, never the committed
 * benchmarks/results; each file written is named), and reports a ratio against a baseline measured in the same run.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Benchmark scenarios: tables, CSV and PNG plots, ratios against baselines measured in the same run.",
        subcommands = {NormEngineBenchmark.class, TunnelWanBenchmark.class, MeshBenchmark.class, FecRepairBenchmark.class,
                UdpBenchmark.class, ThroughputBenchmark.class, LatencyBenchmark.class, NormVsNrlBenchmark.class,
                LossyLinkBenchmark.class, FlapBenchmark.class, JitterBenchmark.class, CcBenchmark.class,
                PersistentBenchmark.class})
public final class BenchCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
