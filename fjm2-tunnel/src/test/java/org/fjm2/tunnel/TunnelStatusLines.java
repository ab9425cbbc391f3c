package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import org.fjm2.testkit.netns.JavaProcess;

/** The status lines `fjm2 tunnel` processes log every second, read from their output (the namespace tests). */
final class TunnelStatusLines {

    private TunnelStatusLines() {
    }

    /** A status line logged after this call (they come every second), so it counts everything done until now. */
    static String afterNow(JavaProcess tunnel) throws InterruptedException {
        int before = of(tunnel).size();
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (of(tunnel).size() < before + 2 && System.nanoTime() - deadline < 0) {
            tunnel.pollLine(Pattern.compile(".*: lan in .*"), Duration.ofMillis(500));
        }
        List<String> lines = of(tunnel);
        assertThat(lines.size()).as("a fresh status line from " + tunnel).isGreaterThanOrEqualTo(before + 2);
        return lines.get(lines.size() - 1);
    }

    static List<String> of(JavaProcess tunnel) {
        return tunnel.allLines().stream().filter(l -> l.contains(": lan in ")).toList();
    }

    /** Each tunnel's latest status line, one per line after {@code first}: what a failed assertion shows. */
    static String latest(String first, List<JavaProcess> tunnels) {
        StringBuilder context = new StringBuilder(first);
        for (JavaProcess t : tunnels) {
            List<String> status = of(t);
            context.append("\n").append(t).append(": ").append(status.isEmpty() ? "(no status line)"
                    : status.get(status.size() - 1));
        }
        return context.toString();
    }
}
