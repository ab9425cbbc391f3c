package org.fjm2.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** A small run of {@code fjm2 bench fec-repair}: both modes complete, parity needs fewer repairs, files written. */
class FecRepairBenchmarkTest {

    @TempDir
    Path out;

    @Test
    void smallRunWritesBothModesAndParityNeedsFewerRepairs() throws Exception {
        int exit = new CommandLine(new FecRepairBenchmark()).execute("--receivers", "4", "--objects", "4",
                "--runs", "1", "--group", "239.255.89.77", "--out", out.toString());
        assertThat(exit).isZero();
        List<String> csv = Files.readAllLines(out.resolve("fec-repair.csv"));
        assertThat(csv).hasSize(3);
        assertThat(Files.size(out.resolve("fec-repair.png"))).isPositive();
        double noCode = repairsPer1000(csv.get(1));
        double rs8 = repairsPer1000(csv.get(2));
        // 4 receivers at 5%: the union of their losses (18.5% of segments) against the largest loss count per block
        // (about 7.6%): parity must need clearly fewer repair packets
        assertThat(csv.get(1)).startsWith("\"no-code repair\"");
        assertThat(csv.get(2)).startsWith("\"RS8 parity repair\"");
        assertThat(rs8).as("RS8 repairs per 1000 vs no-code %.1f", noCode).isLessThan(noCode * 0.8);
    }

    @Test
    void badArgumentsAreRefused() {
        CommandLine cli = new CommandLine(new FecRepairBenchmark());
        cli.setErr(new PrintWriter(new StringWriter()));
        cli.setExecutionExceptionHandler((ex, c, parse) -> ex instanceof IllegalArgumentException ? 2 : 1);
        assertThat(cli.execute("--parity", "0")).isEqualTo(2);
        assertThat(cli.execute("--loss", "100")).isEqualTo(2);
    }

    private static double repairsPer1000(String csvLine) {
        return Double.parseDouble(csvLine.split(",")[4]);
    }
}
