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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6's acceptance tests with JMS end to end (the NORM-level twins are in NamespaceTunnelTest). In Linux network
 * namespaces: LAN A (10.77.1.0/24: FJM2D on a1, a publisher on
 * a2) and LAN B (10.77.2.0/24: FJM2D on b1, subscribers on b2 and b3) are joined only by router r, which routes
 * unicast and no multicast. 20,000 numbered messages published in A reach both subscribers in B complete and in
 * order, each daemon running as {@code fjm2 tunnel} in its own JVM, publisher and subscribers being JMS clients
 ({@link JmsPeerMain}). Skipped, with the reason, without root.
 */
class JmsNamespaceTunnelTest {

    static final int MESSAGES = 20_000;
    static final int SIZE = 200;
    static final String GROUP = "239.255.78.1:6005";
    static final Pattern RESULT = Pattern.compile("^RESULT .*");

    static final int MESH_MESSAGES = 3000;

    @TempDir
    static Path dir;
    static Path key;

    @BeforeAll
    static void available() throws Exception {
        NetNs.assumeAvailable();
        key = Files.createTempFile(dir, "tunnel", ".key");
        Files.writeString(key, "namespace test secret, 32 bytes!");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    }

    @Test
    void twentyThousandJmsMessagesCrossTheRouterToBothSubscribersInOrder() throws Exception {
        List<JavaProcess> processes = new ArrayList<>();
        try (TestNetwork net = TestNetwork.lansWithRouter(2, 3)) {
            assertThat(net.host("a2").canReach(net.host("b2").address())).as("unicast routing through r").isTrue();
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
                JavaProcess sub = net.host(h).startJava(JmsPeerMain.class, "recv", GROUP, "eth0",
                        String.valueOf(MESSAGES), "150");
                subscribers.add(sub);
                processes.add(sub);
            }
            for (JavaProcess s : subscribers) {
                s.awaitLine(Pattern.compile("^READY.*"), Duration.ofSeconds(60));
            }
            JavaProcess publisher = net.host("a2").startJava(JmsPeerMain.class, "send", GROUP, "eth0", "100",
                    String.valueOf(MESSAGES), String.valueOf(SIZE), "20m");
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

    /**
     * Three LANs, a daemon on x1 of each with the two others as peers (a full mesh), a publisher and a subscriber on
     * x2 of each: every subscriber gets every message of the two remote publishers (and of its own) exactly once, in
     * order, and the daemons' counters show no storm: no packet came back (no duplicates), and each daemon sent each
     * LAN packet at most twice (once per peer).
     */
    @Test
    void threeLansInAFullMeshDeliverEveryJmsMessageOnceWithoutStorm() throws Exception {
        List<JavaProcess> processes = new ArrayList<>();
        try (TestNetwork net = TestNetwork.lansWithRouter(3, 2)) {
            List<String> lans = List.of("a", "b", "c");
            List<JavaProcess> tunnels = new ArrayList<>();
            for (String lan : lans) {
                // No --node-id: the namespaces share the host name, as cloned gateways do; the default ids must
                // still differ (one state directory for all three, as on one host).
                List<String> args = new ArrayList<>(List.of("--group", GROUP, "--interface", "eth0", "--listen", "6004",
                        "--state-dir", dir.resolve("state").toString(), "--key-file", key.toString(), "--rate", "100m",
                        "--status-interval", "1s"));
                for (String other : lans) {
                    if (!other.equals(lan)) {
                        args.addAll(List.of("--peer", net.host(other + "1").address() + ":6004"));
                    }
                }
                JavaProcess t = net.host(lan + "1").startJava(TunnelCommand.class, args.toArray(new String[0]));
                tunnels.add(t);
                processes.add(t);
            }
            java.util.Set<String> ids = new java.util.HashSet<>();
            for (JavaProcess t : tunnels) {
                ids.add(t.awaitLine(Pattern.compile("^fjm2d .* ready.*"), Duration.ofSeconds(60)).split(" ")[1]);
            }
            assertThat(ids).as("default node ids of daemons sharing a host name").hasSize(3);
            List<JavaProcess> subscribers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                JavaProcess sub = net.host(lans.get(i) + "2").startJava(JmsPeerMain.class, "recv", GROUP, "eth0",
                        String.valueOf(3 * MESH_MESSAGES), "150");
                subscribers.add(sub);
                processes.add(sub);
            }
            for (JavaProcess s : subscribers) {
                s.awaitLine(Pattern.compile("^READY.*"), Duration.ofSeconds(60));
            }
            List<JavaProcess> publishers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                JavaProcess pub = net.host(lans.get(i) + "2").startJava(JmsPeerMain.class, "send", GROUP, "eth0",
                        String.valueOf(100 + i), String.valueOf(MESH_MESSAGES), String.valueOf(SIZE), "10m");
                publishers.add(pub);
                processes.add(pub);
            }
            for (JavaProcess s : subscribers) {
                String line = s.awaitLine(RESULT, Duration.ofSeconds(180));
                System.out.println(s + ": " + line);
                assertThat(line).as(TunnelStatusLines.latest(s.diagnostics(), tunnels) + publishersSaid(publishers))
                        .contains("complete=true", "received=" + 3 * MESH_MESSAGES,
                        "inorder=" + 3 * MESH_MESSAGES, "corrupt=0", "lost=0", "senders=3");
            }
            Pattern status = Pattern.compile("lan in (\\d+)/.*dup (\\d+),.*");
            Pattern peerOut = Pattern.compile("\\| \\S+ in \\d+/\\S+ out (\\d+)/");
            for (JavaProcess t : tunnels) {
                String last = TunnelStatusLines.afterNow(t);
                System.out.println(t + ": " + last);
                Matcher m = status.matcher(last);
                assertThat(m.find()).as(last).isTrue();
                long lanIn = Long.parseLong(m.group(1));
                assertThat(Long.parseLong(m.group(2))).as("duplicates (nothing came back): " + last).isZero();
                Matcher out = peerOut.matcher(last);
                long framesOut = 0;
                while (out.find()) {
                    framesOut += Long.parseLong(out.group(1));
                }
                // JMS batches small messages, so a LAN carries far fewer packets than messages.
                assertThat(lanIn).as("the daemon heard its LAN's publisher: " + last).isGreaterThan(0);
                // Keepalives (a few) aside, each LAN packet went to each of the 2 peers at most once.
                assertThat(framesOut).as("frames out vs LAN packets in: " + last).isLessThanOrEqualTo(2 * lanIn + 50);
            }
        } finally {
            for (JavaProcess p : processes) {
                p.close();
            }
        }
    }

    /** What the publishers logged (but logback's own status lines): why a subscriber lacks data. */
    private static String publishersSaid(List<JavaProcess> publishers) {
        StringBuilder said = new StringBuilder();
        for (JavaProcess p : publishers) {
            said.append("\n").append(p).append(':');
            for (String line : p.allLines()) {
                if (!line.contains("|-")) {
                    said.append("\n  ").append(line);
                }
            }
        }
        return said.toString();
    }
}
