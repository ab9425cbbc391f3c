package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Bad input and failures: one line that names the command as typed, and the exit code. */
class CliErrorsTest {

    @Test
    void parseErrorsNameTheCommandAsTyped() {
        CliRun top = CliRun.of("--bogus");
        assertThat(top.exit()).isEqualTo(CliErrors.EXIT_BAD_ARGUMENTS);
        assertThat(top.err()).startsWith("fjm2: Unknown option: '--bogus'").contains("Try 'fjm2 --help'.")
                .doesNotContain("fjm2 fjm2");

        CliRun nested = CliRun.of("norm", "send", "--bogus", "file");
        assertThat(nested.exit()).isEqualTo(CliErrors.EXIT_BAD_ARGUMENTS);
        assertThat(nested.err()).startsWith("fjm2 norm send: ").contains("Try 'fjm2 norm send --help'.");

        CliRun badValue = CliRun.of("demo", "--rate", "fast");
        assertThat(badValue.exit()).isEqualTo(CliErrors.EXIT_BAD_ARGUMENTS);
        assertThat(badValue.err()).startsWith("fjm2 demo: --rate 'fast'");
    }

    @Test
    void quantitiesUseTheCommonGrammarInEveryCommand() {
        // Parsed before anything is opened: a bad value fails naming the option, a good one gets past parsing.
        assertThat(CliRun.of("demo", "--loss", "5").err()).contains("--loss '5' is more than 100%");
        assertThat(CliRun.of("demo", "--engine", "--size", "64 apples").err()).contains("--size '64 apples'");
        assertThat(CliRun.of("publish", "--url", "inmem://q", "--topic", "t", "--size", "2g").err())
                .contains("--size must be at most 1g");
        assertThat(CliRun.of("subscribe", "--url", "inmem://q", "--topic", "t", "--timeout", "soon").err())
                .contains("--timeout 'soon'");
        assertThat(CliRun.of("norm", "recv", "--group", "239.1.1.1:6000", "--out", "x", "--linger", "1 week").err())
                .contains("--linger '1 week'");
        assertThat(CliRun.of("norm", "send", "--group", "239.1.1.1:6000", "--grtt", "fast", "pom.xml").err())
                .contains("--grtt 'fast'");
    }

    @Test
    void anUnreachableAddressIsNamedNotNull() {
        assumeNoRouteTo("10.1.1.1");
        CliRun run = CliRun.of("subscribe", "--url", "norm://10.1.1.1:6003", "--topic", "t", "--timeout", "1s");
        assertThat(run.exit()).isEqualTo(CliErrors.EXIT_FAILED);
        assertThat(run.err()).startsWith("fjm2 subscribe: cannot open transport norm://10.1.1.1:6003: ")
                .containsIgnoringCase("no route to host").contains("10.1.1.1", "multicast address")
                .doesNotContain("null");
    }

    /** The test needs a host without a route to the address (a namespace with only loopback, as the build uses). */
    private static void assumeNoRouteTo(String address) {
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.connect(new InetSocketAddress(address, 6003));
        } catch (IOException expected) {
            return;
        }
        Assumptions.abort("this host has a route to " + address + ": run in a network namespace with only lo");
    }
}
