package org.fjm2.norm.security;

import java.util.Arrays;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.fuzz.InputBounds;

/**
 * Fuzz target: {@link PacketProtection#unprotect} in both modes under a fixed group key. A fuzzer cannot compute an
 * HMAC or a GCM tag for that key, so no fuzz input may ever be accepted as a datagram; and anything {@code protect}
 * made must come back out unchanged, once.
 */
class PacketProtectionFuzzTest {

    /** The group the protection is bound to (any fixed one: the fuzzer does not vary it). */
    static final java.net.InetAddress FUZZ_GROUP = java.net.InetAddress.getLoopbackAddress();
    static final int FUZZ_PORT = 6003;

    /** The fixed group key (bytes 1..32): fixed so that crash inputs replay the same way. */
    private static final byte[] KEY = new byte[32];
    private static final int SENDER_NODE = 0x0A000001;
    private static final int RECEIVER_NODE = 0x0F0F0F01;
    /** Largest datagram a session sends (a UDP payload over IPv4). */
    private static final int MAX_DATAGRAM = 65_507;

    static {
        for (int i = 0; i < KEY.length; i++) {
            KEY[i] = (byte) (i + 1);
        }
    }

    @FuzzTest
    void forgedDatagramsAreRejected(byte[] input) throws Exception {
        for (PacketProtection.Mode mode : PacketProtection.Mode.values()) {
            PacketProtection receiver = new PacketProtection(mode, GroupKey.of(KEY), RECEIVER_NODE, FUZZ_GROUP, FUZZ_PORT);
            InputBounds.runWithinBounds(input, () -> {
                if (receiver.unprotect(Unpooled.copiedBuffer(input))) {
                    throw new AssertionError(mode + " accepted a datagram nobody protected: "
                            + InputBounds.describe(input));
                }
            });
        }
    }

    /**
     * The input is a NORM message (its source_id is set to the sender's node id, as the session's own messages have
     * it); the last input byte picks which byte of the protected datagram a tampered copy flips.
     */
    @FuzzTest
    void protectedPayloadsRoundTrip(byte[] input) throws Exception {
        byte[] message = Arrays.copyOf(input, Math.min(MAX_DATAGRAM - 64, Math.max(8, input.length)));
        message[4] = (byte) (SENDER_NODE >>> 24);
        message[5] = (byte) (SENDER_NODE >>> 16);
        message[6] = (byte) (SENDER_NODE >>> 8);
        message[7] = (byte) SENDER_NODE;
        int tamperSelector = input.length == 0 ? 0 : input[input.length - 1] & 0xFF;
        for (PacketProtection.Mode mode : PacketProtection.Mode.values()) {
            InputBounds.runWithinBounds(input, () -> roundTrip(mode, message, tamperSelector, input));
        }
    }

    private static void roundTrip(PacketProtection.Mode mode, byte[] message, int tamperSelector, byte[] input) {
        PacketProtection sender = new PacketProtection(mode, GroupKey.of(KEY), SENDER_NODE, FUZZ_GROUP, FUZZ_PORT);
        PacketProtection receiver = new PacketProtection(mode, GroupKey.of(KEY), RECEIVER_NODE, FUZZ_GROUP, FUZZ_PORT);
        ByteBuf datagram = Unpooled.buffer(message.length + sender.overhead()).writeBytes(message);
        sender.protect(datagram);
        ByteBuf replay = datagram.copy();
        ByteBuf tampered = datagram.copy();
        int flip = tampered.readerIndex() + tamperSelector * 257 % tampered.readableBytes();
        tampered.setByte(flip, tampered.getByte(flip) ^ 0x01);
        // Tampered first: a replay window that has seen the original would hide a MAC that accepts it.
        if (receiver.unprotect(tampered)) {
            throw new AssertionError(mode + " accepted a datagram with a flipped bit: " + InputBounds.describe(input));
        }
        if (!receiver.unprotect(datagram) || !Arrays.equals(ByteBufUtil.getBytes(datagram), message)) {
            throw new AssertionError(mode + " did not return the protected message unchanged: "
                    + InputBounds.describe(input));
        }
        if (receiver.unprotect(replay)) {
            throw new AssertionError(mode + " accepted a replay: " + InputBounds.describe(input));
        }
    }
}
