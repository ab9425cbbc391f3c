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

    private Path write(String content, String perms) throws Exception {
        Path f = Files.createTempFile(dir, "key", ".txt");
        Files.writeString(f, content);
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(perms));
        return f;
    }
}
