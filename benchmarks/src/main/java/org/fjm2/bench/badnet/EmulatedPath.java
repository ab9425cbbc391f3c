package org.fjm2.bench.badnet;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import org.fjm2.bench.artemis.EmbeddedArtemis;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.testkit.linkem.LinkEmulator;
import org.fjm2.testkit.linkem.LinkProfile;
import org.fjm2.testkit.linkem.LinkStats;
import org.fjm2.testkit.linkem.MulticastSide;
import org.fjm2.testkit.linkem.TcpRelay;
import org.fjm2.testkit.linkem.UdpRelay;
import org.fjm2.tunnel.TunnelConfig;
import org.fjm2.tunnel.TunnelDaemon;
import org.fjm2.tunnel.security.TunnelKey;

/**
 * One publisher-to-subscriber path through one emulated link (the same {@link LinkProfile} each way), built for
 * one of the three systems the bad-network scenarios compare:
 * <ul>
 *   <li>{@link Kind#FJM2_END_TO_END}: the publisher's multicast group and the subscriber's group on loopback,
 *       joined by the link emulator's multicast bridge, so NORM repairs end to end across the link;</li>
 *   <li>{@link Kind#FJM2_TUNNEL}: the same two groups, each with its FJM2D, the daemons talking through the link
 *       emulator's UDP relay (hop-by-hop repair on);</li>
 *   <li>{@link Kind#ARTEMIS}: an embedded Artemis broker on the publisher's side, the subscriber connected to it
 *       through the link emulator's TCP relay.</li>
 * </ul>
 * Each path gets groups, ports and a topic of its own, so paths never hear each other.
 */
public final class EmulatedPath implements AutoCloseable {

    /** The systems compared. */
    public enum Kind {
        FJM2_END_TO_END("FJM2 end to end"),
        FJM2_TUNNEL("FJM2 via FJM2D hop"),
        ARTEMIS("Artemis over TCP");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }

        public boolean isFjm2() {
            return this != ARTEMIS;
        }
    }

    /**
     * How the FJM2 paths are tuned for the link.
     *
     * @param fjm2RateBitsPerSecond NORM sender rate (the {@code rate} URL parameter); below the link rate so that
     *                              repairs fit
     * @param grttSeconds           initial group round-trip time estimate (the {@code grtt} parameter): the link's
     *                              round trip, so that the first NACK rounds are not premature
     * @param tunnelRateBitsPerSecond pacing rate of each FJM2D towards its peer
     * @param extraParams           more URL parameters ("a=1&b=2"; empty: none)
     */
    public record Settings(long fjm2RateBitsPerSecond, double grttSeconds, long tunnelRateBitsPerSecond,
                           String extraParams) {
    }

    /** Multicast groups of the paths (each takes two); their UDP ports are free ephemeral ports. */
    static final String GROUP_PREFIX = "239.255.91.";

    private static final TunnelKey KEY = TunnelKey.of("badnet benchmark key, not secret"
            .getBytes(StandardCharsets.UTF_8));
    /** Starts at a per-process offset so that two runs on one host at once are unlikely to share groups. */
    private static final AtomicInteger NEXT = new AtomicInteger((int) (ProcessHandle.current().pid() % 100));

    private final Kind kind;
    private final String topic;
    private final ConnectionFactory publisherFactory;
    private final ConnectionFactory subscriberFactory;
    private final LinkEmulator link;
    private final List<AutoCloseable> resources;

    private EmulatedPath(Kind kind, String topic, ConnectionFactory publisherFactory,
                         ConnectionFactory subscriberFactory, LinkEmulator link, List<AutoCloseable> resources) {
        this.kind = kind;
        this.topic = topic;
        this.publisherFactory = publisherFactory;
        this.subscriberFactory = subscriberFactory;
        this.link = link;
        this.resources = resources;
    }

    /**
     * Builds a path of {@code kind} over {@code profile} (both directions), the link's random draws seeded with
     * {@code seed}. {@code broker} is needed for {@link Kind#ARTEMIS} only.
     */
    public static EmulatedPath open(Kind kind, LinkProfile profile, long seed, Settings settings,
                                    EmbeddedArtemis broker) throws Exception {
        int n = NEXT.getAndIncrement() % 120;
        String topic = "badnet." + n + "." + kind.name().toLowerCase(Locale.ROOT);
        // Ports free at this moment: another run on the host (same groups, maybe) cannot share them.
        String a = GROUP_PREFIX + (2 * n) + ":" + freeUdpPort();
        String b = GROUP_PREFIX + (2 * n + 1) + ":" + freeUdpPort();
        switch (kind) {
            case FJM2_END_TO_END -> {
                LinkEmulator link = LinkEmulator.multicastBridge(MulticastSide.of(a, "lo"), MulticastSide.of(b, "lo"))
                        .both(profile).seed(seed).name("path-" + n).start();
                return new EmulatedPath(kind, topic, fjm2(a, settings), fjm2(b, settings), link, List.of(link));
            }
            case FJM2_TUNNEL -> {
                TunnelDaemon da = tunnel(a, "badnet-a-" + n, settings, false);
                TunnelDaemon db = tunnel(b, "badnet-b-" + n, settings, true);
                LinkEmulator link = LinkEmulator.udpRelay(new InetSocketAddress("127.0.0.1", 0),
                        new InetSocketAddress("127.0.0.1", db.listenPort())).both(profile).seed(seed)
                        .name("path-" + n).start();
                da.setStaticPeers(List.of(((UdpRelay) link).localAddress()));
                // The far daemon learns the near one from its first authentic datagram through the link. A daemon
                // relays data only to a peer that answered its hello (a message published before would not cross):
                // wait for both, through the lossy link, so maybe after a lost hello.
                org.fjm2.testkit.Await.untilTrue("the daemons answer each other",
                        () -> da.allPeersAnswering() && db.allPeersAnswering(),
                        java.time.Duration.ofSeconds(30), () -> da.getStatusLine() + " | " + db.getStatusLine());
                return new EmulatedPath(kind, topic, fjm2(a, settings), fjm2(b, settings), link,
                        List.of(link, db, da));
            }
            case ARTEMIS -> {
                if (broker == null) {
                    throw new IllegalArgumentException("an Artemis path needs a broker");
                }
                LinkEmulator link = LinkEmulator.tcpRelay(new InetSocketAddress("127.0.0.1", 0),
                        new InetSocketAddress("127.0.0.1", broker.port())).both(profile).seed(seed)
                        .name("path-" + n).start();
                int relayPort = ((TcpRelay) link).localAddress().getPort();
                return new EmulatedPath(kind, topic, broker.connectionFactory(),
                        EmbeddedArtemis.connectionFactory(EmbeddedArtemis.url(relayPort)), link, List.of(link));
            }
            default -> throw new IllegalStateException(kind.toString());
        }
    }

    /** An embedded Artemis broker on a free loopback port, for the {@link Kind#ARTEMIS} paths of a run. */
    public static EmbeddedArtemis startBroker() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        return EmbeddedArtemis.start(port);
    }


    private static int freeUdpPort() throws IOException {
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static ConnectionFactory fjm2(String groupAndPort, Settings settings) throws JMSException {
        return new Fjm2ConnectionFactory(String.format(Locale.ROOT, "norm://%s?interface=lo&rate=%d&grtt=%s&jmx=false%s",
                groupAndPort, settings.fjm2RateBitsPerSecond(), settings.grttSeconds(),
                settings.extraParams().isEmpty() ? "" : "&" + settings.extraParams()));
    }

    private static TunnelDaemon tunnel(String groupAndPort, String node, Settings settings, boolean acceptUnlisted)
            throws IOException {
        String[] gp = groupAndPort.split(":");
        return TunnelDaemon.start(TunnelConfig.builder(gp[0], Integer.parseInt(gp[1])).interfaceName("lo")
                .listen(new InetSocketAddress("127.0.0.1", 0)).nodeId(node).key(KEY)
                .peerRate(settings.tunnelRateBitsPerSecond()).hopByHop(true).acceptUnlisted(acceptUnlisted)
                .statusInterval(Duration.ZERO).build());
    }

    public Kind kind() {
        return kind;
    }

    public String topic() {
        return topic;
    }

    public ConnectionFactory publisherFactory() {
        return publisherFactory;
    }

    public ConnectionFactory subscriberFactory() {
        return subscriberFactory;
    }

    public LinkStats linkStats() {
        return link.stats();
    }

    public String linkStatus() {
        return link.statusLine();
    }

    @Override
    public void close() {
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                System.err.println("closing " + r + ": " + e);
            }
        }
    }
}
