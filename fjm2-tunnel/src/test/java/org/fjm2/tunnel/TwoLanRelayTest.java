package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.Unpooled;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.TestObjects;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.tunnel.relay.PeerCounters;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.junit.jupiter.api.Test;

/**
 * Two LANs on loopback joined only by two daemons: a sender on LAN A, two receivers on LAN B. Every object arrives
 * complete, byte-identical, in order and exactly once at both receivers, through a clear and through a sealed
 * tunnel, and the daemons count what they did.
 */
class TwoLanRelayTest {

    static final int OBJECTS = 1500;
    static final long CONTENT_SEED = 424242L;

    @Test
    void objectsCrossTheTunnelInOrder() throws Exception {
        run(false);
    }

    @Test
    void objectsCrossASealedTunnel() throws Exception {
        run(true);
    }

    private void run(boolean seal) throws Exception {
        NormConfig lanA = LoopbackLans.lan();
        NormConfig lanB = LoopbackLans.lan();
        int[] sizes = TestObjects.logUniformSizes(OBJECTS, 100, 64 * 1024, CONTENT_SEED);
        long[] crcs = new long[OBJECTS];
        List<NormSession> sessions = new ArrayList<>();
        try (TunnelDaemon a = LoopbackLans.tunnel(lanA, "a", b -> b.seal(seal));
             TunnelDaemon b = LoopbackLans.tunnel(lanB, "b", x -> x.seal(seal))) {
            LoopbackLans.fullMesh(a, b);
            List<ObjectCollector> collectors = new ArrayList<>();
            for (int r = 0; r < 2; r++) {
                ObjectCollector c = new ObjectCollector();
                collectors.add(c);
                sessions.add(NormSession.open(lanB.toBuilder().nodeId(200 + r).build(), c, 20 + r));
            }
            NormSession sender = NormSession.open(lanA.toBuilder().nodeId(100).build(), null, 10);
            sessions.add(sender);
            for (int i = 0; i < OBJECTS; i++) {
                byte[] content = TestObjects.content(CONTENT_SEED, i, sizes[i]);
                crcs[i] = ObjectCollector.crc(content);
                assertThat(sender.enqueue(Unpooled.wrappedBuffer(content), null, 4, 60, TimeUnit.SECONDS))
                        .as("enqueue %d", i).isGreaterThanOrEqualTo(0);
            }
            for (int r = 0; r < 2; r++) {
                ObjectCollector c = collectors.get(r);
                assertThat(c.await(OBJECTS, 90, TimeUnit.SECONDS)).as("receiver %d got %d of %d; %s | %s", r,
                        c.count(), OBJECTS, a.getStatusLine(), b.getStatusLine()).isTrue();
                assertThat(c.lost()).as("lost at receiver %d", r).isEmpty();
                List<ObjectCollector.Received> got = c.received();
                for (int i = 0; i < OBJECTS; i++) {
                    assertThat(got.get(i).size()).as("size of object %d at receiver %d", i, r).isEqualTo(sizes[i]);
                    assertThat(got.get(i).crc()).as("content of object %d at receiver %d", i, r).isEqualTo(crcs[i]);
                }
            }
            System.out.println(a.getStatusLine());
            System.out.println(b.getStatusLine());
            assertThat(b.counters().get(Counter.LAN_PACKETS_OUT)).isGreaterThanOrEqualTo(OBJECTS);
            LoopbackLans.assertNothingRefused(a, b.getStatusLine());
            LoopbackLans.assertNothingRefused(b, a.getStatusLine());
            assertThat(a.peers()).hasSize(1);
            long framesSent = a.peers().get(0).counters().get(PeerCounters.Counter.PACKETS_OUT);
            long framesReceived = b.peers().get(0).counters().get(PeerCounters.Counter.PACKETS_IN);
            assertThat(framesReceived).as("B cannot receive more frames than A sent").isLessThanOrEqualTo(framesSent)
                    .isGreaterThanOrEqualTo(OBJECTS);
        } finally {
            sessions.forEach(NormSession::close);
        }
    }
}
