package org.fjm2.testkit.linkem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.time.Duration;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The multicast bridge on loopback: side A and side B are the same group on two ports of {@code lo}. Groups and
 * ports are drawn per run (printed) so that parallel builds on the machine do not hear each other.
 */
class MulticastBridgeTest {

    private static final long SEED = Long.getLong("linkem.test.seed", 77L);
    private static NetworkInterface loopback;
    private static InetAddress group;

    @BeforeAll
    static void loopbackMulticastWorks() throws IOException {
        loopback = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        Assumptions.assumeTrue(loopback != null, "no loopback interface: multicast bridge tests skipped");
        SplittableRandom r = new SplittableRandom(System.nanoTime());
        group = InetAddress.getByName("239.255." + r.nextInt(1, 255) + "." + r.nextInt(1, 255));
        System.out.println("multicast bridge tests use group " + group.getHostAddress());
        try (MulticastSocket probe = new MulticastSocket(0)) {
            probe.joinGroup(new InetSocketAddress(group, 0), loopback);
        } catch (IOException e) {
            Assumptions.abort("cannot join a multicast group on " + loopback.getName() + ": " + e);
        }
    }

    private static int freePort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static ProbeReceiver member(InetSocketAddress side, int capacity) throws IOException {
        MulticastSocket socket = new MulticastSocket(side);
        socket.joinGroup(side, loopback);
        return new ProbeReceiver(socket, capacity);
    }

    private static MulticastSocket publisher() throws IOException {
        MulticastSocket socket = new MulticastSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        socket.setNetworkInterface(loopback);
        socket.setTimeToLive(1);
        return socket;
    }

    @Test
    void bridgesAToBAndDoesNotLoop() throws Exception {
        InetSocketAddress a = new InetSocketAddress(group, freePort());
        InetSocketAddress b = new InetSocketAddress(group, freePort());
        try (ProbeReceiver onA = member(a, 1000);
             ProbeReceiver onB = member(b, 1000);
             MulticastBridge bridge = LinkEmulator.multicastBridge(new MulticastSide(a, loopback), new MulticastSide(b, loopback))
                     .seed(SEED).start();
             MulticastSocket source = publisher()) {
            ProbeReceiver.sendPaced(source, a, 200, 500, Duration.ofMillis(1));

            assertThat(onB.awaitCount(200, Duration.ofSeconds(10))).as("all 200 reach side B").isEqualTo(200);
            onB.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(5));
            LinkStats settled = bridge.stats();
            // Had the bridge heard its own re-emissions as new traffic, these counters would keep growing.
            onA.awaitQuiet(Duration.ofMillis(500), Duration.ofSeconds(5));
            LinkStats later = bridge.stats();

            assertThat(later.forward()).as("counters stay put once the source stops").isEqualTo(settled.forward());
            assertThat(later.reverse()).isEqualTo(settled.reverse());
            assertThat(later.ignored()).isEqualTo(settled.ignored());
            assertThat(later.kernelDrops()).as("-1 where unreadable").isLessThanOrEqualTo(0);
            assertThat(later.forward().packetsIn()).isEqualTo(200);
            assertThat(later.forward().packetsOut()).isEqualTo(200);
            assertThat(later.reverse().packetsIn()).as("B heard only the bridge's own datagrams: none relayed back").isZero();
            assertThat(later.ignored()).as("the bridge's re-emissions heard back on B are recognised").isEqualTo(200);
            assertThat(onB.count()).isEqualTo(200);
            assertThat(onA.count()).as("side A gets the source's 200 and nothing back from the bridge").isEqualTo(200);
        }
    }

    @Test
    void bridgesBToAThroughTheReverseProfile() throws Exception {
        InetSocketAddress a = new InetSocketAddress(group, freePort());
        InetSocketAddress b = new InetSocketAddress(group, freePort());
        Duration delay = Duration.ofMillis(25);
        LinkProfile lossy = LinkProfile.builder().delay(delay).loss(0.1).build();
        try (ProbeReceiver onA = member(a, 1000);
             MulticastBridge bridge = LinkEmulator.multicastBridge(new MulticastSide(a, loopback), new MulticastSide(b, loopback))
                     .reverse(lossy).seed(SEED).start();
             MulticastSocket source = publisher()) {
            ProbeReceiver.sendPaced(source, b, 500, 200, Duration.ofNanos(500_000));
            int received = onA.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(10));
            DirectionStats reverse = bridge.stats().reverse();

            assertThat(reverse.packetsIn()).isEqualTo(500);
            long expectedLoss = replayReverseDrops(lossy, SEED, 500);
            assertThat(reverse.droppedLoss()).as("seed %d", SEED).isEqualTo(expectedLoss);
            assertThat(received).as("seed %d", SEED).isEqualTo(500 - (int) expectedLoss);
            for (int i = 0; i < received; i++) {
                assertThat(onA.arrivedAt(i) - onA.sentAt(i)).isGreaterThanOrEqualTo(delay.toNanos());
            }
            assertThat(bridge.stats().forward().packetsIn()).isZero();
        }
    }

    /**
     * A receiver on B answers the sender it saw — the bridge's socket on B — by unicast (NORM's ACKs, FJM2's flow
     * reports): the answer crosses through the reverse profile into A's group, where the real sender hears it.
     * Before, the bridge's sending sockets were connected to their group and the kernel dropped such answers.
     */
    @Test
    void relaysUnicastAnswersToItsReEmissionsIntoTheOtherSide() throws Exception {
        InetSocketAddress a = new InetSocketAddress(group, freePort());
        InetSocketAddress b = new InetSocketAddress(group, freePort());
        try (ProbeReceiver onA = member(a, 1000);
             ProbeReceiver onB = member(b, 1000);
             MulticastBridge bridge = LinkEmulator.multicastBridge(new MulticastSide(a, loopback), new MulticastSide(b, loopback))
                     .seed(SEED).start();
             MulticastSocket answerer = publisher()) {
            ProbeReceiver.sendPaced(answerer, bridge.sourceAddressOnB(), 100, 300, Duration.ofMillis(1));

            assertThat(onA.awaitCount(100, Duration.ofSeconds(10))).as("every answer reaches side A").isEqualTo(100);
            assertThat(bridge.stats().reverse().packetsIn()).isEqualTo(100);
            assertThat(bridge.stats().forward().packetsIn()).as("nothing of it goes back to B").isZero();
            assertThat(onB.count()).isZero();
        }
    }

    @Test
    void refusesTwoSidesThatAreOneGroup() {
        InetSocketAddress a = new InetSocketAddress(group, 7001);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> LinkEmulator.multicastBridge(
                new MulticastSide(a, loopback), new MulticastSide(a, loopback)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("both sides");
    }

    private static long replayReverseDrops(LinkProfile profile, long seed, int packets) {
        return UdpRelayTest.replayDrops(profile, seed ^ LinkEmulator.REVERSE_SEED_SALT, packets);
    }
}
