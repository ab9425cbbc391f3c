package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code fjm2 bench} options read rates, sizes, durations and loss in the grammar of every other command. */
class BenchQuantitiesTest {

    @Test
    void everyScenarioParsesItsDefaults() {
        CommandLine bench = Fjm2.newCommandLine().getSubcommands().get("bench");
        for (String scenario : bench.getSubcommands().keySet()) {
            if (!scenario.equals("help")) {
                Fjm2.newCommandLine().parseArgs("bench", scenario);
            }
        }
    }

    @Test
    void ratesSizesDurationsAndLossTakeUnits() {
        CommandLine fec = parse("fec-repair", "--loss", "5%", "--rate", "100mbit", "--size", "1MiB");
        assertThat((double) value(fec, "--loss")).isEqualTo(0.05);
        assertThat((long) value(fec, "--rate")).isEqualTo(100_000_000L);
        assertThat((int) value(fec, "--size")).isEqualTo(1 << 20);
        assertThat((double) value(parse("fec-repair"), "--loss")).as("default 5%, a fraction now").isEqualTo(0.05);

        CommandLine lossy = parse("lossy-link", "--loss", "0.5%,0.05", "--delay", "0.1s", "--link-rate", "1g");
        assertThat((double[]) value(lossy, "--loss")).containsExactly(0.005, 0.05);
        assertThat((int) value(lossy, "--delay")).isEqualTo(100);
        assertThat((long) value(lossy, "--link-rate")).isEqualTo(1_000_000_000L);

        CommandLine throughput = parse("throughput", "--sizes", "100,1k,64KiB", "--seconds", "500ms");
        assertThat((int[]) value(throughput, "--sizes")).containsExactly(100, 1024, 65536);
        assertThat((double) value(throughput, "--seconds")).isEqualTo(0.5);

        assertThat((int) value(parse("tunnel-wan", "--rtt", "100ms"), "--rtt")).isEqualTo(100);
        assertThat((int) value(parse("flap", "--up", "4s"), "--up")).isEqualTo(4);
    }

    @Test
    void aBareNumberWhereMillisecondsWereMeantIsRefused() {
        assertThatThrownBy(() -> parse("tunnel-wan", "--rtt", "100")).hasMessageContaining("needs a unit: 100ms");
        assertThatThrownBy(() -> parse("fec-repair", "--loss", "5")).hasMessageContaining("more than 100%");
    }

    private static CommandLine parse(String scenario, String... options) {
        CommandLine root = Fjm2.newCommandLine();
        String[] args = new String[options.length + 2];
        args[0] = "bench";
        args[1] = scenario;
        System.arraycopy(options, 0, args, 2, options.length);
        root.parseArgs(args);
        return root.getSubcommands().get("bench").getSubcommands().get(scenario);
    }

    private static Object value(CommandLine scenario, String option) {
        return scenario.getCommandSpec().findOption(option).getValue();
    }
}
