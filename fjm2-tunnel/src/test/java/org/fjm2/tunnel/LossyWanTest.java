package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.testkit.linkem.LinkEmulator;
import org.fjm2.testkit.linkem.LinkProfile;
import org.fjm2.testkit.linkem.UdpRelay;
import org.fjm2.tunnel.relay.Peer;
import org.fjm2.tunnel.relay.PeerCounters;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.junit.jupiter.api.Test;

/**
 * Two LANs joined through the userspace link emulator (seeded 5% random loss each way, 15 ms one-way delay):
 * everything arrives, in order, with hop-by-hop repair (and the daemon on the sender's side serves repairs from its
 * cache, so NACKs stop there) and with plain relaying (NACKs go all the way to the sender).
 */
class LossyWanTest {

    static final int OBJECTS = 600;
    static final long LINK_SEED = Long.getLong("fjm2.test.linkSeed", 5150L);

    @Test
    void hopByHopRepairServesLossesFromTheCache() throws Exception {
        run(true);
    }

    @Test
    void plainRelayingRecoversThroughTheSender() throws Exception {
        run(false);
    }

    private void run(boolean hopByHop) throws Exception {
        NormConfig lanA = LoopbackLans.lan();
        NormConfig lanB = LoopbackLans.lan();
        LinkProfile wan = LinkProfile.builder().delay(Duration.ofMillis(15)).loss(0.05).build();
        List<NormSession> sessions = new ArrayList<>();
        // B learns A from its authentic traffic through the emulator (A is "behind" it, like a NATed peer).
        try (TunnelDaemon a = LoopbackLans.tunnel(lanA, "lossy-a", x -> x.hopByHop(hopByHop));
             TunnelDaemon b = LoopbackLans.tunnel(lanB, "lossy-b", x -> x.hopByHop(hopByHop).acceptUnlisted(true));
             UdpRelay link = (UdpRelay) LinkEmulator.udpRelay(new InetSocketAddress("127.0.0.1", 0),
                     LoopbackLans.wanAddress(b)).both(wan).seed(LINK_SEED).name("wan").start()) {
            a.setStaticPeers(List.of(link.localAddress()));
            LoopbackLans.awaitAnswering(a, b);
            ObjectCollector collector = new ObjectCollector();
            sessions.add(NormSession.open(lanB.toBuilder().nodeId(200).build(), collector, 20));
            NormSession sender = NormSession.open(lanA.toBuilder().nodeId(100).txRate(20_000_000L).build(), null, 10);
            sessions.add(sender);
            LoopbackLans.Sent sent = LoopbackLans.send(sender, OBJECTS, 100, 16 * 1024, 9100);
            String context = "link seed " + LINK_SEED + ", hop-by-hop " + hopByHop;
            assertThat(LoopbackLans.awaitFrom(collector, 100, OBJECTS, 120)).as("%s; %s | %s | %s", context,
                    a.getStatusLine(), b.getStatusLine(), link.statusLine()).isTrue();
            LoopbackLans.assertReceivedAll(collector, sent, "LAN B (" + context + ")");
            System.out.println(context + "\n" + a.getStatusLine() + "\n" + b.getStatusLine() + "\n"
                    + link.statusLine());
            Peer bAtA = a.peers().get(0);
            if (hopByHop) {
                assertThat(a.counters().get(Counter.REPAIRS_SERVED)).as(context).isPositive();
                assertThat(bAtA.counters().get(PeerCounters.Counter.REPAIRS_SERVED)).as(context).isPositive();
                assertThat(a.counters().get(Counter.NACKS_ANSWERED) + a.counters().get(Counter.NACKS_REWRITTEN))
                        .as(context).isPositive();
            } else {
                assertThat(a.counters().get(Counter.REPAIRS_SERVED)).as(context).isZero();
                assertThat(a.counters().get(Counter.LAN_PACKETS_OUT)).as("NACKs relayed to LAN A; " + context)
                        .isPositive();
            }
            LoopbackLans.assertNothingRefused(b, context);
        } finally {
            sessions.forEach(NormSession::close);
        }
    }
}
