package org.fjm2.tunnel.relay;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.fjm2.norm.fuzz.InputBounds;
import org.fjm2.tunnel.security.FrameCodec;
import org.fjm2.tunnel.security.TunnelKey;

/**
 * Fuzz target: the relay's handshake and peer state (issue 16), fed a sequence of WAN datagrams, LAN datagrams and
 * clock steps. Unlike the codec's target, the fuzzer can build authentic frames here (it plays key holders with ids
 * of its choosing, this daemon's own id included, from addresses of its choosing), so hellos, answers to stale or
 * forged challenges, frames for other destinations and learned peers are all reached. Asserts: no exception escapes,
 * memory and time stay proportional to the input, learned peers stay capped, and nothing the relay sends is leaked.
 * <p>
 * Input, repeated: an op byte, then its operands — 0: an authentic frame (sender index, type, address index,
 * destination choice, payload length, payload); 1: raw bytes at an address (length, bytes); 2: a clock step of n x
 * 100 ms, then a pump; 3: a LAN datagram (length, bytes).
 */
class RelayHandshakeFuzzTest {

    private static final TunnelKey KEY =
            TunnelKey.of("relay handshake fuzz secret, 32 bytes".getBytes(StandardCharsets.US_ASCII));
    private static final String OWN = "fuzz-own";
    private static final int SENDERS = 8;
    private static final int ADDRESSES = 4;
    private static final ByteBufAllocator ALLOCATOR = new UnpooledByteBufAllocator(false, true);

    @FuzzTest
    void handshakeStateStaysBounded(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> run(input));
    }

    private static void run(byte[] in) {
        long[] sent = {0};
        RelaySettings settings = new RelaySettings(OWN, KEY, false, 0, 16 * 1024, 256 * 1024, false, 1 << 16, 256,
                Duration.ofMillis(15), false, true, 1024, Duration.ofSeconds(10), Duration.ofSeconds(1),
                Duration.ofSeconds(30), Duration.ofSeconds(60), 60);
        Relay relay = new Relay(settings, ALLOCATOR, new Relay.Output() {
            @Override
            public boolean emitOnLan(ByteBuf message) {
                message.release();
                return true;
            }

            @Override
            public boolean sendToPeer(ByteBuf frame, InetSocketAddress to) {
                sent[0]++;
                frame.release();
                return true;
            }
        }, from -> false, 1L);
        Map<Integer, FrameCodec> codecs = new HashMap<>();
        long now = 1_000_000_000_000L;
        relay.setPeers(java.util.List.of(new Relay.PeerSpec(null, address(0))), now);
        relay.pump(now);
        int i = 0;
        while (i < in.length) {
            int op = in[i++] & 3;
            switch (op) {
                case 0 -> {
                    int sender = i < in.length ? (in[i++] & 0xFF) % (SENDERS + 1) : 0;
                    int type = i < in.length ? 1 + (in[i++] & 0xFF) % 3 : FrameCodec.TYPE_HELLO;
                    InetSocketAddress from = address(i < in.length ? in[i++] & 0xFF : 0);
                    int destinationChoice = i < in.length ? (in[i++] & 0xFF) % 3 : 0;
                    int length = i < in.length ? in[i++] & 0x3F : 0;
                    int n = Math.min(length, in.length - i);
                    ByteBuf payload = Unpooled.wrappedBuffer(in, i, n);
                    i += n;
                    FrameCodec codec = codecs.computeIfAbsent(sender, s -> new FrameCodec(KEY,
                            FrameCodec.wireId(s == SENDERS ? OWN : "fuzz-peer-" + s), false, 1));
                    long destination = destinationChoice == 0 ? FrameCodec.NO_DESTINATION
                            : destinationChoice == 1 ? FrameCodec.wireId(OWN) : FrameCodec.wireId("someone-else");
                    ByteBuf frame = codec.encode(ALLOCATOR, type, 0, destination, payload, 0, n);
                    try {
                        relay.onWanDatagram(frame, from, now);
                    } finally {
                        frame.release();
                    }
                }
                case 1 -> {
                    InetSocketAddress from = address(i < in.length ? in[i++] & 0xFF : 0);
                    int length = i < in.length ? in[i++] & 0xFF : 0;
                    int n = Math.min(length, in.length - i);
                    relay.onWanDatagram(Unpooled.wrappedBuffer(in, i, n), from, now);
                    i += n;
                }
                case 2 -> {
                    now += (i < in.length ? in[i++] & 0xFF : 1) * 100_000_000L;
                    relay.pump(now);
                }
                default -> {
                    int length = i < in.length ? in[i++] & 0xFF : 0;
                    int n = Math.min(length, in.length - i);
                    relay.onLanDatagram(Unpooled.wrappedBuffer(in, i, n), new InetSocketAddress("10.1.0.5", 6003),
                            now);
                    i += n;
                }
            }
        }
        relay.pump(now);
        if (relay.peers().size() > 1 + PeerTable.MAX_LEARNED) {
            throw new AssertionError("peers beyond the cap: " + relay.peers().size() + "; "
                    + InputBounds.describe(in));
        }
        relay.close();
    }

    /** One of a few WAN addresses (the listed peer's is index 0). */
    private static InetSocketAddress address(int index) {
        return new InetSocketAddress("192.0.2." + (2 + index % ADDRESSES), 6004);
    }
}
