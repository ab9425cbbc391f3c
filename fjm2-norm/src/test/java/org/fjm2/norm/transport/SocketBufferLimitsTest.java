package org.fjm2.norm.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class SocketBufferLimitsTest {

    @Test
    void readsTheKernelCapAndWarnsOncePerRequestAboveIt(@TempDir Path dir) throws Exception {
        Path limit = dir.resolve("rmem_max");
        Files.writeString(limit, "4194304\n");

        assertThat(SocketBufferLimits.cap(limit)).hasValue(4_194_304L);
        assertThat(SocketBufferLimits.warnIfCapped(limit, "net.core.rmem_max", "receiveBuffer", 4_194_304))
                .as("a request within the cap").isFalse();
        assertThat(SocketBufferLimits.warnIfCapped(limit, "net.core.rmem_max", "receiveBuffer", 8 << 20))
                .as("a request above the cap").isTrue();
        assertThat(SocketBufferLimits.warnIfCapped(limit, "net.core.rmem_max", "receiveBuffer", 8 << 20))
                .as("the same request again: already reported").isFalse();
    }

    @Test
    void readsTheRealSysctlFileWhole() {
        // /proc files report size 0; a reader that trusts the size gets "4" out of "4194304".
        OptionalLong cap = SocketBufferLimits.cap(SocketBufferLimits.RMEM_MAX);
        assumeTrue(cap.isPresent(), "no " + SocketBufferLimits.RMEM_MAX + " here");
        assertThat(cap.getAsLong()).as("net.core.rmem_max is at least a page").isGreaterThanOrEqualTo(4096);
    }

    @Test
    void noCapKnownMeansNoWarning(@TempDir Path dir) throws Exception {
        Path missing = dir.resolve("absent");
        Path garbage = dir.resolve("garbage");
        Files.writeString(garbage, "lots");

        assertThat(SocketBufferLimits.cap(missing)).isEmpty();
        assertThat(SocketBufferLimits.cap(garbage)).isEmpty();
        assertThat(SocketBufferLimits.warnIfCapped(missing, "net.core.rmem_max", "receiveBuffer", 1 << 30)).isFalse();
    }
}
