package org.fjm2.testkit.linkem;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.fjm2.util.Quantities;
import org.junit.jupiter.api.Test;

/**
 * The UDP relay over loopback with real sockets. Timing assertions are one-sided or loose (the machine is
 * shared); counts are compared with an exact replay of the seeded impairment engine.
 */
class UdpRelayTest {

    private static final long SEED = Long.getLong("linkem.test.seed", 20240611L);
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    private static UdpRelay relay(ProbeReceiver target, LinkProfile forward) throws Exception {
        return LinkEmulator.udpRelay(ANY_LOOPBACK_PORT, target.address()).forward(forward).seed(SEED).start();
    }

    @Test
    void rateLimitHoldsOverSecondsOfTraffic() throws Exception {
        long rate = 20_000_000;
        try (ProbeReceiver target = new ProbeReceiver(20_000);
             UdpRelay relay = relay(target, LinkProfile.builder().rate(rate).build());
             DatagramSocket client = new DatagramSocket()) {
            // Offer twice the rate for 2.5 s: 1400-byte datagrams every 280 us.
            ProbeReceiver.sendPaced(client, relay.localAddress(), 8900, 1400, Duration.ofNanos(280_000));
            int received = target.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(10));

            long span = target.arrivedAt(received - 1) - target.arrivedAt(0);
            double achieved = (received - 1) * 1400 * 8 * 1e9 / span;
            DirectionStats s = relay.stats().forward();
            System.out.printf("rate limit %s: received %d of %d, %.2f Mbit/s over %.2f s, %s%n",
                    Quantities.formatRate(rate), received, s.packetsIn(), achieved / 1e6, span / 1e9, s.statusLine());
            assertThat(achieved).as("achieved rate, bits/s").isBetween(rate * 0.8, rate * 1.03);
            assertThat(s.droppedQueue()).as("the excess is dropped by the queue and counted").isPositive();
            assertThat(received).isEqualTo((int) s.packetsOut());
        }
    }

    @Test
    void delayAddsAtLeastTheConfiguredDelay() throws Exception {
        Duration delay = Duration.ofMillis(40);
        try (ProbeReceiver target = new ProbeReceiver(100);
             UdpRelay relay = relay(target, LinkProfile.builder().delay(delay).build());
             DatagramSocket client = new DatagramSocket()) {
            ProbeReceiver.sendPaced(client, relay.localAddress(), 100, 200, Duration.ofMillis(5));
            assertThat(target.awaitCount(100, Duration.ofSeconds(10))).isEqualTo(100);
            long[] latencies = new long[100];
            for (int i = 0; i < 100; i++) {
                latencies[i] = target.arrivedAt(i) - target.sentAt(i);
                assertThat(latencies[i]).as("one-way latency of probe %d", target.sequence(i))
                        .isGreaterThanOrEqualTo(delay.toNanos());
            }
            Arrays.sort(latencies);
            assertThat(latencies[50]).as("median latency stays near the delay").isLessThan(delay.toNanos() + 200_000_000L);
        }
    }

    @Test
    void lossCountIsExactForTheSeed() throws Exception {
        LinkProfile profile = LinkProfile.builder().loss(0.03).build();
        try (ProbeReceiver target = new ProbeReceiver(5000);
             UdpRelay relay = relay(target, profile);
             DatagramSocket client = new DatagramSocket()) {
            ProbeReceiver.sendPaced(client, relay.localAddress(), 5000, 100, Duration.ofNanos(100_000));
            int received = target.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(10));
            DirectionStats s = relay.stats().forward();

            long expected = replayDrops(profile, SEED, s.packetsIn());
            assertThat(s.droppedLoss()).as("seed %d: losses replayed over %d datagrams", SEED, s.packetsIn())
                    .isEqualTo(expected);
            assertThat(received).as("seed %d", SEED).isEqualTo((int) (s.packetsIn() - expected));
            assertThat((double) expected / s.packetsIn()).as("seed %d: loss rate", SEED).isBetween(0.02, 0.04);
        }
    }

    @Test
    void jitterWithoutReorderingKeepsOrder() throws Exception {
        LinkProfile profile = LinkProfile.builder().delay(Duration.ofMillis(10)).jitter(Duration.ofMillis(8)).build();
        try (ProbeReceiver target = new ProbeReceiver(2000);
             UdpRelay relay = relay(target, profile);
             DatagramSocket client = new DatagramSocket()) {
            ProbeReceiver.sendPaced(client, relay.localAddress(), 2000, 100, Duration.ofNanos(100_000));
            assertThat(target.awaitCount(2000, Duration.ofSeconds(10))).isEqualTo(2000);
            for (int i = 0; i < 2000; i++) {
                assertThat(target.sequence(i)).as("seed %d: arrival %d", SEED, i).isEqualTo(i);
            }
        }
    }

    @Test
    void reorderingAndDuplicationHappenAsConfigured() throws Exception {
        LinkProfile profile = LinkProfile.builder().delay(Duration.ofMillis(5))
                .reorder(0.05, Duration.ofMillis(20)).duplicate(0.05).build();
        try (ProbeReceiver target = new ProbeReceiver(3000);
             UdpRelay relay = relay(target, profile);
             DatagramSocket client = new DatagramSocket()) {
            ProbeReceiver.sendPaced(client, relay.localAddress(), 2000, 100, Duration.ofNanos(500_000));
            int received = target.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(10));
            DirectionStats s = relay.stats().forward();

            LinkDirection replay = new LinkDirection("forward", profile, SEED, 0, 0);
            for (long i = 0; i < s.packetsIn(); i++) {
                replay.admitDatagram(i * 500_000, 100);
            }
            DirectionStats expected = replay.counters().snapshot("forward");
            assertThat(s.reordered()).as("seed %d", SEED).isEqualTo(expected.reordered());
            assertThat(s.duplicated()).as("seed %d", SEED).isEqualTo(expected.duplicated());
            assertThat(s.reordered()).as("seed %d: 5%% of 2000", SEED).isBetween(60L, 140L);

            Set<Integer> seen = new HashSet<>();
            int copies = 0;
            int late = 0;
            int highest = -1;
            for (int i = 0; i < received; i++) {
                int seq = target.sequence(i);
                if (!seen.add(seq)) {
                    copies++;
                    continue;
                }
                if (seq < highest) {
                    late++;
                }
                highest = Math.max(highest, seq);
            }
            assertThat(received).isEqualTo(2000 + copies);
            assertThat(copies).as("seed %d: every duplicate arrives", SEED).isEqualTo((int) s.duplicated());
            // A held-back packet is overtaken by the ~40 sent during its extra 20 ms, unless the sender stalled.
            assertThat(late).as("seed %d: held-back packets arrive after later ones", SEED)
                    .isBetween((int) (s.reordered() * 0.7), (int) s.reordered());
        }
    }

    @Test
    void upDownScheduleDropsDuringDownPeriods() throws Exception {
        UpDownSchedule schedule = UpDownSchedule.of(Duration.ofMillis(400), Duration.ofMillis(400));
        try (ProbeReceiver target = new ProbeReceiver(2000);
             DatagramSocket client = new DatagramSocket()) {
            long beforeStart = System.nanoTime();
            try (UdpRelay relay = relay(target, LinkProfile.builder().upDown(schedule).build())) {
                long afterStart = System.nanoTime();
                long[] sentAt = ProbeReceiver.sendPaced(client, relay.localAddress(), 1200, 100, Duration.ofMillis(2));
                int received = target.awaitQuiet(Duration.ofMillis(300), Duration.ofSeconds(10));
                DirectionStats s = relay.stats().forward();

                boolean[] arrived = new boolean[sentAt.length];
                for (int i = 0; i < received; i++) {
                    arrived[target.sequence(i)] = true;
                }
                int checkedUp = 0;
                int checkedDown = 0;
                for (int i = 0; i < sentAt.length; i++) {
                    // Time since the epoch in ms, bounded by when start() may have taken it; phase in the 800 ms cycle.
                    long sinceLatest = (sentAt[i] - afterStart) / 1_000_000;
                    long sinceEarliest = (sentAt[i] - beforeStart) / 1_000_000;
                    if (sinceLatest / 800 != sinceEarliest / 800) {
                        continue;
                    }
                    long early = sinceLatest % 800;
                    long late = sinceEarliest % 800;
                    if (early >= 100 && late <= 300) {
                        assertThat(arrived[i]).as("probe %d sent mid-up (%d ms into the cycle)", i, late).isTrue();
                        checkedUp++;
                    } else if (early >= 500 && late <= 700) {
                        assertThat(arrived[i]).as("probe %d sent mid-down (%d ms into the cycle)", i, late).isFalse();
                        checkedDown++;
                    }
                }
                assertThat(checkedUp).isGreaterThan(100);
                assertThat(checkedDown).isGreaterThan(100);
                assertThat(s.droppedDown()).isEqualTo(s.packetsIn() - received);
            }
        }
    }

    @Test
    void repliesReturnThroughTheReverseProfileFromOneSocketPerClient() throws Exception {
        Set<InetSocketAddress> sources = ConcurrentHashMap.newKeySet();
        try (DatagramSocket echo = new DatagramSocket(ANY_LOOPBACK_PORT)) {
            Thread echoer = echoServer(echo, sources);
            Duration reverseDelay = Duration.ofMillis(30);
            try (UdpRelay relay = LinkEmulator.udpRelay(ANY_LOOPBACK_PORT, (InetSocketAddress) echo.getLocalSocketAddress())
                    .reverse(LinkProfile.builder().delay(reverseDelay).build()).seed(SEED).start();
                 ProbeReceiver clientA = new ProbeReceiver(10);
                 ProbeReceiver clientB = new ProbeReceiver(10)) {
                for (int i = 0; i < 10; i++) {
                    ProbeReceiver.send(clientA.socket, relay.localAddress(), i, 64);
                    ProbeReceiver.send(clientB.socket, relay.localAddress(), i, 64);
                }
                assertThat(clientA.awaitCount(10, Duration.ofSeconds(10))).isEqualTo(10);
                assertThat(clientB.awaitCount(10, Duration.ofSeconds(10))).isEqualTo(10);
                for (int i = 0; i < 10; i++) {
                    assertThat(clientA.arrivedAt(i) - clientA.sentAt(i)).isGreaterThanOrEqualTo(reverseDelay.toNanos());
                }
                assertThat(sources).as("the target sees each client from its own forwarding socket").hasSize(2);
                assertThat(relay.stats().flows()).isEqualTo(2);
                assertThat(relay.stats().reverse().packetsOut()).isEqualTo(20);
            } finally {
                echoer.interrupt();
            }
        }
    }

    @Test
    void sharedSocketModeForwardsEveryClientFromOnePort() throws Exception {
        Set<InetSocketAddress> sources = ConcurrentHashMap.newKeySet();
        try (DatagramSocket echo = new DatagramSocket(ANY_LOOPBACK_PORT)) {
            Thread echoer = echoServer(echo, sources);
            try (UdpRelay relay = LinkEmulator.udpRelay(ANY_LOOPBACK_PORT, (InetSocketAddress) echo.getLocalSocketAddress())
                    .socketPerClient(false).seed(SEED).start();
                 ProbeReceiver clientA = new ProbeReceiver(10);
                 ProbeReceiver clientB = new ProbeReceiver(10)) {
                ProbeReceiver.send(clientA.socket, relay.localAddress(), 1, 64);
                assertThat(clientA.awaitCount(1, Duration.ofSeconds(10))).isEqualTo(1);
                ProbeReceiver.send(clientB.socket, relay.localAddress(), 2, 64);
                assertThat(clientB.awaitCount(1, Duration.ofSeconds(10))).isEqualTo(1);
                assertThat(sources).hasSize(1);
            } finally {
                echoer.interrupt();
            }
        }
    }

    private static Thread echoServer(DatagramSocket socket, Set<InetSocketAddress> sources) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[2048];
            DatagramPacket p = new DatagramPacket(buffer, buffer.length);
            try {
                while (true) {
                    p.setLength(buffer.length);
                    socket.receive(p);
                    sources.add((InetSocketAddress) p.getSocketAddress());
                    socket.send(new DatagramPacket(buffer, p.getLength(), p.getSocketAddress()));
                }
            } catch (java.io.IOException closed) {
                // done
            }
        }, "echo");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** The exact number of losses the seeded engine draws for {@code packets} datagrams with {@code profile}. */
    static long replayDrops(LinkProfile profile, long seed, long packets) {
        LinkDirection replay = new LinkDirection("forward", profile, seed, 0, 0);
        long dropped = 0;
        for (long i = 0; i < packets; i++) {
            dropped += replay.admitDatagram(i, 100) < 0 ? 1 : 0;
        }
        return dropped;
    }
}
