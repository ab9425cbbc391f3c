package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.tunnel.relay.Peer;
import org.fjm2.tunnel.relay.PeerCounters;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.junit.jupiter.api.Test;

/**
 * Three LANs in a full mesh (a sender and a receiver on each) and four LANs in a ring with transit: every object
 * reaches every receiver exactly once and in order, and the packet counters show no storm: each daemon sends each
 * packet to at most its number of peers, and packets that come back are counted as duplicates, not forwarded.
 */
class MeshAndRingTest {

    static final int OBJECTS = 300;

    @Test
    void threeLansInAFullMeshDeliverExactlyOnceWithoutStorm() throws Exception {
        List<TunnelDaemon> daemons = new ArrayList<>();
        List<NormSession> sessions = new ArrayList<>();
        try {
            NormConfig[] lans = new NormConfig[3];
            ObjectCollector[] collectors = new ObjectCollector[3];
            for (int i = 0; i < 3; i++) {
                lans[i] = LoopbackLans.lan();
                daemons.add(LoopbackLans.tunnel(lans[i], "mesh" + i, null));
                collectors[i] = new ObjectCollector();
                sessions.add(NormSession.open(lans[i].toBuilder().nodeId(200 + i).build(), collectors[i], 20 + i));
            }
            LoopbackLans.fullMesh(daemons.toArray(new TunnelDaemon[0]));
            NormSession[] senders = new NormSession[3];
            for (int i = 0; i < 3; i++) {
                senders[i] = NormSession.open(lans[i].toBuilder().nodeId(100 + i).build(), null, 10 + i);
                sessions.add(senders[i]);
            }
            LoopbackLans.Sent[] sent = new LoopbackLans.Sent[3];
            for (int i = 0; i < 3; i++) {
                sent[i] = LoopbackLans.send(senders[i], OBJECTS, 100, 32 * 1024, 7000 + i);
            }
            for (int r = 0; r < 3; r++) {
                for (int s = 0; s < 3; s++) {
                    assertThat(LoopbackLans.awaitFrom(collectors[r], 100 + s, OBJECTS, 90))
                            .as("receiver %d waiting for sender %d; %s", r, s, status(daemons)).isTrue();
                    LoopbackLans.assertReceivedAll(collectors[r], sent[s], "receiver " + r);
                }
            }
            long lanIn = 0;
            long framesOut = 0;
            for (TunnelDaemon d : daemons) {
                System.out.println(d.getStatusLine());
                assertThat(d.counters().get(Counter.DUPLICATES)).as("duplicates at %s (full mesh, no transit)",
                        d.config().nodeId()).isZero();
                LoopbackLans.assertNothingRefused(d, status(daemons));
                lanIn += d.counters().get(Counter.LAN_PACKETS_IN);
                framesOut += dataFramesOut(d);
            }
            // Each packet heard on a LAN goes to 2 peers (plus cache repairs, which answer NACKs): no storm.
            assertThat(framesOut).as("frames sent per LAN packet (2 peers): %s", status(daemons))
                    .isLessThanOrEqualTo(2 * lanIn + served(daemons));
        } finally {
            sessions.forEach(NormSession::close);
            daemons.forEach(TunnelDaemon::close);
        }
    }

    @Test
    void fourLansInARingWithTransitDeliverExactlyOnceWithoutStorm() throws Exception {
        List<TunnelDaemon> daemons = new ArrayList<>();
        List<NormSession> sessions = new ArrayList<>();
        try {
            NormConfig[] lans = new NormConfig[4];
            for (int i = 0; i < 4; i++) {
                lans[i] = LoopbackLans.lan();
                daemons.add(LoopbackLans.tunnel(lans[i], "ring" + i, b -> b.transit(true)));
            }
            for (int i = 0; i < 4; i++) {
                daemons.get(i).setStaticPeers(List.of(LoopbackLans.wanAddress(daemons.get((i + 1) % 4)),
                        LoopbackLans.wanAddress(daemons.get((i + 3) % 4))));
            }
            LoopbackLans.awaitAnswering(daemons.toArray(new TunnelDaemon[0]));
            ObjectCollector far = new ObjectCollector();
            ObjectCollector near = new ObjectCollector();
            sessions.add(NormSession.open(lans[2].toBuilder().nodeId(202).build(), far, 22));
            sessions.add(NormSession.open(lans[1].toBuilder().nodeId(201).build(), near, 21));
            NormSession sender = NormSession.open(lans[0].toBuilder().nodeId(100).build(), null, 10);
            sessions.add(sender);
            LoopbackLans.Sent sent = LoopbackLans.send(sender, OBJECTS, 100, 32 * 1024, 8000);
            assertThat(LoopbackLans.awaitFrom(far, 100, OBJECTS, 90)).as("two hops away; %s", status(daemons))
                    .isTrue();
            assertThat(LoopbackLans.awaitFrom(near, 100, OBJECTS, 90)).as("one hop away; %s", status(daemons))
                    .isTrue();
            LoopbackLans.assertReceivedAll(far, sent, "LAN 2 (two hops)");
            LoopbackLans.assertReceivedAll(near, sent, "LAN 1 (one hop)");
            long lanIn = 0;
            long framesOut = 0;
            long duplicates = 0;
            for (TunnelDaemon d : daemons) {
                System.out.println(d.getStatusLine());
                lanIn += d.counters().get(Counter.LAN_PACKETS_IN);
                framesOut += dataFramesOut(d);
                duplicates += d.counters().get(Counter.DUPLICATES);
            }
            // The packet reaches the opposite LAN by both ways round: the second copy is dropped there.
            assertThat(daemons.get(2).counters().get(Counter.DUPLICATES)).as(status(daemons)).isPositive();
            // Every distinct packet is sent at most twice per daemon (2 peers) by 4 daemons.
            assertThat(framesOut).as("frames sent vs packets published in the ring: %s", status(daemons))
                    .isLessThanOrEqualTo(8 * lanIn + served(daemons));
            assertThat(duplicates).isLessThanOrEqualTo(framesOut);
        } finally {
            sessions.forEach(NormSession::close);
            daemons.forEach(TunnelDaemon::close);
        }
    }

    private static long dataFramesOut(TunnelDaemon d) {
        long n = 0;
        for (Peer p : d.peers()) {
            n += p.counters().get(PeerCounters.Counter.PACKETS_OUT) - p.counters().get(PeerCounters.Counter.HELLOS_OUT)
                    - p.counters().get(PeerCounters.Counter.REPLIES_OUT);
        }
        return n;
    }

    private static long served(List<TunnelDaemon> daemons) {
        return daemons.stream().mapToLong(d -> d.counters().get(Counter.REPAIRS_SERVED)).sum();
    }

    private static String status(List<TunnelDaemon> daemons) {
        StringBuilder sb = new StringBuilder();
        daemons.forEach(d -> sb.append('\n').append(d.getStatusLine()));
        return sb.toString();
    }
}
