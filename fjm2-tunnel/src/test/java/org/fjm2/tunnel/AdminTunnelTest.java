package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.fjm2.admin.testing.AdminContainers;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.EmbeddedTomcat;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.tunnel.relay.Peer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Daemons that know nothing but FJM2-Admin's address (the real WAR in an embedded Tomcat): they register, learn each
 * other from the list, relay, and when one shuts down it deregisters and the other drops it from its peers (the
 * admin's advertisement of the new list stamp arrives on the daemon's UDP port).
 */
class AdminTunnelTest {

    static final String TOKEN = "tunnel-admin-token-0123456789";

    @TempDir
    Path dir;

    @Test
    void daemonsFindEachOtherThroughTheAdminRelayAndDeregister() throws Exception {
        try (AdminServer admin = EmbeddedTomcat.deploy(dir.resolve("tomcat"), Map.of(
                "fjm2.admin.tokenFile", AdminContainers.tokenFile(dir, TOKEN).toString(),
                "fjm2.admin.dataDir", dir.resolve("data").toString(),
                "fjm2.admin.allowLoopback", "true",
                "fjm2.admin.advertiseInterval", "1h"))) {
            NormConfig lanA = LoopbackLans.lan();
            NormConfig lanB = LoopbackLans.lan();
            List<NormSession> sessions = new ArrayList<>();
            TunnelDaemon b = LoopbackLans.tunnel(lanB, "admin-b", x -> x.admin(admin.baseUri()).adminToken(TOKEN)
                    .advertisedHost("127.0.0.1"));
            try (TunnelDaemon a = LoopbackLans.tunnel(lanA, "admin-a", x -> x.admin(admin.baseUri()).adminToken(TOKEN)
                    .advertisedHost("127.0.0.1"))) {
                await(() -> names(a).contains("admin-b") && names(b).contains("admin-a"),
                        "each daemon lists the other: " + names(a) + " / " + names(b));
                // Data flows to a peer once it answered: objects sent before then reach nobody on LAN B, and a
                // receiver that never saw their data is not owed them (it joins later). CI caught that race.
                LoopbackLans.awaitAnswering(a, b);
                ObjectCollector collector = new ObjectCollector();
                sessions.add(NormSession.open(lanB.toBuilder().nodeId(200).build(), collector, 1));
                NormSession sender = NormSession.open(lanA.toBuilder().nodeId(100).build(), null, 2);
                sessions.add(sender);
                LoopbackLans.Sent sent = LoopbackLans.send(sender, 200, 100, 8192, 55);
                assertThat(LoopbackLans.awaitFrom(collector, 100, 200, 60)).as(a.getStatusLine()).isTrue();
                LoopbackLans.assertReceivedAll(collector, sent, "LAN B");
                b.close();
                await(() -> !names(a).contains("admin-b"), "A drops B after B deregistered: " + names(a));
            } finally {
                b.close();
                sessions.forEach(NormSession::close);
            }
        }
    }

    private static List<String> names(TunnelDaemon d) {
        return d.peers().stream().map(Peer::name).toList();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }
}
