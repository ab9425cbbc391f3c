package org.fjm2.norm.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PacketProtectionTest {

    static final byte[] KEY = new byte[32];
    static final byte[] OTHER_KEY = new byte[32];
    static final InetAddress GROUP = address("239.255.0.1");
    static final int PORT = 6003;

    static {
        new SplittableRandom(1).nextBytes(KEY);
        new SplittableRandom(2).nextBytes(OTHER_KEY);
    }

    @TempDir
    Path dir;

    private static InetAddress address(String text) {
        try {
            return InetAddress.getByName(text);
        } catch (java.net.UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static PacketProtection protection(PacketProtection.Mode mode, byte[] key, int node) {
        return new PacketProtection(mode, GroupKey.of(key), node, GROUP, PORT);
    }

    private static ByteBuf message(int sourceId, int size) {
        ByteBuf buf = Unpooled.buffer(size + 64);
        buf.writeByte(0x12).writeByte(5).writeShort(7).writeInt(sourceId);
        byte[] body = new byte[size - 8];
        new SplittableRandom(size).nextBytes(body);
        return buf.writeBytes(body);
    }

    private static ByteBuf sealed(PacketProtection p, int sourceId) {
        ByteBuf wire = message(sourceId, 100);
        p.protect(wire);
        return wire;
    }

    @ParameterizedTest
    @EnumSource(PacketProtection.Mode.class)
    void roundTripRejectsReplayTamperingTruncationAndOtherKeys(PacketProtection.Mode mode) {
        PacketProtection sender = protection(mode, KEY, 77);
        PacketProtection receiver = protection(mode, KEY, 88);
        PacketProtection stranger = protection(mode, OTHER_KEY, 99);
        ByteBuf original = message(77, 500);
        ByteBuf wire = original.copy();
        sender.protect(wire);
        assertThat(wire.readableBytes()).isEqualTo(500 + sender.overhead());
        if (mode == PacketProtection.Mode.SEAL) {
            assertThat(ByteBufUtil.indexOf(original.slice(16, 16), wire)).as("no plaintext").isEqualTo(-1);
        }
        ByteBuf replay = wire.copy();
        ByteBuf tampered = wire.copy();
        tampered.setByte(tampered.writerIndex() - 20, tampered.getByte(tampered.writerIndex() - 20) ^ 1);
        ByteBuf truncated = wire.copy(0, 20);
        ByteBuf forStranger = wire.copy();

        assertThat(receiver.unprotect(wire)).isTrue();
        assertThat(wire).isEqualTo(original);
        assertThat(receiver.unprotect(replay)).as("replay").isFalse();
        assertThat(receiver.lastRefusal()).isEqualTo(PacketProtection.Refusal.REPLAYED);
        assertThat(receiver.unprotect(tampered)).as("tampered").isFalse();
        assertThat(receiver.lastRefusal()).isEqualTo(PacketProtection.Refusal.FORGED);
        assertThat(receiver.unprotect(truncated)).as("truncated").isFalse();
        assertThat(stranger.unprotect(forStranger)).as("other key").isFalse();
    }

    @ParameterizedTest
    @EnumSource(PacketProtection.Mode.class)
    void anotherGroupWithTheSameKeyCannotReplayIntoThisOne(PacketProtection.Mode mode) {
        PacketProtection sender = protection(mode, KEY, 77);
        PacketProtection sameGroup = protection(mode, KEY, 88);
        PacketProtection otherGroup = new PacketProtection(mode, GroupKey.of(KEY), 88, address("239.255.0.2"), PORT);
        PacketProtection otherPort = new PacketProtection(mode, GroupKey.of(KEY), 88, GROUP, PORT + 1);
        ByteBuf wire = sealed(sender, 77);
        assertThat(otherGroup.unprotect(wire.copy())).as("same key, other group address").isFalse();
        assertThat(otherPort.unprotect(wire.copy())).as("same key, other port").isFalse();
        assertThat(sameGroup.unprotect(wire.copy())).as("same group").isTrue();
    }

    @Test
    void outOfOrderWithinTheWindowIsAcceptedOnceOlderIsNot() {
        PacketProtection sender = protection(PacketProtection.Mode.AUTHENTICATE, KEY, 5);
        PacketProtection receiver = protection(PacketProtection.Mode.AUTHENTICATE, KEY, 6);
        ByteBuf[] wire = new ByteBuf[2000];
        for (int i = 0; i < wire.length; i++) {
            wire[i] = message(5, 40);
            sender.protect(wire[i]);
        }
        assertThat(receiver.unprotect(wire[10].copy())).isTrue();
        assertThat(receiver.unprotect(wire[5].copy())).as("older, inside the window").isTrue();
        assertThat(receiver.unprotect(wire[5].copy())).as("same again").isFalse();
        assertThat(receiver.unprotect(wire[1999].copy())).isTrue();
        assertThat(receiver.unprotect(wire[11].copy())).as("fell out of the window").isFalse();
    }

    /**
     * Two sessions with the same node id started in the same millisecond (a cloned host, a clash) seal with different
     * nonces; and one session never repeats a nonce, even with its clock standing still.
     */
    @Test
    void sealNoncesNeverRepeatAcrossSessionsWithTheSameNodeIdAndClock() {
        long frozen = 1_800_000_000_000L;
        Set<String> nonces = new HashSet<>();
        for (int session = 0; session < 2; session++) {
            PacketProtection p = new PacketProtection(PacketProtection.Mode.SEAL, GroupKey.of(KEY), 42, GROUP, PORT,
                    PacketProtection.DEFAULT_MAX_AGE.toMillis(), () -> frozen, PacketProtection.randomNoncePrefix());
            for (int i = 0; i < 5_000; i++) {
                ByteBuf wire = sealed(p, 42);
                // nonce = prefix (4) | counter (8), after the source id
                assertThat(nonces.add(ByteBufUtil.hexDump(wire, 4, 12))).as("nonce of datagram %d of session %d",
                        i, session).isTrue();
            }
        }
    }

    /** A receiver that restarted (no replay windows) still refuses captures dated beyond the maximum age. */
    @ParameterizedTest
    @EnumSource(PacketProtection.Mode.class)
    void oldCapturesAreRefusedAfterAReceiverRestart(PacketProtection.Mode mode) {
        AtomicLong clock = new AtomicLong(1_800_000_000_000L);
        long maxAge = 60_000;
        PacketProtection sender = new PacketProtection(mode, GroupKey.of(KEY), 7, GROUP, PORT, maxAge, clock::get, 1);
        ByteBuf captured = sealed(sender, 7);
        clock.addAndGet(maxAge / 2);
        PacketProtection restarted = new PacketProtection(mode, GroupKey.of(KEY), 8, GROUP, PORT, maxAge, clock::get, 2);
        assertThat(restarted.unprotect(captured.copy())).as("young capture: indistinguishable from a late datagram")
                .isTrue();
        clock.addAndGet(maxAge);
        PacketProtection restartedAgain = new PacketProtection(mode, GroupKey.of(KEY), 8, GROUP, PORT, maxAge,
                clock::get, 3);
        assertThat(restartedAgain.unprotect(captured.copy())).as("capture older than the maximum age").isFalse();
        assertThat(restartedAgain.lastRefusal()).isEqualTo(PacketProtection.Refusal.TOO_OLD);
        assertThat(restartedAgain.unprotect(sealed(sender, 7))).as("the sender's current datagrams").isTrue();
    }

    @Test
    void replayWindowsAreKeptForABoundedNumberOfSources() {
        PacketProtection receiver = protection(PacketProtection.Mode.AUTHENTICATE, KEY, 1);
        for (int source = 2; source < PacketProtection.MAX_REPLAY_SOURCES + 500; source++) {
            PacketProtection sender = protection(PacketProtection.Mode.AUTHENTICATE, KEY, source);
            assertThat(receiver.unprotect(sealed(sender, source))).isTrue();
        }
        assertThat(receiver.trackedSources()).isEqualTo(PacketProtection.MAX_REPLAY_SOURCES);
    }

    @Test
    void keyFilesMustBePrivateAndLongEnough() throws Exception {
        Path good = dir.resolve("good.key");
        Files.writeString(good, ByteBufUtil.hexDump(KEY) + "\n");
        Files.setPosixFilePermissions(good, PosixFilePermissions.fromString("rw-------"));
        assertThat(GroupKey.fromFile(good).bytes()).isEqualTo(KEY);

        Path open = dir.resolve("open.key");
        Files.write(open, KEY);
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> GroupKey.fromFile(open)).hasMessageContaining("owner only");

        Path shortKey = dir.resolve("short.key");
        Files.write(shortKey, new byte[8]);
        Files.setPosixFilePermissions(shortKey, PosixFilePermissions.fromString("r--------"));
        assertThatThrownBy(() -> GroupKey.fromFile(shortKey)).hasMessageContaining("at least 32");
    }

    /** Raw (binary) key files are the key itself: before the fix they loaded as all zeros. */
    @Test
    void rawKeyFilesLoadAsTheirBytes() throws Exception {
        for (int length : new int[] {32, 48, 64, 100}) {
            byte[] raw = new byte[length];
            new SplittableRandom(length).nextBytes(raw);
            raw[0] = (byte) 0xFF;      // certainly not hex text
            Path file = dir.resolve("raw-" + length + ".key");
            Files.write(file, raw);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            assertThat(GroupKey.fromFile(file).bytes()).as("raw key of %d bytes", length).isEqualTo(raw);
            assertThat(Files.readAllBytes(file)).as("the file itself is left alone").isEqualTo(raw);
        }
    }

    @ParameterizedTest
    @EnumSource(PacketProtection.Mode.class)
    void twoDifferentRawKeyFilesDoNotInteroperate(PacketProtection.Mode mode) throws Exception {
        Path a = dir.resolve("a.key");
        Path b = dir.resolve("b.key");
        byte[] rawA = new byte[32];
        byte[] rawB = new byte[32];
        new SplittableRandom(11).nextBytes(rawA);
        new SplittableRandom(12).nextBytes(rawB);
        rawA[0] = (byte) 0x80;
        rawB[0] = (byte) 0x81;
        Files.write(a, rawA);
        Files.write(b, rawB);
        for (Path p : new Path[] {a, b}) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-------"));
        }
        PacketProtection withA = new PacketProtection(mode, GroupKey.fromFile(a), 1, GROUP, PORT);
        PacketProtection withB = new PacketProtection(mode, GroupKey.fromFile(b), 2, GROUP, PORT);
        PacketProtection withZeros = new PacketProtection(mode, GroupKey.of(new byte[32]), 3, GROUP, PORT);
        ByteBuf wire = sealed(withA, 1);
        assertThat(withB.unprotect(wire.copy())).as("other raw key").isFalse();
        assertThat(withZeros.unprotect(wire.copy())).as("an all-zero key").isFalse();
        assertThat(new PacketProtection(mode, GroupKey.fromFile(a), 4, GROUP, PORT).unprotect(wire.copy()))
                .as("same raw key").isTrue();
    }

    @Test
    void hexKeyFilesAcceptSurroundingWhitespaceOnly() {
        assertThat(GroupKey.hexKey("  0a0B\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                .containsExactly(0x0a, 0x0b);
        assertThat(GroupKey.hexKey("0a 0b".getBytes(java.nio.charset.StandardCharsets.US_ASCII))).isNull();
        assertThat(GroupKey.hexKey("abc".getBytes(java.nio.charset.StandardCharsets.US_ASCII))).isNull();
        assertThat(GroupKey.hexKey(new byte[] {(byte) 0xB0, '0'})).isNull();
    }
}
