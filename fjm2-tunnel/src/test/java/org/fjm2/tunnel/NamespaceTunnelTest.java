package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.fjm2.testkit.netns.JavaProcess;
import org.fjm2.testkit.netns.NetNs;
import org.fjm2.testkit.netns.TestNetwork;
import org.fjm2.tunnel.tool.TunnelCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The acceptance test of the tunnel in Linux network namespaces: LAN A (10.77.1.0/24: FJM2D on a1, a publisher on
 * a2) and LAN B (10.77.2.0/24: FJM2D on b1, subscribers on b2 and b3) are joined only by router r, which routes
 * unicast and no multicast. 20,000 numbered messages published in A reach both subscribers in B complete and in
 * order, each daemon running as {@code fjm2 tunnel} in its own JVM. Skipped, with the reason, without root.
 */
class NamespaceTunnelTest {

    static final int MESSAGES = 20_000;
    static final int SIZE = 200;
    static final String GROUP = "239.255.77.1:6003";
    static final Pattern RESULT = Pattern.compile("^RESULT .*");

    static TestNetwork net;

    @TempDir
    static Path dir;

    @BeforeAll
    static void network() {
        NetNs.assumeAvailable();
        net = TestNetwork.lansWithRouter(2, 3);
    }

    @AfterAll
    static void teardown() {
        if (net != null) {
            net.close();
        }
    }

    @Test
    void twentyThousandMessagesCrossTheRouterToBothSubscribersInOrder() throws Exception {
        assertThat(net.host("a2").canReach(net.host("b2").address())).as("unicast routing through r").isTrue();
        Path key = Files.createTempFile(dir, "tunnel", ".key");
        Files.writeString(key, "namespace test secret, 32 bytes!");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        List<JavaProcess> processes = new ArrayList<>();
        try {
            JavaProcess tunnelA = net.host("a1").startJava(TunnelCommand.class, "--group", GROUP, "--interface",
                    "eth0", "--listen", "6004", "--node-id", "lan-a", "--peer", net.host("b1").address() + ":6004",
                    "--key-file", key.toString(), "--rate", "100m", "--status-interval", "2s");
            JavaProcess tunnelB = net.host("b1").startJava(TunnelCommand.class, "--group", GROUP, "--interface",
                    "eth0", "--listen", "6004", "--node-id", "lan-b", "--peer", net.host("a1").address() + ":6004",
                    "--key-file", key.toString(), "--rate", "100m", "--status-interval", "2s");
            processes.add(tunnelA);
            processes.add(tunnelB);
            Pattern ready = Pattern.compile("^fjm2d .* ready.*");
            tunnelA.awaitLine(ready, Duration.ofSeconds(60));
            tunnelB.awaitLine(ready, Duration.ofSeconds(60));
            List<JavaProcess> subscribers = new ArrayList<>();
            for (String h : List.of("b2", "b3")) {
                JavaProcess sub = net.host(h).startJava(NormPeerMain.class, "recv", GROUP, "eth0",
                        String.valueOf(200 + subscribers.size()), String.valueOf(MESSAGES), "150");
                subscribers.add(sub);
                processes.add(sub);
            }
            for (JavaProcess s : subscribers) {
                s.awaitLine(Pattern.compile("^READY.*"), Duration.ofSeconds(60));
            }
            JavaProcess publisher = net.host("a2").startJava(NormPeerMain.class, "send", GROUP, "eth0", "100",
                    String.valueOf(MESSAGES), String.valueOf(SIZE), "20000000");
            processes.add(publisher);
            for (JavaProcess s : subscribers) {
                String line = s.awaitLine(RESULT, Duration.ofSeconds(180));
                Matcher m = Pattern.compile("complete=(\\w+) received=(\\d+) inorder=(\\d+) corrupt=(\\d+) lost=(\\d+)")
                        .matcher(line);
                System.out.println(s + ": " + line);
                assertThat(m.find()).as(line).isTrue();
                String context = line + "\npublisher: " + publisher.diagnostics() + "\ntunnel A: "
                        + tunnelA.diagnostics() + "\ntunnel B: " + tunnelB.diagnostics();
                assertThat(m.group(1)).as(context).isEqualTo("true");
                assertThat(Integer.parseInt(m.group(2))).as(context).isEqualTo(MESSAGES);
                assertThat(Integer.parseInt(m.group(3))).as("in order; " + context).isEqualTo(MESSAGES);
                assertThat(Integer.parseInt(m.group(4))).as("corrupt").isZero();
                assertThat(Integer.parseInt(m.group(5))).as("lost").isZero();
            }
            for (JavaProcess t : List.of(tunnelA, tunnelB)) {
                List<String> status = t.allLines().stream().filter(l -> l.contains("fjm2d lan-")).toList();
                System.out.println(t + ": " + (status.isEmpty() ? "(no status line yet)" : status.get(status.size() - 1)));
            }
        } finally {
            for (JavaProcess p : processes) {
                p.close();
            }
        }
    }
}
