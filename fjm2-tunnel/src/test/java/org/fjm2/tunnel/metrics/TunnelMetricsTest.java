package org.fjm2.tunnel.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.fjm2.testkit.Await;
import org.fjm2.tunnel.LoopbackLans;
import org.fjm2.tunnel.TunnelDaemon;
import org.fjm2.tunnel.relay.RelayCounters;
import org.junit.jupiter.api.Test;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.time.Duration;

/**
 * A daemon's meters in a SimpleMeterRegistry: every relay counter is there, and one moves when the daemon counts
 * (a datagram on its WAN port that is no tunnel traffic). Run inside a network namespace with only loopback.
 */
class TunnelMetricsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @Test
    void everyRelayCounterIsAMeterAndFollowsTheDaemon() throws Exception {
        MeterRegistry registry = new SimpleMeterRegistry();
        try (TunnelDaemon daemon = LoopbackLans.tunnel(LoopbackLans.lan(), "metrics-test", null);
             DatagramSocket socket = new DatagramSocket()) {
            new TunnelMetrics(daemon, Tag.of("site", "a")).bindTo(registry);
            for (RelayCounters.Counter c : RelayCounters.Counter.values()) {
                assertThat(registry.get(TunnelMetrics.meterName(c)).tag("tunnel", "metrics-test").tag("site", "a")
                        .functionCounter().count()).as("%s before any traffic", c).isZero();
            }
            assertThat(registry.get("fjm2.tunnel.peers").gauge().value()).isZero();
            assertThat(registry.get("fjm2.tunnel.repair.cache.entries").gauge().value()).isZero();

            byte[] junk = "not a tunnel datagram".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            socket.send(new DatagramPacket(junk, junk.length, LoopbackLans.wanAddress(daemon)));
            String foreign = TunnelMetrics.meterName(RelayCounters.Counter.FOREIGN_DATAGRAMS);
            Await.untilTrue("the foreign datagram counted",
                    () -> registry.get(foreign).functionCounter().count() > 0
                            || registry.get(TunnelMetrics.meterName(RelayCounters.Counter.AUTH_TRUNCATED))
                            .functionCounter().count() > 0,
                    TIMEOUT, daemon::getStatusLine);
            assertThat(registry.get(foreign).functionCounter().count() + registry.get(
                    TunnelMetrics.meterName(RelayCounters.Counter.AUTH_TRUNCATED)).functionCounter().count())
                    .isEqualTo(daemon.counters().get(RelayCounters.Counter.FOREIGN_DATAGRAMS)
                            + daemon.counters().get(RelayCounters.Counter.AUTH_TRUNCATED));
        }
    }
}
