package org.fjm2.tunnel.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Frames: round trips clear and sealed; forged, truncated, re-keyed and replayed frames are refused. */
class FrameCodecTest {

    static final TunnelKey KEY = TunnelKey.of("the shared secret of the test".getBytes(StandardCharsets.UTF_8));
    static final TunnelKey OTHER = TunnelKey.of("another secret entirely, wrong".getBytes(StandardCharsets.UTF_8));
    static final PooledByteBufAllocator ALLOC = PooledByteBufAllocator.DEFAULT;
    static final byte[] MESSAGE = "a NORM message stands here; any bytes will do for the codec"
            .getBytes(StandardCharsets.UTF_8);

    @Test
    void clearFrameRoundTrips() {
        FrameCodec tx = new FrameCodec(KEY, 7, false, 1000);
        FrameCodec rx = new FrameCodec(KEY, 8, false, 1);
        ByteBuf frame = tx.encode(ALLOC, FrameCodec.TYPE_NORM, 0, Unpooled.wrappedBuffer(MESSAGE), 0, MESSAGE.length);
        try {
            assertThat(frame.readableBytes()).isEqualTo(MESSAGE.length + FrameCodec.OVERHEAD);
            assertThat(rx.decode(frame)).isEqualTo(FrameCodec.Verdict.VALID);
            assertThat(rx.sender()).isEqualTo(7);
            assertThat(rx.counter()).isEqualTo(1000);
            assertThat(rx.type()).isEqualTo(FrameCodec.TYPE_NORM);
            assertThat(Math.abs(rx.timestamp() - System.currentTimeMillis() / 1000)).isLessThanOrEqualTo(2);
            ByteBuf payload = rx.openPayload(ALLOC);
            assertThat(ByteBufUtil.getBytes(payload)).isEqualTo(MESSAGE);
            payload.release();
            ByteBuf second = tx.encode(ALLOC, FrameCodec.TYPE_HELLO, 0, null, 0, 0);
            assertThat(rx.decode(second)).isEqualTo(FrameCodec.Verdict.VALID);
            assertThat(rx.counter()).as("counters grow").isEqualTo(1001);
            assertThat(rx.openPayload(ALLOC)).isNull();
            second.release();
        } finally {
            frame.release();
        }
    }

    @Test
    void sealedFrameHidesThePayloadAndRoundTrips() {
        FrameCodec tx = new FrameCodec(KEY, 7, true, 5);
        FrameCodec rx = new FrameCodec(KEY, 8, false, 1);
        ByteBuf frame = tx.encode(ALLOC, FrameCodec.TYPE_NORM, 0, Unpooled.wrappedBuffer(MESSAGE), 0, MESSAGE.length);
        try {
            byte[] wire = ByteBufUtil.getBytes(frame);
            assertThat(new String(wire, StandardCharsets.ISO_8859_1)).doesNotContain("NORM message");
            assertThat(indexOf(wire, java.util.Arrays.copyOf(MESSAGE, 8))).as("no 8 plaintext bytes on the wire")
                    .isNegative();
            assertThat(rx.decode(frame)).isEqualTo(FrameCodec.Verdict.VALID);
            assertThat(rx.sealed()).isTrue();
            ByteBuf payload = rx.openPayload(ALLOC);
            assertThat(ByteBufUtil.getBytes(payload)).isEqualTo(MESSAGE);
            payload.release();
        } finally {
            frame.release();
        }
    }

    @Test
    void twoDaemonsWithOneNodeIdNeverShareANonce() {
        // Cloned gateways: the same node id and the same starting counter. The nonce's prefix is random per process.
        FrameCodec one = new FrameCodec(KEY, 7, true, 5000);
        FrameCodec clone = new FrameCodec(KEY, 7, true, 5000);
        FrameCodec rx = new FrameCodec(KEY, 8, false, 1);
        ByteBuf a = one.encode(ALLOC, FrameCodec.TYPE_NORM, 0, 8, Unpooled.wrappedBuffer(MESSAGE), 0, MESSAGE.length);
        ByteBuf b = clone.encode(ALLOC, FrameCodec.TYPE_NORM, 0, 8, Unpooled.wrappedBuffer(MESSAGE), 0,
                MESSAGE.length);
        try {
            assertThat(one.noncePrefix()).isNotEqualTo(clone.noncePrefix());
            assertThat(ByteBufUtil.getBytes(a, FrameCodec.HEADER_LENGTH, MESSAGE.length))
                    .as("the same plaintext under the same nonce would give the same ciphertext")
                    .isNotEqualTo(ByteBufUtil.getBytes(b, FrameCodec.HEADER_LENGTH, MESSAGE.length));
            assertThat(rx.decode(a)).isEqualTo(FrameCodec.Verdict.VALID);
            assertThat(rx.framePrefix()).isEqualTo(one.noncePrefix());
            ByteBuf opened = rx.openPayload(ALLOC);
            assertThat(ByteBufUtil.getBytes(opened)).isEqualTo(MESSAGE);
            opened.release();
        } finally {
            a.release();
            b.release();
        }
    }

    @Test
    void framesNameTheirDestinationUnderTheMac() {
        long b = FrameCodec.wireId("gw-b");
        long c = FrameCodec.wireId("gw-c");
        assertThat(b).isNotEqualTo(c).isNotZero();
        FrameCodec tx = new FrameCodec(KEY, FrameCodec.wireId("gw-a"), false, 1);
        FrameCodec rx = new FrameCodec(KEY, b, false, 1);
        ByteBuf frame = tx.encode(ALLOC, FrameCodec.TYPE_NORM, 0, b, Unpooled.wrappedBuffer(MESSAGE), 0,
                MESSAGE.length);
        byte[] bytes = ByteBufUtil.getBytes(frame);
        frame.release();
        assertThat(rx.decode(Unpooled.wrappedBuffer(bytes))).isEqualTo(FrameCodec.Verdict.VALID);
        assertThat(rx.destination()).isEqualTo(b);
        for (int i = 0; i < 8; i++) {                 // readdressed to C: the MAC no longer matches
            bytes[FrameCodec.DESTINATION_OFFSET + i] = (byte) (c >>> (56 - 8 * i));
        }
        assertThat(rx.decode(Unpooled.wrappedBuffer(bytes))).isEqualTo(FrameCodec.Verdict.BAD_MAC);
    }

    @Test
    void everyFlippedBitIsRefused() {
        FrameCodec tx = new FrameCodec(KEY, 7, false, 1);
        FrameCodec rx = new FrameCodec(KEY, 8, false, 1);
        ByteBuf frame = tx.encode(ALLOC, FrameCodec.TYPE_NORM, 0, Unpooled.wrappedBuffer(MESSAGE), 0, MESSAGE.length);
        byte[] good = ByteBufUtil.getBytes(frame);
        frame.release();
        for (int bit = 16; bit < good.length * 8; bit++) {     // bits of the magic make it "not a frame" instead
            byte[] bad = good.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            FrameCodec.Verdict v = rx.decode(Unpooled.wrappedBuffer(bad));
            assertThat(v).as("bit %d flipped", bit).isIn(FrameCodec.Verdict.BAD_MAC, FrameCodec.Verdict.BAD_VERSION);
        }
    }

    @Test
    void truncatedAndForeignDatagramsAreRefused() {
        FrameCodec tx = new FrameCodec(KEY, 7, true, 1);
        FrameCodec rx = new FrameCodec(KEY, 8, false, 1);
        ByteBuf frame = tx.encode(ALLOC, FrameCodec.TYPE_NORM, 0, Unpooled.wrappedBuffer(MESSAGE), 0, MESSAGE.length);
        byte[] good = ByteBufUtil.getBytes(frame);
        frame.release();
        for (int length = 2; length < good.length; length++) {
            FrameCodec.Verdict v = rx.decode(Unpooled.wrappedBuffer(good, 0, length));
            assertThat(v).as("first %d bytes", length).isIn(FrameCodec.Verdict.TRUNCATED, FrameCodec.Verdict.BAD_MAC);
        }
        assertThat(rx.decode(Unpooled.wrappedBuffer(new byte[] {1}))).isEqualTo(FrameCodec.Verdict.NOT_A_FRAME);
        assertThat(rx.decode(Unpooled.wrappedBuffer("FJMA....".getBytes(StandardCharsets.US_ASCII))))
                .isEqualTo(FrameCodec.Verdict.NOT_A_FRAME);
    }

    @Test
    void aDaemonWithoutTheKeyCanNeitherReadNorInject() {
        FrameCodec tx = new FrameCodec(KEY, 7, true, 1);
        FrameCodec outsider = new FrameCodec(OTHER, 9, true, 1);
        FrameCodec rx = new FrameCodec(KEY, 8, false, 1);
        ByteBuf sealed = tx.encode(ALLOC, FrameCodec.TYPE_NORM, 0, Unpooled.wrappedBuffer(MESSAGE), 0, MESSAGE.length);
        assertThat(outsider.decode(sealed)).isEqualTo(FrameCodec.Verdict.BAD_MAC);
        sealed.release();
        ByteBuf forged = outsider.encode(ALLOC, FrameCodec.TYPE_NORM, 0, Unpooled.wrappedBuffer(MESSAGE), 0,
                MESSAGE.length);
        assertThat(rx.decode(forged)).isEqualTo(FrameCodec.Verdict.BAD_MAC);
        forged.release();
    }

    @Test
    void randomGarbageNeverPasses() {
        long seed = 20261122L;
        SplittableRandom random = new SplittableRandom(seed);
        FrameCodec rx = new FrameCodec(KEY, 8, false, 1);
        for (int i = 0; i < 5000; i++) {
            byte[] junk = new byte[random.nextInt(0, 200)];
            random.nextBytes(junk);
            if (junk.length >= 2 && random.nextBoolean()) {
                junk[0] = 0x46;
                junk[1] = 0x54;
                if (junk.length > 2) {
                    junk[2] = 1;
                }
            }
            assertThat(rx.decode(Unpooled.wrappedBuffer(junk))).as("seed %d, datagram %d", seed, i)
                    .isNotEqualTo(FrameCodec.Verdict.VALID);
        }
    }

    @Test
    void replaysAndStaleFramesAreRefused() {
        ReplayProtection replay = new ReplayProtection(60);
        long now = System.currentTimeMillis();
        long ts = now / 1000;
        assertThat(replay.check(7, 100, ts, now)).isEqualTo(ReplayProtection.Result.FRESH);
        assertThat(replay.check(7, 100, ts, now)).isEqualTo(ReplayProtection.Result.REPLAYED);
        assertThat(replay.check(7, 99, ts, now)).as("reordered within the window").isEqualTo(ReplayProtection.Result.FRESH);
        assertThat(replay.check(7, 99, ts, now)).isEqualTo(ReplayProtection.Result.REPLAYED);
        assertThat(replay.check(7, 100 + ReplayProtection.WINDOW, ts, now)).isEqualTo(ReplayProtection.Result.FRESH);
        assertThat(replay.check(7, 100, ts, now)).as("older than the window").isEqualTo(ReplayProtection.Result.REPLAYED);
        assertThat(replay.check(7, 101 + ReplayProtection.WINDOW, ts, now)).isEqualTo(ReplayProtection.Result.FRESH);
        assertThat(replay.check(8, 100, ts, now)).as("another sender has its own window")
                .isEqualTo(ReplayProtection.Result.FRESH);
        assertThat(replay.check(7, 10_000, ts - 61, now)).isEqualTo(ReplayProtection.Result.STALE);
        assertThat(replay.check(7, 10_001, ts + 61, now)).isEqualTo(ReplayProtection.Result.STALE);
        for (long c = 20_000; c < 20_000 + 3 * ReplayProtection.WINDOW; c += 3) {
            assertThat(replay.check(9, c, ts, now)).isEqualTo(ReplayProtection.Result.FRESH);
            assertThat(replay.check(9, c - 1, ts, now)).isEqualTo(ReplayProtection.Result.FRESH);
            assertThat(replay.check(9, c - 1, ts, now)).isEqualTo(ReplayProtection.Result.REPLAYED);
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
