package org.fjm2.testkit.linkem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class LinkemCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        CommandLine cli = new CommandLine(new LinkemCommand());
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        return cli.execute(args);
    }

    private static LinkemCommand parse(String... args) {
        LinkemCommand command = new LinkemCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }

    @Test
    void helpListsEveryImpairmentForBothDirections() {
        assertThat(run("--help")).isZero();
        for (ImpairmentOptions.Impairment i : ImpairmentOptions.IMPAIRMENTS) {
            assertThat(out.toString()).contains("--" + i.name()).contains("--reverse-" + i.name());
        }
    }

    @Test
    void impairmentsApplyBothWaysUnlessOverridden() {
        LinkemCommand c = parse("--mode", "udp", "--listen", ":0", "--target", "127.0.0.1:9",
                "--rate", "10mbit", "--delay", "50ms", "--jitter", "5ms", "--jitter-distribution", "normal",
                "--loss", "1%", "--ge", "1%,30%,0,100%", "--reorder", "2%,15ms", "--duplicate", "0.1%",
                "--updown", "4s/2s@1s", "--reverse-delay", "10ms");
        LinkProfile forward = c.forwardProfile();
        assertThat(forward.rateBitsPerSecond()).isEqualTo(10_000_000);
        assertThat(forward.delay()).isEqualTo(Duration.ofMillis(50));
        assertThat(forward.jitterDistribution()).isEqualTo(JitterDistribution.NORMAL);
        assertThat(forward.lossProbability()).isEqualTo(0.01);
        assertThat(forward.burstLoss()).isEqualTo(new GilbertElliott(0.01, 0.3, 0, 1));
        assertThat(forward.reorderProbability()).isEqualTo(0.02);
        assertThat(forward.reorderDelay()).isEqualTo(Duration.ofMillis(15));
        assertThat(forward.duplicateProbability()).isEqualTo(0.001);
        assertThat(forward.upDown()).isEqualTo(new UpDownSchedule(Duration.ofSeconds(4), Duration.ofSeconds(2), Duration.ofSeconds(1)));

        LinkProfile reverse = c.reverseProfile();
        assertThat(reverse.delay()).isEqualTo(Duration.ofMillis(10));
        assertThat(reverse.toBuilder().delay(Duration.ofMillis(50)).build()).isEqualTo(forward);
    }

    @Test
    void reversePerfectImpairsOnlyTheForwardDirection() {
        LinkemCommand c = parse("--mode", "udp", "--listen", ":0", "--target", "127.0.0.1:9",
                "--loss", "5%", "--reverse-perfect", "--reverse-jitter-reorders");
        assertThat(c.forwardProfile().lossProbability()).isEqualTo(0.05);
        assertThat(c.reverseProfile()).isEqualTo(LinkProfile.PERFECT.toBuilder().jitterMayReorder(true).build());
    }

    @Test
    void badInputExitsNonZeroWithTheReason() {
        assertThat(run("--mode", "udp", "--listen", ":0", "--target", "127.0.0.1:9", "--delay", "5parsecs"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--delay: duration '5parsecs': unknown unit");

        assertThat(run("--mode", "udp", "--listen", ":0")).isEqualTo(2);
        assertThat(err.toString()).contains("needs --target");

        assertThat(run("--mode", "mcast", "--side-a", "239.1.1.1:7001", "--side-b", "239.1.1.1:7002@lo")).isEqualTo(2);
        assertThat(err.toString()).contains("names no interface");

        assertThat(run("--mode", "udp", "--listen", ":0", "--target", "127.0.0.1:9", "--ge", "1%,2%")).isEqualTo(2);
        assertThat(err.toString()).contains("needs four values");
    }

    @Test
    void runsForTheGivenDurationAndExitsCleanly() {
        long start = System.nanoTime();
        assertThat(run("--mode", "udp", "--listen", "127.0.0.1:0", "--target", "127.0.0.1:9", "--delay", "5ms",
                "--seed", "1", "--duration", "300ms", "--status-interval", "100ms")).isZero();
        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(300_000_000L);
    }
}
