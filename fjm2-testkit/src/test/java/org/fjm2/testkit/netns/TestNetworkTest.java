package org.fjm2.testkit.netns;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two LANs joined by a router, in namespaces: unicast crosses the router, multicast does not. Needs root and
 * iproute2; skipped with the reason printed otherwise.
 */
class TestNetworkTest {

    private static final String GROUP = "239.77.7.7";
    private static final int PORT = 7007;
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static TestNetwork net;

    @BeforeAll
    static void build() {
        NetNs.assumeAvailable();
        net = TestNetwork.twoLansWithRouter();
    }

    @AfterAll
    static void tearDown() {
        if (net != null) {
            net.close();
            assertThat(NetNs.list()).noneMatch(ns -> ns.startsWith(net.prefix()));
        }
    }

    @Test
    void topologyHasTheDocumentedAddresses() {
        assertThat(net.host("a1").address()).isEqualTo("10.77.1.1");
        assertThat(net.host("b2").address()).isEqualTo("10.77.2.2");
        assertThat(net.router().addresses()).containsEntry("eth0", "10.77.1.254").containsEntry("eth1", "10.77.2.254");
        assertThat(NetNs.list()).containsAll(net.namespaces());
    }

    @Test
    void pingCrossesTheRouterAndAnAbsentHostDoesNotAnswer() {
        assertThat(net.host("a1").canReach(net.host("b1").address())).as("a1 -> b1 through the router").isTrue();
        assertThat(net.host("b2").canReach(net.host("a2").address())).as("b2 -> a2 through the router").isTrue();
        assertThat(net.host("a1").canReach("10.77.2.99")).as("nobody has 10.77.2.99").isFalse();
    }

    @Test
    @SuppressWarnings("try") // the receiver in LAN B is closed early so that all its output can be read
    void unicastCrossesTheRouterButMulticastStaysInItsLan() throws Exception {
        try (JavaProcess sameLan = net.host("a2").startJava(UdpProbe.class,
                "receive", "--port", String.valueOf(PORT), "--group", GROUP, "--interface", "eth0");
             JavaProcess otherLan = net.host("b1").startJava(UdpProbe.class,
                "receive", "--port", String.valueOf(PORT), "--group", GROUP, "--interface", "eth0")) {
            sameLan.awaitLine(Pattern.compile("^READY"), WAIT);
            otherLan.awaitLine(Pattern.compile("^READY"), WAIT);

            // Multicast first, then unicast to b1: once b1 has the unicast, any multicast that crossed would be there.
            String b1 = net.host("b1").address() + ":" + PORT;
            try (JavaProcess sender = net.host("a1").startJava(UdpProbe.class, "send", "--interface", "eth0",
                    "--to", GROUP + ":" + PORT, "--to", b1, "--count", "10", "--interval", "10ms")) {
                sender.awaitLine(Pattern.compile("^SENT 20"), WAIT);
            }
            sameLan.awaitLine(Pattern.compile("RECEIVED to=" + Pattern.quote(GROUP)), WAIT);
            otherLan.awaitLine(Pattern.compile("RECEIVED to=" + Pattern.quote(b1) + " seq=9 FROM 10\\.77\\.1\\.1:"), WAIT);
            otherLan.close();

            List<String> heardInB = otherLan.allLines();
            assertThat(heardInB).as("LAN B heard a1's unicast").anyMatch(l -> l.contains("to=" + b1));
            assertThat(heardInB).as("no multicast routing: LAN B never hears LAN A's group")
                    .noneMatch(l -> l.contains("to=" + GROUP));
        }
    }

    /**
     * CI runs the whole suite inside a namespace ({@code ip netns exec ci ./mvnw verify}): a JVM started inside
     * host a1 builds, uses and tears down a network of its own, as the suite does there.
     */
    @Test
    void aJvmInsideANamespaceCanBuildItsOwnNetwork() throws Exception {
        try (JavaProcess nested = net.host("a1").startJava(NestedNetworkCheck.class)) {
            String verdict = nested.awaitLine(Pattern.compile("^NESTED "), WAIT);
            assertThat(verdict).isEqualTo("NESTED OK");
            assertThat(nested.waitFor(WAIT)).contains(0);
        }
    }

    @Test
    void closeDeletesEveryNamespaceAndMayBeRepeated() {
        TestNetwork lan = TestNetwork.lan(2);
        List<String> created = lan.namespaces();
        assertThat(created).hasSize(3);
        assertThat(lan.host("h1").canReach(lan.host("h2").address())).isTrue();
        lan.close();
        lan.close();
        assertThat(NetNs.list()).doesNotContainAnyElementsOf(created);
        assertThat(lan.namespaces()).isEmpty();
    }

    @Test
    void threeLansAreAllReachableThroughTheRouter() {
        try (TestNetwork three = TestNetwork.threeLansWithRouter()) {
            assertThat(three.host("c1").address()).isEqualTo("10.77.3.1");
            assertThat(three.host("a1").canReach(three.host("c2").address())).isTrue();
            assertThat(three.host("c1").canReach(three.host("b1").address())).isTrue();
        }
    }
}
