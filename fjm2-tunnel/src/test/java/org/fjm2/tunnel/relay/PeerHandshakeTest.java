package org.fjm2.tunnel.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.fjm2.tunnel.TestPackets;
import org.fjm2.tunnel.relay.RelayCounters.Counter;
import org.fjm2.tunnel.security.FrameCodec;
import org.fjm2.tunnel.security.TunnelKey;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Who a daemon sends to (issue 16), on the relay alone with a clock the test moves: data only to a peer that answered
 * a hello, none to a peer gone silent; a frame addressed to another daemon is refused and redirects nothing; a peer
 * moves only when it answers a challenge at its new address; a frame with our own node id is reported as a clash.
 * The test plays daemon A's peers B and C with codecs of their own.
 */
class PeerHandshakeTest {

    static final TunnelKey KEY = TunnelKey.of("handshake test secret, 32 bytes!".getBytes(StandardCharsets.UTF_8));
    static final ByteBufAllocator ALLOC = UnpooledByteBufAllocator.DEFAULT;
    static final String A = "gw-a";
    static final long B = FrameCodec.wireId("gw-b");
    static final long C = FrameCodec.wireId("gw-c");
    static final InetSocketAddress LAN_SENDER = new InetSocketAddress("10.1.0.5", 6003);
    static final InetSocketAddress AT_B = new InetSocketAddress("192.0.2.2", 6004);
    static final InetSocketAddress ELSEWHERE = new InetSocketAddress("203.0.113.66", 40000);
    static final Duration KEEPALIVE = Duration.ofSeconds(10);
    static final Duration RETRY = Duration.ofSeconds(1);
    static final Duration SILENCE = Duration.ofSeconds(30);

    /** A frame the relay sent: its bytes and where to. */
    record Sent(byte[] bytes, InetSocketAddress to) {
    }

    final List<Sent> sent = new ArrayList<>();
    final List<byte[]> emitted = new ArrayList<>();
    final FrameCodec asB = new FrameCodec(KEY, B, false, FrameCodec.initialCounter());
    final FrameCodec reader = new FrameCodec(KEY, C, false, 1);
    Relay relay;
    long now = 1_000_000_000_000L;
    int symbol;

    @BeforeEach
    void start() {
        relay = newRelay(false);
        relay.setPeers(List.of(new Relay.PeerSpec(null, AT_B)), now);
        relay.pump(now);
    }

    private Relay newRelay(boolean acceptUnlisted) {
        RelaySettings settings = new RelaySettings(A, KEY, false, 0, 16 * 1024, 512 * 1024, false, 1 << 20, 1024,
                Duration.ofMillis(15), false, acceptUnlisted, 4096, KEEPALIVE, RETRY, SILENCE, Duration.ofSeconds(60),
                60);
        return new Relay(settings, ALLOC, new Relay.Output() {
            @Override
            public boolean emitOnLan(ByteBuf message) {
                emitted.add(ByteBufUtil.getBytes(message));
                message.release();
                return true;
            }

            @Override
            public boolean sendToPeer(ByteBuf frame, InetSocketAddress to) {
                sent.add(new Sent(ByteBufUtil.getBytes(frame), to));
                frame.release();
                return true;
            }
        }, from -> false, 1L);
    }

    @AfterEach
    void stop() {
        relay.close();
    }

    @Test
    void dataFlowsOnlyToAPeerThatAnswered() {
        assertThat(hellosTo(AT_B)).as("greeted at once").hasSize(1);
        assertThat(destinationOf(hellosTo(AT_B).get(0))).as("its id is not known yet")
                .isEqualTo(FrameCodec.NO_DESTINATION);
        lanPacket();
        assertThat(dataTo(AT_B)).as("no data before the peer answered").isEmpty();
        assertThat(peer().counters().get(PeerCounters.Counter.WITHHELD)).isEqualTo(1);

        answerLastHello(AT_B);
        assertThat(peer().state()).isEqualTo(Peer.State.ANSWERING);
        assertThat(peer().id()).as("bound by its answer").isEqualTo(B);
        lanPacket();
        assertThat(dataTo(AT_B)).hasSize(1);
        assertThat(destinationOf(dataTo(AT_B).get(0))).as("data names its destination").isEqualTo(B);
    }

    @Test
    void aPeerSilentForThePeerSilenceGetsNoMoreDataAndIsProbedSlowly() {
        answerLastHello(AT_B);
        lanPacket();
        assertThat(dataTo(AT_B)).hasSize(1);
        for (long t = 0; t <= SILENCE.toNanos() + 1; t += RETRY.toNanos() / 2) {
            relay.pump(now + t);
        }
        now += SILENCE.toNanos() + 1;
        relay.pump(now);
        assertThat(peer().state()).isEqualTo(Peer.State.SILENT);
        lanPacket();
        assertThat(dataTo(AT_B)).as("nothing after the silence").hasSize(1);
        int hellos = hellosTo(AT_B).size();
        for (long t = 0; t < 3 * KEEPALIVE.toNanos(); t += RETRY.toNanos() / 2) {
            relay.pump(now + t);
        }
        assertThat(hellosTo(AT_B).size() - hellos).as("probed once per keepalive period while silent")
                .isBetween(2, 4);
        now += 3 * KEEPALIVE.toNanos();
        answerLastHello(AT_B);
        lanPacket();
        assertThat(dataTo(AT_B)).as("data again once it answers").hasSize(2);
    }

    @Test
    void aListedPeerThatNeverAnswersGetsNothingButSlowHellos() {
        for (long t = 0; t < SILENCE.toNanos() + 3 * KEEPALIVE.toNanos(); t += RETRY.toNanos() / 2) {
            relay.pump(now + t);
            if (t % RETRY.toNanos() == 0) {
                lanPacket();
            }
        }
        assertThat(dataTo(AT_B)).isEmpty();
        assertThat(hellosTo(AT_B).size()).as("every second until the silence, then every keepalive period")
                .isBetween(30, 35);
    }

    @Test
    void aFrameMeantForAnotherDaemonIsRefusedAndRedirectsNothing() {
        answerLastHello(AT_B);
        // B's authentic, fresh frame for C, replayed to A from another address (issue 16, point 3).
        ByteBuf forC = asB.encode(ALLOC, FrameCodec.TYPE_HELLO, 0, C, challenge(42), 0, FrameCodec.CHALLENGE_LENGTH);
        relay.onWanDatagram(forC, ELSEWHERE, now);
        forC.release();
        ByteBuf dataForC = asB.encode(ALLOC, FrameCodec.TYPE_NORM, 0, C, TestPackets.data(9, 1, 1, 0), 0,
                TestPackets.DATA_LENGTH);
        relay.onWanDatagram(dataForC, ELSEWHERE, now);
        dataForC.release();
        assertThat(relay.counters().get(Counter.WRONG_DESTINATION)).isEqualTo(2);
        assertThat(emitted).as("nothing relayed that was meant for another daemon").isEmpty();
        lanPacket();
        assertThat(dataTo(AT_B)).as("B's traffic still goes to B").hasSize(1);
        assertThat(sent.stream().filter(s -> s.to().equals(ELSEWHERE))).as("nothing to the replayer").isEmpty();
        assertThat(peer().address()).isEqualTo(AT_B);
    }

    @Test
    void aPeerMovesOnlyWhenItAnswersAChallengeAtTheNewAddress() {
        answerLastHello(AT_B);
        ByteBuf fromElsewhere = asB.encode(ALLOC, FrameCodec.TYPE_NORM, 0, FrameCodec.wireId(A),
                TestPackets.data(9, 1, 1, 0), 0, TestPackets.DATA_LENGTH);
        relay.onWanDatagram(fromElsewhere, ELSEWHERE, now);
        fromElsewhere.release();
        assertThat(peer().address()).as("not moved by a frame alone").isEqualTo(AT_B);
        assertThat(hellosTo(ELSEWHERE)).as("the new address is challenged").hasSize(1);
        assertThat(emitted).as("the authentic frame itself is relayed to the LAN").hasSize(1);
        lanPacket();
        assertThat(dataTo(AT_B)).hasSize(1);
        assertThat(dataTo(ELSEWHERE)).isEmpty();

        // An answer to the challenge sent to the old address, arriving from the new one, proves nothing there.
        relay.pump(now += KEEPALIVE.toNanos());
        long oldChallenge = challengeOf(hellosTo(AT_B).get(hellosTo(AT_B).size() - 1));
        reply(oldChallenge, ELSEWHERE);
        assertThat(relay.counters().get(Counter.UNEXPECTED_REPLY)).isEqualTo(1);
        assertThat(peer().address()).isEqualTo(AT_B);

        // B really is there now (NAT rebinding): it answers the challenge that went there, from there.
        reply(challengeOf(hellosTo(ELSEWHERE).get(0)), ELSEWHERE);
        assertThat(peer().address()).isEqualTo(ELSEWHERE);
        lanPacket();
        assertThat(dataTo(ELSEWHERE)).hasSize(1);
    }

    @Test
    void anUnlistedDaemonIsLearnedOnceAndBoundByItsAnswer() {
        relay.close();
        sent.clear();
        relay = newRelay(true);
        relay.setPeers(List.of(), now);
        for (int i = 0; i < 3; i++) {       // its hellos keep coming before it answers ours
            ByteBuf hello = asB.encode(ALLOC, FrameCodec.TYPE_HELLO, 0, challenge(i), 0, FrameCodec.CHALLENGE_LENGTH);
            relay.onWanDatagram(hello, ELSEWHERE, now += 1_000_000);
            hello.release();
        }
        assertThat(relay.peers()).as("one peer per daemon").hasSize(1);
        assertThat(framesTo(ELSEWHERE, FrameCodec.TYPE_HELLO_REPLY)).as("every hello answered").hasSize(3);
        answerLastHello(ELSEWHERE);
        assertThat(peer().state()).isEqualTo(Peer.State.ANSWERING);
        assertThat(peer().id()).isEqualTo(B);
    }

    @Test
    void anotherDaemonWithOurNodeIdIsReportedAsAClash() {
        FrameCodec clone = new FrameCodec(KEY, FrameCodec.wireId(A), false, FrameCodec.initialCounter());
        ByteBuf hello = clone.encode(ALLOC, FrameCodec.TYPE_HELLO, 0, challenge(7), 0, FrameCodec.CHALLENGE_LENGTH);
        relay.onWanDatagram(hello, ELSEWHERE, now);
        hello.release();
        assertThat(relay.counters().get(Counter.NODE_ID_CLASH)).isEqualTo(1);
        assertThat(relay.nodeIdClashWith()).isEqualTo("203.0.113.66:40000");
        assertThat(sent.stream().filter(s -> s.to().equals(ELSEWHERE))).as("not answered").isEmpty();
    }

    @Test
    void everyRefusalIsCountedByReasonAndNothingIsRelayed() {
        answerLastHello(AT_B);
        ByteBuf data = asB.encode(ALLOC, FrameCodec.TYPE_NORM, 0, FrameCodec.wireId(A), TestPackets.data(9, 1, 1, 0),
                0, TestPackets.DATA_LENGTH);
        byte[] good = ByteBufUtil.getBytes(data);
        relay.onWanDatagram(data, AT_B, now);
        data.release();
        assertThat(emitted).as("the authentic frame is relayed").hasSize(1);
        relay.onWanDatagram(Unpooled.wrappedBuffer(good), AT_B, now);
        byte[] forged = good.clone();
        forged[FrameCodec.HEADER_LENGTH + 30] ^= 1;
        relay.onWanDatagram(Unpooled.wrappedBuffer(forged), AT_B, now);
        ByteBuf bare = asB.encode(ALLOC, FrameCodec.TYPE_HELLO_REPLY, 0, FrameCodec.wireId(A), null, 0, 0);
        relay.onWanDatagram(bare, AT_B, now);
        bare.release();
        ByteBuf unknownType = asB.encode(ALLOC, 9, 0, FrameCodec.wireId(A), challenge(1), 0, 8);
        relay.onWanDatagram(unknownType, AT_B, now);
        unknownType.release();
        FrameCodec stranger = new FrameCodec(KEY, FrameCodec.wireId("gw-x"), false, FrameCodec.initialCounter());
        ByteBuf strangerData = stranger.encode(ALLOC, FrameCodec.TYPE_NORM, 0, FrameCodec.wireId(A),
                TestPackets.data(9, 1, 1, 1), 0, TestPackets.DATA_LENGTH);
        relay.onWanDatagram(strangerData, ELSEWHERE, now);
        strangerData.release();
        RelayCounters c = relay.counters();
        assertThat(c.get(Counter.REPLAY_SEEN)).isEqualTo(1);
        assertThat(c.get(Counter.AUTH_BAD_MAC)).isEqualTo(1);
        assertThat(c.get(Counter.BAD_CONTROL)).isEqualTo(2);
        assertThat(c.get(Counter.UNKNOWN_PEER)).isEqualTo(1);
        assertThat(c.rejected()).isEqualTo(5);
        assertThat(c.refusals()).contains("replay_seen 1", "auth_bad_mac 1", "bad_control 2", "unknown_peer 1");
        assertThat(emitted).as("nothing refused was relayed").hasSize(1);
    }

    // ---- the test's side of the conversation ----------------------------------------------------------------------

    private Peer peer() {
        return relay.peers().get(0);
    }

    private void lanPacket() {
        ByteBuf m = TestPackets.data(0x5151, 3, 1, symbol++);
        relay.onLanDatagram(m, LAN_SENDER, now);
        m.release();
        relay.pump(now);
    }

    private void answerLastHello(InetSocketAddress at) {
        List<Sent> hellos = hellosTo(at);
        reply(challengeOf(hellos.get(hellos.size() - 1)), at);
    }

    private void reply(long challenge, InetSocketAddress from) {
        ByteBuf reply = asB.encode(ALLOC, FrameCodec.TYPE_HELLO_REPLY, 0, FrameCodec.wireId(A), challenge(challenge), 0,
                FrameCodec.CHALLENGE_LENGTH);
        relay.onWanDatagram(reply, from, now);
        reply.release();
    }

    private static ByteBuf challenge(long value) {
        return Unpooled.buffer(8).writeLong(value);
    }

    private List<Sent> hellosTo(InetSocketAddress to) {
        return framesTo(to, FrameCodec.TYPE_HELLO);
    }

    private List<Sent> dataTo(InetSocketAddress to) {
        return framesTo(to, FrameCodec.TYPE_NORM);
    }

    private List<Sent> framesTo(InetSocketAddress to, int type) {
        return sent.stream().filter(s -> s.to().equals(to) && s.bytes()[FrameCodec.TYPE_OFFSET] == type).toList();
    }

    private long destinationOf(Sent s) {
        assertThat(reader.decode(Unpooled.wrappedBuffer(s.bytes()))).isEqualTo(FrameCodec.Verdict.VALID);
        return reader.destination();
    }

    private long challengeOf(Sent hello) {
        assertThat(reader.decode(Unpooled.wrappedBuffer(hello.bytes()))).isEqualTo(FrameCodec.Verdict.VALID);
        ByteBuf payload = reader.openPayload(ALLOC);
        long value = payload.getLong(0);
        payload.release();
        return value;
    }
}
