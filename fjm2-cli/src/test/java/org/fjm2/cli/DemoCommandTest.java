package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.junit.jupiter.api.Test;

/** {@code fjm2 demo}, small, on loopback multicast: rates, sizes and loss written the way every command takes them. */
class DemoCommandTest {

    @Test
    void jmsDemoTakesRatesSizesAndLossWithUnits() {
        CliRun run = CliRun.of("demo", "--group", group(), "--receivers", "2", "--messages", "300",
                "--message-size", "1k", "--rate", "200m", "--loss", "1%", "--publish-rate", "0", "--seed", "7");
        assertThat(run.exit()).as(run.err()).isZero();
    }

    @Test
    void engineDemoTakesRatesSizesAndLossWithUnits() {
        CliRun run = CliRun.of("demo", "--engine", "--group", group(), "--receivers", "2", "--objects", "30",
                "--size", "8KiB", "--rate", "100mbit", "--loss", "0.02", "--seed", "7");
        assertThat(run.exit()).as(run.err()).isZero();
    }

    private static String group() {
        NormConfig fresh = TestGroups.fresh();
        return fresh.group().getHostAddress() + ":" + fresh.port();
    }
}
