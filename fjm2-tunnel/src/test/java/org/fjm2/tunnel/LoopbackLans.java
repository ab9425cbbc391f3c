package org.fjm2.tunnel;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.fjm2.norm.session.NormConfig;
import org.fjm2.norm.session.TestGroups;
import org.fjm2.tunnel.security.TunnelKey;

/**
 * "LANs" on one host for tests: each LAN is its own multicast group and port on loopback, and each has an FJM2D
 * listening on an ephemeral port of 127.0.0.1. Without the daemons, nothing crosses from one LAN to another.
 */
public final class LoopbackLans {

    public static final TunnelKey KEY = TunnelKey.of("test secret shared by the peers".getBytes(StandardCharsets.UTF_8));

    private LoopbackLans() {
    }

    /** A fresh LAN: its NORM settings (group, port, interface lo), for sessions with a node id of their own. */
    public static NormConfig lan() {
        return TestGroups.fresh().toBuilder()
                .txRate(50_000_000L)
                .grttInitial(Duration.ofMillis(5))
                .build();
    }

    /** A daemon on {@code lan}, its WAN port ephemeral on 127.0.0.1, no peers yet. */
    public static TunnelDaemon tunnel(NormConfig lan, String nodeId, Consumer<TunnelConfig.Builder> tweak)
            throws IOException {
        TunnelConfig.Builder b = TunnelConfig.builder(lan.group().getHostAddress(), lan.port())
                .interfaceName("lo")
                .listen(new InetSocketAddress("127.0.0.1", 0))
                .nodeId(nodeId)
                .key(KEY)
                .statusInterval(Duration.ZERO);
        if (tweak != null) {
            tweak.accept(b);
        }
        return TunnelDaemon.start(b.build());
    }

    public static InetSocketAddress wanAddress(TunnelDaemon d) {
        return new InetSocketAddress("127.0.0.1", d.listenPort());
    }

    /** Makes every daemon a static peer of every other (a full mesh). */
    public static void fullMesh(TunnelDaemon... daemons) throws IOException {
        for (TunnelDaemon d : daemons) {
            List<InetSocketAddress> others = new ArrayList<>();
            for (TunnelDaemon o : daemons) {
                if (o != d) {
                    others.add(wanAddress(o));
                }
            }
            d.setStaticPeers(others);
        }
    }
}
