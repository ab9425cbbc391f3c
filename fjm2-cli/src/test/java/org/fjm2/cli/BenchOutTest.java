package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** No {@code fjm2 bench} scenario writes into the repository's committed results unless told to with --out. */
class BenchOutTest {

    @Test
    void everyScenarioWritesUnderTheTemporaryDirectoryByDefault() {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath();
        CommandLine bench = Fjm2.newCommandLine().getSubcommands().get("bench");
        List<String> checked = new ArrayList<>();
        for (CommandLine scenario : bench.getSubcommands().values()) {
            OptionSpec out = scenario.getCommandSpec().findOption("--out");
            if (out == null || scenario.getParent() != bench) {
                continue;
            }
            // Parsed as typed, from the top: picocli then applies the scenario's defaults.
            bench.getParent().parseArgs("bench", scenario.getCommandName());
            Path directory = out.getValue();
            assertThat(directory.toAbsolutePath().startsWith(tmp)).as("%s --out %s", scenario.getCommandName(),
                    directory).isTrue();
            assertThat(directory.toString()).as(scenario.getCommandName()).doesNotContain("benchmarks/results");
            assertThat(scenario.getUsageMessage()).contains("Default: " + directory);
            checked.add(scenario.getCommandName());
        }
        assertThat(checked).contains("udp", "throughput", "fec-repair", "lossy-link", "flap", "jitter");
    }
}
