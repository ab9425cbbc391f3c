package org.fjm2.norm.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.SplittableRandom;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PacketProtectionTest {

    static final byte[] KEY = new byte[32];
    static final byte[] OTHER_KEY = new byte[32];

    static {
        new SplittableRandom(1).nextBytes(KEY);
        new SplittableRandom(2).nextBytes(OTHER_KEY);
    }

    @TempDir
    Path dir;

    private static ByteBuf message(int sourceId, int size) {
        ByteBuf buf = Unpooled.buffer(size + 64);
        buf.writeByte(0x12).writeByte(5).writeShort(7).writeInt(sourceId);
        byte[] body = new byte[size - 8];
        new SplittableRandom(size).nextBytes(body);
        return buf.writeBytes(body);
    }

    @ParameterizedTest
    @EnumSource(PacketProtection.Mode.class)
    void roundTripRejectsReplayTamperingTruncationAndOtherKeys(PacketProtection.Mode mode) {
        PacketProtection sender = new PacketProtection(mode, GroupKey.of(KEY), 77);
        PacketProtection receiver = new PacketProtection(mode, GroupKey.of(KEY), 88);
        PacketProtection stranger = new PacketProtection(mode, GroupKey.of(OTHER_KEY), 99);
        ByteBuf original = message(77, 500);
        ByteBuf wire = original.copy();
        sender.protect(wire);
        assertThat(wire.readableBytes()).isEqualTo(500 + sender.overhead());
        if (mode == PacketProtection.Mode.SEAL) {
            assertThat(io.netty.buffer.ByteBufUtil.indexOf(original.slice(16, 16), wire)).as("no plaintext").isEqualTo(-1);
        }
        ByteBuf replay = wire.copy();
        ByteBuf tampered = wire.copy();
        tampered.setByte(tampered.writerIndex() - 20, tampered.getByte(tampered.writerIndex() - 20) ^ 1);
        ByteBuf truncated = wire.copy(0, 20);
        ByteBuf forStranger = wire.copy();

        assertThat(receiver.unprotect(wire)).isTrue();
        assertThat(wire).isEqualTo(original);
        assertThat(receiver.unprotect(replay)).as("replay").isFalse();
        assertThat(receiver.unprotect(tampered)).as("tampered").isFalse();
        assertThat(receiver.unprotect(truncated)).as("truncated").isFalse();
        assertThat(stranger.unprotect(forStranger)).as("other key").isFalse();
    }

    @Test
    void outOfOrderWithinTheWindowIsAcceptedOnceOlderIsNot() {
        PacketProtection sender = new PacketProtection(PacketProtection.Mode.AUTHENTICATE, GroupKey.of(KEY), 5);
        PacketProtection receiver = new PacketProtection(PacketProtection.Mode.AUTHENTICATE, GroupKey.of(KEY), 6);
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

    @Test
    void keyFilesMustBePrivateAndLongEnough() throws Exception {
        Path good = dir.resolve("good.key");
        Files.writeString(good, io.netty.buffer.ByteBufUtil.hexDump(KEY) + "\n");
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
}
