package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/fjm2's class-data archives: the first successful run of a command records the classes it loaded, later runs
 * map them, a rebuild records again, and only an archive whose JVM exited normally (or on the signal the launcher
 * forwarded) is ever used: a partly written one would crash the JVM that maps it.
 */
class ClassDataArchiveIT {

    @TempDir
    Path dir;

    private ProcessBuilder launcher(Map<String, String> environment, String... args) {
        List<String> command = new ArrayList<>();
        command.add(System.getProperty("fjm2.launcher"));
        command.addAll(List.of(args));
        ProcessBuilder b = new ProcessBuilder(command);
        b.environment().put("FJM2_CDS_DIR", dir.resolve("cds").toString());
        b.environment().putAll(environment);
        return b;
    }

    /** A real command that ends by itself: one small file sent to a group on loopback. */
    private String[] sendOneFile() throws IOException {
        Path file = dir.resolve("one.txt");
        Files.writeString(file, "one");
        int port = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
        return new String[] {"norm", "send", "--group", "239.255.77.3:" + port, "--interface", "lo", "--quiet",
                file.toString()};
    }

    private static String run(ProcessBuilder b) throws Exception {
        Process p = b.redirectErrorStream(true).start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p));
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            String threads = threadDumps(p);
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("the launcher did not finish within 120 s; its output:\n"
                    + out.get(10, TimeUnit.SECONDS) + "\nits JVM's threads:\n" + threads);
        }
        assertThat(p.exitValue()).as(out.get(10, TimeUnit.SECONDS)).isZero();
        return out.get(10, TimeUnit.SECONDS);
    }

    /** The thread dump of every JVM the launcher started (for a run that hangs). */
    private static String threadDumps(Process launcher) {
        StringBuilder dumps = new StringBuilder();
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        List<ProcessHandle> processes = new ArrayList<>(launcher.descendants().toList());
        processes.add(launcher.toHandle());
        for (ProcessHandle h : processes) {
            try {
                Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(h.pid()), "Thread.print")
                        .redirectErrorStream(true).start();
                CompletableFuture<String> text = CompletableFuture.supplyAsync(() -> read(dump));
                if (dump.waitFor(20, TimeUnit.SECONDS)) {
                    dumps.append("pid ").append(h.pid()).append(":\n").append(text.get(5, TimeUnit.SECONDS));
                } else {
                    dump.destroyForcibly();
                }
            } catch (Exception e) {
                dumps.append("pid ").append(h.pid()).append(": no dump (").append(e).append(")\n");
            }
        }
        return dumps.toString();
    }

    private List<Path> files() throws IOException {
        if (!Files.isDirectory(dir.resolve("cds"))) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir.resolve("cds"))) {
            return s.sorted().toList();
        }
    }

    @Test
    void theFirstRunRecordsTheCommandsClassesLaterRunsMapThemAndARebuildRecordsAgain() throws Exception {
        String[] command = sendOneFile();
        run(launcher(Map.of(), command));
        List<Path> recorded = files();
        assertThat(recorded).as("one archive, nothing temporary left").hasSize(1);
        Path archive = recorded.get(0);
        assertThat(archive.getFileName().toString()).matches("norm-send-\\d+\\.jsa");

        Path classLog = dir.resolve("classes.txt");
        run(launcher(Map.of("FJM2_JAVA_OPTS", "-Xlog:class+load=info:file=" + classLog), command));
        assertThat(Files.readString(classLog)).as("the command's classes come from the archive")
                .contains("org.fjm2.cli.norm.NormSendCommand source: shared objects file (top)");
        assertThat(files()).containsExactly(archive);

        FileTime beforeTheBuild = FileTime.fromMillis(0);
        Files.setLastModifiedTime(archive, beforeTheBuild);
        run(launcher(Map.of(), command));
        assertThat(files()).containsExactly(archive);
        assertThat(Files.getLastModifiedTime(archive)).as("recorded again: the jars are newer")
                .isGreaterThan(beforeTheBuild);
    }

    @Test
    void helpAndVersionRunsAndFJM2_CDS_offRecordNothing() throws Exception {
        run(launcher(Map.of(), "norm", "send", "--help"));
        run(launcher(Map.of(), "-V"));
        run(launcher(Map.of("FJM2_CDS", "off"), sendOneFile()));
        assertThat(files()).isEmpty();
    }

    @Test
    void aRecordingDaemonStoppedBySignalKeepsItsArchiveAndOneKilledKeepsNone() throws Exception {
        String[] subscribe = {"subscribe", "--url", "norm://239.255.77.4:" + (20_000
                + ThreadLocalRandom.current().nextInt(20_000)) + "?interface=lo", "--topic", "t"};

        Process killed = startAndAwaitSubscribed(subscribe);
        List<ProcessHandle> jvms = killed.descendants().toList();
        assertThat(jvms).as("the recording JVM runs as the launcher's child").hasSize(1);
        jvms.get(0).destroyForcibly();
        assertThat(killed.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(killed.exitValue()).isNotZero();
        assertThat(files()).as("a JVM killed while recording leaves no archive").isEmpty();

        Process stopped = startAndAwaitSubscribed(subscribe);
        ProcessHandle jvm = stopped.descendants().findFirst().orElseThrow();
        stopped.destroy(); // SIGTERM to the launcher, as a service manager stops a daemon
        assertThat(stopped.waitFor(60, TimeUnit.SECONDS)).as("the launcher ends").isTrue();
        assertThat(jvm.onExit().get(10, TimeUnit.SECONDS).isAlive()).as("the signal reached the JVM").isFalse();
        assertThat(stopped.exitValue()).isEqualTo(143);
        assertThat(files()).extracting(p -> p.getFileName().toString())
                .singleElement().asString().matches("subscribe-\\d+\\.jsa");
    }

    private Process startAndAwaitSubscribed(String[] subscribe) throws Exception {
        Process p = launcher(Map.of(), subscribe).redirectErrorStream(true).start();
        CompletableFuture<Boolean> subscribed = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (var lines = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) { // read to the end: the subscriber must not block
                    if (line.contains("SubscribeCommand - subscribed to t")) {
                        subscribed.complete(true);
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
            subscribed.complete(false);
        }, "subscriber-output");
        reader.setDaemon(true);
        reader.start();
        assertThat(subscribed.get(60, TimeUnit.SECONDS)).as("the subscriber started").isTrue();
        return p;
    }

    private static String read(Process p) {
        try {
            return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
