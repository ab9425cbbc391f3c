package org.fjm2.tunnel.security;

import java.util.Arrays;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.fjm2.norm.fuzz.InputBounds;

/**
 * Fuzz target: the tunnel's frame codec, the first code that touches a datagram from the Internet. Under a fixed
 * key a fuzzer cannot compute a frame's MAC, so no fuzz input may decode as VALID; and a frame the codec built
 * (clear or sealed, of any payload) must decode, open to the same payload, pass replay protection once, and fail
 * with any one bit flipped.
 */
class FrameCodecFuzzTest {

    private static final byte[] SECRET =
            "fjm2-tunnel-fuzz-secret-0123456789".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final long SENDER_ID = FrameCodec.wireId("fuzz-sender");
    private static final long RECEIVER_ID = FrameCodec.wireId("fuzz-receiver");
    /** Largest payload of one frame in one UDP datagram over IPv4 (sealed: a GCM tag more). */
    private static final int MAX_PAYLOAD = 65_507 - FrameCodec.OVERHEAD - FrameCodec.GCM_TAG_LENGTH;
    /**
     * Unpooled, without leak detector: the codec asks for direct buffers (outside the thread's allocation counter,
     * but each one a frame's size), which the target releases.
     */
    private static final ByteBufAllocator ALLOCATOR = new UnpooledByteBufAllocator(false, true);

    @FuzzTest
    void forgedFramesAreRejected(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> {
            FrameCodec receiver = new FrameCodec(TunnelKey.of(SECRET), RECEIVER_ID, false, 1);
            FrameCodec.Verdict verdict = receiver.decode(Unpooled.wrappedBuffer(input));
            if (verdict == FrameCodec.Verdict.VALID) {
                throw new AssertionError("a frame nobody built decoded as VALID: " + InputBounds.describe(input));
            }
        });
    }

    /**
     * Input: a control byte (bit 0 sealed, bit 1 keepalive instead of NORM, bit 2 cache-repair flag; the other bits
     * pick the byte a tampered copy flips), then the payload.
     */
    @FuzzTest
    void framesRoundTrip(byte[] input) throws Exception {
        int control = input.length == 0 ? 0 : input[0] & 0xFF;
        byte[] payload = Arrays.copyOfRange(input, Math.min(1, input.length), Math.min(input.length, MAX_PAYLOAD + 1));
        boolean seal = (control & 1) != 0;
        int type = (control & 2) != 0 ? FrameCodec.TYPE_HELLO : FrameCodec.TYPE_NORM;
        int flags = (control & 4) != 0 ? FrameCodec.FLAG_CACHE_REPAIR : 0;
        InputBounds.runWithinBounds(input, () -> roundTrip(seal, type, flags, payload, control >>> 3, input));
    }

    private static void roundTrip(boolean seal, int type, int flags, byte[] payload, int tamperSelector,
                                  byte[] input) {
        TunnelKey key = TunnelKey.of(SECRET);
        FrameCodec sender = new FrameCodec(key, SENDER_ID, seal, FrameCodec.initialCounter());
        FrameCodec receiver = new FrameCodec(key, RECEIVER_ID, false, 1);
        ReplayProtection replay = new ReplayProtection(ReplayProtection.DEFAULT_MAX_SKEW_SECONDS);
        ByteBuf frame = sender.encode(ALLOCATOR, type, flags, RECEIVER_ID, Unpooled.wrappedBuffer(payload), 0,
                payload.length);
        ByteBuf tampered = Unpooled.copiedBuffer(frame);
        try {
            int flip = tamperSelector * 131 % tampered.readableBytes();
            tampered.setByte(flip, tampered.getByte(flip) ^ 0x01);
            if (receiver.decode(tampered) == FrameCodec.Verdict.VALID) {
                throw new AssertionError("a frame with a flipped bit at " + flip + " decoded as VALID: "
                        + InputBounds.describe(input));
            }
            FrameCodec.Verdict verdict = receiver.decode(frame);
            if (verdict != FrameCodec.Verdict.VALID || receiver.type() != type || receiver.sender() != SENDER_ID
                    || receiver.destination() != RECEIVER_ID
                    || (receiver.flags() & FrameCodec.FLAG_CACHE_REPAIR) != flags
                    || receiver.sealed() != (seal && payload.length > 0)) {
                throw new AssertionError("the frame built did not decode as built (" + verdict + "): "
                        + InputBounds.describe(input));
            }
            ByteBuf opened = receiver.openPayload(ALLOCATOR);
            byte[] got = opened == null ? new byte[0] : ByteBufUtil.getBytes(opened);
            if (opened != null) {
                opened.release();
            }
            if (!Arrays.equals(got, payload)) {
                throw new AssertionError("the payload did not come back unchanged: " + InputBounds.describe(input));
            }
            long now = System.currentTimeMillis();
            if (replay.check(receiver.sender(), receiver.counter(), receiver.timestamp(), now)
                    != ReplayProtection.Result.FRESH
                    || replay.check(receiver.sender(), receiver.counter(), receiver.timestamp(), now)
                    != ReplayProtection.Result.REPLAYED) {
                throw new AssertionError("replay protection did not take the frame once: "
                        + InputBounds.describe(input));
            }
        } finally {
            frame.release();
            tampered.release();
        }
    }
}
