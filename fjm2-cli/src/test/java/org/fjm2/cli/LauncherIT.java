package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/** The distribution as users run it: {@code bin/fjm2} and the jars in fjm2-cli/target/lib. */
class LauncherIT {

    static final String VERSION = System.getProperty("fjm2.version");

    @Test
    void versionOptionPrintsTheReleaseVersion() throws Exception {
        Process p = new ProcessBuilder(System.getProperty("fjm2.launcher"), "-V").redirectErrorStream(true).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p));
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("fjm2 -V finished").isTrue();
        assertThat(p.exitValue()).as(out.get()).isZero();
        assertThat(out.get(10, TimeUnit.SECONDS)).startsWith("fjm2 " + VERSION + "\n").contains("Java ");
    }

    @Test
    void everyFjm2JarNamesItsModuleAndVersion() throws IOException {
        List<Path> jars;
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("fjm2.cli.lib")))) {
            jars = files.filter(f -> f.getFileName().toString().matches("(fjm2-.*|benchmarks-.*)\\.jar")).toList();
        }
        assertThat(jars).extracting(f -> f.getFileName().toString()).contains("fjm2-cli.jar",
                "fjm2-core-" + VERSION + ".jar", "fjm2-norm-" + VERSION + ".jar", "fjm2-util-" + VERSION + ".jar");
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                Attributes main = file.getManifest().getMainAttributes();
                assertThat(main.getValue("Automatic-Module-Name")).as("module name of %s", jar)
                        .matches("org\\.fjm2\\.[a-z]+");
                assertThat(main.getValue("Implementation-Version")).as("version of %s", jar).isEqualTo(VERSION);
            }
        }
    }

    private static String read(Process p) {
        try {
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
