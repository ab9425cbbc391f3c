package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import javax.management.ObjectName;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.testkit.Await;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.junit.jupiter.api.Test;

/**
 * Two daemons configured with one node id (the old default, hostname-port, on cloned gateways): each refuses the
 * other's frames as a clash and says so in a warning, its status line and JMX, instead of silently cutting a LAN off.
 */
class NodeIdClashTest {

    @Test
    void aClashOfNodeIdsIsReportedInTheStatusLineAndJmx() throws Exception {
        NormConfig lanA = LoopbackLans.lan();
        NormConfig lanB = LoopbackLans.lan();
        try (TunnelDaemon a = LoopbackLans.tunnel(lanA, "gateway-6004", null);
             TunnelDaemon b = LoopbackLans.tunnel(lanB, "gateway-6004", null)) {
            a.setStaticPeers(List.of(LoopbackLans.wanAddress(b)));
            b.setStaticPeers(List.of(LoopbackLans.wanAddress(a)));
            Await.untilTrue("both daemons report the clash", () -> a.getNodeIdClashes() > 0
                    && b.getNodeIdClashes() > 0, Duration.ofSeconds(10), () -> a.getStatusLine() + " | "
                    + b.getStatusLine());
            assertThat(b.getStatusLine()).contains("NODE ID CLASH with 127.0.0.1:" + a.listenPort());
            assertThat(b.getNodeIdClashWith()).isEqualTo("127.0.0.1:" + a.listenPort());
            assertThat(b.counters().get(Counter.NODE_ID_CLASH)).isPositive();
            ObjectName name = new ObjectName("org.fjm2.tunnel:type=Tunnel,node=" + ObjectName.quote("gateway-6004"));
            Object viaJmx = ManagementFactory.getPlatformMBeanServer().getAttribute(name, "NodeIdClashes");
            assertThat((Long) viaJmx).isPositive();
            assertThat(b.peers().get(0).state().name()).as("nothing flows to a daemon we cannot tell from ourselves")
                    .isEqualTo("WAITING");
        }
    }
}
