package org.fjm2.tunnel.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key files: only owner-readable files with a long enough secret are accepted, with a reason otherwise. */
class TunnelKeyTest {

    @TempDir
    Path dir;

    @Test
    void ownerOnlyFileIsLoadedAndTrimmed() throws Exception {
        Path f = write("  0123456789abcdef0123456789abcdef\n", "rw-------");
        TunnelKey a = TunnelKey.load(f);
        TunnelKey b = TunnelKey.of("0123456789abcdef0123456789abcdef".getBytes());
        assertThat(a.newMac().doFinal(new byte[] {1, 2, 3})).isEqualTo(b.newMac().doFinal(new byte[] {1, 2, 3}));
    }

    @Test
    void readableByOthersIsRefused() throws Exception {
        Path f = write("0123456789abcdef0123456789abcdef", "rw-r--r--");
        assertThatThrownBy(() -> TunnelKey.load(f)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("chmod 600");
    }

    @Test
    void shortSecretAndMissingFileAreRefused() throws Exception {
        Path f = write("short", "rw-------");
        assertThatThrownBy(() -> TunnelKey.load(f)).hasMessageContaining("at least 16");
        assertThatThrownBy(() -> TunnelKey.load(dir.resolve("none"))).hasMessageContaining("does not exist");
    }

    @Test
    void binaryKeysAreUsedAsBytes() throws Exception {
        // Bytes that are not UTF-8: a text decoding turns both files into the same replacement characters.
        byte[] one = new byte[32];
        byte[] two = new byte[32];
        java.util.Arrays.fill(one, (byte) 0xFF);
        java.util.Arrays.fill(two, (byte) 0xFE);
        TunnelKey a = TunnelKey.load(writeBytes(one));
        TunnelKey b = TunnelKey.load(writeBytes(two));
        assertThat(mac(a)).as("two different binary keys must not interoperate").isNotEqualTo(mac(b));
        assertThat(mac(a)).as("the file's bytes are the secret").isEqualTo(mac(TunnelKey.of(one)));
        assertThat(mac(b)).isEqualTo(mac(TunnelKey.of(two)));
        byte[] endsInNewline = java.util.Arrays.copyOf(two, 33);
        endsInNewline[32] = '\n';                      // a raw key may end in a newline byte: it is part of it
        assertThat(mac(TunnelKey.load(writeBytes(endsInNewline)))).isNotEqualTo(mac(b));
        Path file = writeBytes(two);
        TunnelKey.load(file);
        assertThat(Files.readAllBytes(file)).as("the file is left alone").isEqualTo(two);
    }

    @Test
    void aHexFileWorksWithOrWithoutItsNewline() throws Exception {
        String hex = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
        assertThat(mac(TunnelKey.load(write(hex + "\n", "rw-------"))))
                .isEqualTo(mac(TunnelKey.load(write(hex, "rw-------"))));
    }

    private static byte[] mac(TunnelKey key) {
        return key.newMac().doFinal(new byte[] {1, 2, 3});
    }

    private Path writeBytes(byte[] content) throws Exception {
        Path f = Files.createTempFile(dir, "key", ".bin");
        Files.write(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-------"));
        return f;
    }

    private Path write(String content, String perms) throws Exception {
        Path f = Files.createTempFile(dir, "key", ".txt");
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(perms));
        return f;
    }
}
