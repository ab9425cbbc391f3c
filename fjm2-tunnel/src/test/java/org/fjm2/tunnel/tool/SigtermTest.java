package org.fjm2.tunnel.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fjm2 tunnel} as its own process: SIGTERM stops it cleanly, with its final counters logged. */
class SigtermTest {

    @TempDir
    Path dir;

    @Test
    void sigtermStopsTheDaemonCleanly() throws Exception {
        Path key = Files.writeString(dir.resolve("key"), "0123456789abcdef0123456789abcdef");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        NormConfig lan = TestGroups.fresh();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-Xmx128m", "-Djava.net.preferIPv4Stack=true", "-cp",
                System.getProperty("java.class.path"), TunnelCommand.class.getName(),
                "--group", lan.group().getHostAddress() + ":" + lan.port(), "--interface", "lo",
                "--listen", "127.0.0.1:0", "--key-file", key.toString(), "--node-id", "sigterm-test")
                .redirectErrorStream(true).start();
        List<String> lines = new ArrayList<>();
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    synchronized (lines) {
                        lines.add(line);
                    }
                    if (line.contains("ready")) {
                        ready.countDown();
                    }
                }
            } catch (java.io.IOException e) {
                // process ended
            }
        });
        reader.start();
        try {
            assertThat(ready.await(60, TimeUnit.SECONDS)).as("ready line; output: %s", lines).isTrue();
            // SIGTERM through the handle: Process.destroy() would also close our end of the child's output pipe.
            assertThat(p.toHandle().destroy()).isTrue();
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("stopped within 30 s").isTrue();
            reader.join(5000);
            synchronized (lines) {
                assertThat(String.join("\n", lines)).as("exit status %d", p.exitValue())
                        .contains("stopping (signal)", "FJM2D sigterm-test stopped");
            }
            assertThat(p.exitValue()).as("JVM exit status on SIGTERM").isEqualTo(143);
        } finally {
            p.destroyForcibly();
        }
    }
}
