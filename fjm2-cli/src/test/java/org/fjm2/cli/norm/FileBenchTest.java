package org.fjm2.cli.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fjm2.bench.norm.NrlBenchBinary;
import org.fjm2.bench.scenario.NormVsNrlBenchmark;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A tiny run of {@code fjm2 bench norm --files}: NRL's file path and {@code fjm2 norm send} -> {@code fjm2 norm recv}
 * (this module's CLI, each in its own JVM) move the same files; every one arrives intact and the table, CSV and plot
 * are written. Skipped (with the reason printed) where g++ or libnorm-dev is missing.
 */
class FileBenchTest {

    static final int FILES = 300;

    @TempDir
    Path out;

    @Test
    @Timeout(120)
    void theCliAndNrlMoveEveryFileIntact() throws Exception {
        String reason = NrlBenchBinary.unavailableReason();
        if (reason != null) {
            System.out.println("SKIPPED: " + reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
        int exit = new CommandLine(new NormVsNrlBenchmark()).execute("--files", Integer.toString(FILES),
                "--file-size", "4000", "--pairs", "fjm2-fjm2", "--nrl-file-rates", "100m", "--rate", "200m",
                "--group", "239.255.89.79", "--files-dir", out.toString(), "--out", out.toString());
        assertThat(exit).isZero();
        List<String> csv = Files.readAllLines(out.resolve("norm-files.csv"));
        assertThat(csv).hasSize(3);
        assertThat(csv.get(0)).contains("files_intact").contains("vs_nrl_nrl");
        assertThat(csv.get(1)).startsWith("\"NRL\",\"NRL\"");
        assertThat(csv.get(2)).startsWith("\"fjm2\",\"fjm2\"");
        for (String row : csv.subList(1, csv.size())) {
            String[] columns = row.split(",");
            assertThat(Double.parseDouble(columns[3])).as("files intact in %s", row).isEqualTo(FILES);
            assertThat(Double.parseDouble(columns[5])).as("objects/s in %s", row).isPositive();
        }
        assertThat(Files.size(out.resolve("norm-files.png"))).isPositive();
        try (var left = Files.list(out)) {
            assertThat(left.filter(p -> p.getFileName().toString().startsWith("fjm2-bench-files")))
                    .as("the work directory is deleted").isEmpty();
        }
    }
}
