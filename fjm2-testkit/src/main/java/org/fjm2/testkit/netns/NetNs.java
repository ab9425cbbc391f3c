package org.fjm2.testkit.netns;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Assumptions;

/**
 * Network namespaces from Java: whether they can be used here, and running commands inside one. Needs Linux,
 * root and iproute2's {@code ip}. Works from inside a namespace too (CI runs the whole suite in one).
 */
public final class NetNs {

    private static volatile Optional<String> unavailableReason;

    private NetNs() {
    }

    /**
     * A JUnit assumption: skips the calling test (printing why) unless namespaces can be created and entered here.
     */
    public static void assumeAvailable() {
        Optional<String> reason = unavailableReason();
        reason.ifPresent(r -> System.out.println("skipped: network namespaces unavailable: " + r));
        Assumptions.assumeTrue(reason.isEmpty(), () -> "network namespaces unavailable: " + reason.orElse(""));
    }

    /** Why namespaces cannot be used here, or empty when they can (checked once: create, enter, delete one). */
    public static Optional<String> unavailableReason() {
        Optional<String> reason = unavailableReason;
        if (reason == null) {
            reason = probe();
            unavailableReason = reason;
        }
        return reason;
    }

    public static boolean isAvailable() {
        return unavailableReason().isEmpty();
    }

    private static Optional<String> probe() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return Optional.of("not Linux");
        }
        if (!isRoot()) {
            return Optional.of("not running as root");
        }
        if (!Exec.onPath("ip")) {
            return Optional.of("iproute2's ip command is not installed");
        }
        String probe = "f2tprobe" + ProcessHandle.current().pid();
        ExecResult add = Exec.run("ip", "netns", "add", probe);
        if (!add.ok()) {
            return Optional.of("'ip netns add' failed: " + add.stderr().strip());
        }
        try {
            ExecResult enter = exec(probe, Duration.ofSeconds(10), "ip", "link", "set", "lo", "up");
            if (!enter.ok()) {
                return Optional.of("'ip netns exec' failed: " + enter.stderr().strip());
            }
            return Optional.empty();
        } finally {
            Exec.run("ip", "netns", "del", probe);
        }
    }

    /** Whether this process runs as root (uid 0). */
    public static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.split("\\s+")[1].equals("0");
                }
            }
        } catch (java.io.IOException e) {
            return false;
        }
        return false;
    }

    /** Runs {@code command} inside namespace {@code namespace} ({@code ip netns exec}), waiting at most {@code timeout}. */
    public static ExecResult exec(String namespace, Duration timeout, String... command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        full.addAll(List.of(command));
        return Exec.run(timeout, full);
    }

    /**
     * Whether {@code address} answers from inside {@code namespace}: one ICMP echo where {@code ping} is installed;
     * otherwise a TCP connection to port 9 (discard), where a refusal, a reset sent by that host, proves the path
     * both ways as well as an echo reply would.
     */
    public static boolean canReach(String namespace, String address) {
        if (Exec.onPath("ping")) {
            return exec(namespace, Duration.ofSeconds(10), "ping", "-c", "1", "-W", "2", address).ok();
        }
        ExecResult probe = exec(namespace, Duration.ofSeconds(10), "timeout", "3", "bash", "-c",
                "exec 3<>/dev/tcp/" + address + "/9");
        return probe.ok() || probe.stderr().contains("Connection refused");
    }

    /** The names of all namespaces known to {@code ip netns} now. */
    public static List<String> list() {
        List<String> names = new ArrayList<>();
        for (String line : Exec.run("ip", "netns", "list").orThrow().stdout().split("\n")) {
            if (!line.isBlank()) {
                names.add(line.strip().split("\\s+")[0]);
            }
        }
        return names;
    }
}
