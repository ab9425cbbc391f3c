package org.fjm2.tunnel;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import javax.crypto.Mac;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.ObjectCollector;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.fjm2.tunnel.security.FrameCodec;
import org.fjm2.tunnel.security.TunnelKey;
import org.junit.jupiter.api.Test;

/**
 * Peer authentication end to end: a daemon keyed with another secret neither reads the sealed traffic sent to it
 * nor injects anything, and forged, replayed, stale and truncated datagrams are dropped and counted.
 */
class PeerAuthenticationTest {

    static final TunnelKey WRONG = TunnelKey.of("not the key the peers share!!".getBytes(StandardCharsets.UTF_8));

    @Test
    void aDaemonWithoutTheKeyLearnsNothingAndInjectsNothing() throws Exception {
        NormConfig lanA = LoopbackLans.lan();
        NormConfig lanB = LoopbackLans.lan();
        NormConfig lanR = LoopbackLans.lan();
        List<NormSession> sessions = new ArrayList<>();
        try (TunnelDaemon a = LoopbackLans.tunnel(lanA, "auth-a", x -> x.seal(true));
             TunnelDaemon b = LoopbackLans.tunnel(lanB, "auth-b", null);
             TunnelDaemon rogue = LoopbackLans.tunnel(lanR, "rogue", x -> x.key(WRONG).acceptUnlisted(true))) {
            a.setStaticPeers(List.of(LoopbackLans.wanAddress(b), LoopbackLans.wanAddress(rogue)));
            b.setStaticPeers(List.of(LoopbackLans.wanAddress(a)));
            rogue.setStaticPeers(List.of(LoopbackLans.wanAddress(b), LoopbackLans.wanAddress(a)));
            ObjectCollector atB = new ObjectCollector();
            ObjectCollector atRogue = new ObjectCollector();
            sessions.add(NormSession.open(lanB.toBuilder().nodeId(200).build(), atB, 1));
            sessions.add(NormSession.open(lanR.toBuilder().nodeId(300).build(), atRogue, 2));
            NormSession good = NormSession.open(lanA.toBuilder().nodeId(100).build(), null, 3);
            NormSession bad = NormSession.open(lanR.toBuilder().nodeId(301).build(), null, 4);
            sessions.add(good);
            sessions.add(bad);
            LoopbackLans.Sent sent = LoopbackLans.send(good, 100, 100, 8192, 31);
            LoopbackLans.send(bad, 100, 100, 8192, 32);
            assertThat(LoopbackLans.awaitFrom(atB, 100, 100, 60)).as(b.getStatusLine()).isTrue();
            LoopbackLans.assertReceivedAll(atB, sent, "LAN B");
            // The rogue's own sender reached its own LAN's receiver: wait until it had all its time to inject.
            assertThat(LoopbackLans.awaitFrom(atRogue, 301, 100, 60)).isTrue();
            good.awaitFlushed(java.time.Duration.ofSeconds(30));
            bad.awaitFlushed(java.time.Duration.ofSeconds(30));
            assertThat(atB.received().stream().filter(r -> r.senderId() == 301)).as("injected into LAN B").isEmpty();
            assertThat(atRogue.received().stream().filter(r -> r.senderId() == 100)).as("read by the rogue").isEmpty();
            assertThat(rogue.counters().get(Counter.LAN_PACKETS_OUT)).isZero();
            assertThat(rogue.counters().get(Counter.AUTH_BAD_MAC)).as(rogue.getStatusLine()).isPositive();
            assertThat(b.counters().get(Counter.AUTH_BAD_MAC)).as(b.getStatusLine()).isPositive();
            assertThat(a.counters().get(Counter.AUTH_BAD_MAC)).as(a.getStatusLine()).isPositive();
            assertThat(b.peers()).as("the rogue was not learned").hasSize(1);
        } finally {
            sessions.forEach(NormSession::close);
        }
    }

    @Test
    void forgedReplayedStaleAndTruncatedDatagramsAreDroppedAndCounted() throws Exception {
        NormConfig lanB = LoopbackLans.lan();
        try (DatagramSocket attacker = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0));
             TunnelDaemon b = LoopbackLans.tunnel(lanB, "victim", null)) {
            b.setStaticPeers(List.of((InetSocketAddress) attacker.getLocalSocketAddress()));
            // The peer list is applied on the daemon's event loop: wait for it before talking as that peer.
            awaitCounter(() -> b.peers().size(), 1);
            InetSocketAddress target = LoopbackLans.wanAddress(b);
            FrameCodec codec = new FrameCodec(LoopbackLans.KEY, FrameCodec.wireId("peer"), false,
                    FrameCodec.initialCounter());
            ByteBuf frame = codec.encode(PooledByteBufAllocator.DEFAULT, FrameCodec.TYPE_HELLO, 0,
                io.netty.buffer.Unpooled.wrappedBuffer(new byte[FrameCodec.CHALLENGE_LENGTH]), 0,
                FrameCodec.CHALLENGE_LENGTH);
            byte[] valid = ByteBufUtil.getBytes(frame);
            frame.release();

            send(attacker, valid, target);
            awaitCounter(() -> b.peers().get(0).counters().get(org.fjm2.tunnel.relay.PeerCounters.Counter.HELLOS_IN), 1);

            send(attacker, valid, target);                                       // replay
            awaitCounter(() -> b.counters().get(Counter.REPLAY_SEEN), 1);

            byte[] forged = valid.clone();
            forged[FrameCodec.COUNTER_OFFSET + 7] ^= 1;                           // new counter, old MAC
            send(attacker, forged, target);
            awaitCounter(() -> b.counters().get(Counter.AUTH_BAD_MAC), 1);

            byte[] stale = valid.clone();
            long old = System.currentTimeMillis() / 1000 - 3600;
            for (int i = 0; i < 4; i++) {
                stale[FrameCodec.TIMESTAMP_OFFSET + i] = (byte) (old >>> (24 - 8 * i));
            }
            stale[FrameCodec.COUNTER_OFFSET + 7] ^= 2;
            Mac mac = LoopbackLans.KEY.newMac();                                 // an authentic but old datagram
            mac.update(stale, 0, stale.length - FrameCodec.MAC_LENGTH);
            System.arraycopy(mac.doFinal(), 0, stale, stale.length - FrameCodec.MAC_LENGTH, FrameCodec.MAC_LENGTH);
            send(attacker, stale, target);
            awaitCounter(() -> b.counters().get(Counter.REPLAY_STALE), 1);

            send(attacker, java.util.Arrays.copyOf(valid, 20), target);           // truncated
            awaitCounter(() -> b.counters().get(Counter.AUTH_TRUNCATED), 1);

            send(attacker, "hello".getBytes(StandardCharsets.US_ASCII), target);  // not ours at all
            awaitCounter(() -> b.counters().get(Counter.FOREIGN_DATAGRAMS), 1);

            assertThat(b.counters().get(Counter.LAN_PACKETS_OUT)).isZero();
            assertThat(b.counters().rejected()).isEqualTo(4);
        }
    }

    private static void send(DatagramSocket socket, byte[] bytes, InetSocketAddress to) throws Exception {
        socket.send(new DatagramPacket(bytes, bytes.length, to));
    }

    private static void awaitCounter(LongSupplier counter, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (counter.getAsLong() < atLeast && System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
        }
        assertThat(counter.getAsLong()).isGreaterThanOrEqualTo(atLeast);
    }
}
