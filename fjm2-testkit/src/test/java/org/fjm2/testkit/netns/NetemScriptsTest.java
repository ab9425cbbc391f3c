package org.fjm2.testkit.netns;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The shell scripts of netem-scripts/ against real namespaces; skipped without root and iproute2. */
class NetemScriptsTest {

    private static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(60);
    private final String prefix = "f2s" + ProcessHandle.current().pid();
    private Path scripts;

    @BeforeEach
    void locateScripts() {
        NetNs.assumeAvailable();
        Path module = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        scripts = module.resolveSibling("netem-scripts");
        assertThat(scripts.resolve("wan.sh")).as("netem-scripts next to the module").exists();
    }

    @AfterEach
    void leaveNothing() {
        if (scripts != null) {
            script("wan.sh", "down", prefix);
            script("lan.sh", "down", prefix + "l");
        }
    }

    private ExecResult script(String name, String... args) {
        List<String> command = new ArrayList<>(List.of("bash", scripts.resolve(name).toString()));
        command.addAll(List.of(args));
        return Exec.run(SCRIPT_TIMEOUT, command);
    }

    private List<String> ours(String p) {
        return NetNs.list().stream().filter(ns -> ns.startsWith(p + "-")).toList();
    }

    @Test
    void wanUpPingShapeDownTwiceLeavesNothing() {
        assertThat(script("wan.sh", "up", prefix, "2").orThrow().stdout()).contains("WAN " + prefix + " up");
        assertThat(ours(prefix)).hasSize(7).contains(prefix + "-r", prefix + "-a1", prefix + "-b2", prefix + "-swa");
        assertThat(NetNs.canReach(prefix + "-a1", "10.77.2.1")).as("a1 -> b1 across the router").isTrue();
        assertThat(script("wan.sh", "up", prefix, "2").exitCode()).as("up twice is refused").isNotZero();

        ExecResult shaped = script("shape.sh", prefix + "-a1", "eth0", "--rate", "10mbit", "--delay", "50ms", "--loss", "1%");
        assertThat(shaped.exitCode()).as(shaped.stderr()).isZero();
        String qdiscs = NetNs.exec(prefix + "-a1", SCRIPT_TIMEOUT, "tc", "qdisc", "show", "dev", "eth0").orThrow().stdout();
        if (qdiscs.contains("netem")) {
            assertThat(qdiscs).contains("htb");
            assertThat(shaped.stdout()).contains("applied htb rate 10mbit + netem delay 50ms loss 1%");
        } else {
            assertThat(qdiscs).as("the rate is applied with tbf").contains("tbf").containsIgnoringCase("rate 10Mbit");
            assertThat(shaped.stderr()).contains("netem is not available")
                    .contains("NOT applied: --delay 50ms").contains("NOT applied: --loss 1%").contains("fjm2 linkem");
        }
        assertThat(NetNs.canReach(prefix + "-a1", "10.77.2.1")).as("still reachable when shaped").isTrue();

        ExecResult down = script("wan.sh", "down", prefix).orThrow();
        assertThat(down.stdout()).contains("removed 7 namespace(s)");
        assertThat(script("wan.sh", "down", prefix).orThrow().stdout()).contains("removed 0 namespace(s)");
        assertThat(ours(prefix)).isEmpty();
    }

    @Test
    void threeLansAndALan() {
        script("wan.sh", "up", prefix, "3").orThrow();
        assertThat(ours(prefix)).hasSize(10);
        assertThat(NetNs.canReach(prefix + "-c2", "10.77.1.1")).isTrue();
        script("wan.sh", "down", prefix).orThrow();

        String lan = prefix + "l";
        script("lan.sh", "up", lan, "3").orThrow();
        assertThat(ours(lan)).hasSize(4);
        assertThat(NetNs.canReach(lan + "-h3", "10.77.1.1")).isTrue();
        script("lan.sh", "down", lan).orThrow();
        assertThat(ours(lan)).isEmpty();
    }

    @Test
    void helpAndBadInput() throws Exception {
        for (String name : List.of("lan.sh", "wan.sh", "shape.sh")) {
            ExecResult help = script(name, "-h");
            assertThat(help.exitCode()).isZero();
            assertThat(help.stdout()).startsWith("Usage: " + name);
            assertThat(Files.readString(scripts.resolve(name))).contains("set -euo pipefail");
        }
        assertThat(script("wan.sh", "up", prefix, "4").stderr()).contains("must be 2 or 3");
        assertThat(script("lan.sh", "up", "Bad_Prefix", "2").stderr()).contains("PREFIX");
        assertThat(script("shape.sh", prefix + "-nope", "eth0", "--rate", "1mbit").stderr()).contains("no network namespace");
        assertThat(script("wan.sh").exitCode()).isEqualTo(2);
    }
}
