package org.fjm2.cli.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code fjm2 norm send} and {@code recv} end to end on loopback multicast, with loss, plus bad input. */
class NormToolTest {

    @TempDir
    Path dir;

    @Test
    void filesArriveIdenticalNamedByTheirNormInfo() throws Exception {
        NormConfig group = TestGroups.fresh();
        String groupArg = group.group().getHostAddress() + ":" + group.port();
        Path in = Files.createDirectories(dir.resolve("in"));
        Path out = dir.resolve("out");
        SplittableRandom random = new SplittableRandom(17);
        String[] names = {"a.bin", "b.bin", "c with space.txt", "d.bin", "e.bin"};
        int[] sizes = {1, 1399, 1401, 200_000, 1_500_000};
        for (int i = 0; i < names.length; i++) {
            byte[] b = new byte[sizes[i]];
            random.nextBytes(b);
            Files.write(in.resolve(names[i]), b);
        }
        ByteArrayOutputStream recvOut = new ByteArrayOutputStream();
        CompletableFuture<Integer> recv = CompletableFuture.supplyAsync(() -> {
            NormRecvCommand cmd = new NormRecvCommand();
            cmd.stdout = new PrintStream(recvOut, true);
            cmd.stderr = new PrintStream(recvOut, true);
            return new CommandLine(cmd).execute("--group", groupArg, "--interface", "lo", "--out", out.toString(),
                    "--count", "5", "--timeout", "60", "--loss", "10%", "--seed", "5", "--node-id", "77", "--grtt", "0.002");
        });
        assertThat(Await.until(() -> recvOut.toString().contains("listening on"), java.time.Duration.ofSeconds(10)))
                .as("the receiver joined before the first object: %s", recvOut).isTrue();
        NormSendCommand send = new NormSendCommand();
        ByteArrayOutputStream sendOut = new ByteArrayOutputStream();
        send.out = new PrintStream(sendOut, true);
        String[] args = new String[names.length + 9];
        System.arraycopy(new String[] {"--group", groupArg, "--interface", "lo", "--rate", "200m", "--ack", "77",
                "--grtt=0.002"}, 0, args, 0, 9);
        for (int i = 0; i < names.length; i++) {
            args[9 + i] = in.resolve(names[i]).toString();
        }
        int sendExit = new CommandLine(send).execute(args);
        assertThat(recv.get(60, TimeUnit.SECONDS)).as("recv exit; output %s", recvOut).isEqualTo(0);
        assertThat(sendExit).as("send exit; output %s", sendOut).isEqualTo(0);
        for (String name : names) {
            assertThat(Files.readAllBytes(out.resolve(name))).as(name).isEqualTo(Files.readAllBytes(in.resolve(name)));
        }
        assertThat(sendOut.toString()).contains("acknowledged by all");
        assertThat(recvOut.toString()).contains("received " + out.resolve("e.bin"));
    }

    @Test
    void recvShowsProgressWhileAnObjectArrives() throws Exception {
        NormConfig group = TestGroups.fresh();
        String groupArg = group.group().getHostAddress() + ":" + group.port();
        Path file = dir.resolve("big.bin");
        byte[] content = new byte[3_000_000];
        new SplittableRandom(23).nextBytes(content);
        Files.write(file, content);
        ByteArrayOutputStream recvOut = new ByteArrayOutputStream();
        CompletableFuture<Integer> recv = CompletableFuture.supplyAsync(() -> {
            NormRecvCommand cmd = new NormRecvCommand();
            cmd.stdout = new PrintStream(recvOut, true);
            cmd.stderr = new PrintStream(recvOut, true);
            return new CommandLine(cmd).execute("--group", groupArg, "--interface", "lo", "--out",
                    dir.resolve("out").toString(), "--count", "1", "--timeout", "60s", "--progress", "100ms",
                    "--linger", "0", "--grtt", "2ms");
        });
        assertThat(Await.until(() -> recvOut.toString().contains("listening on"), java.time.Duration.ofSeconds(10)))
                .as("the receiver joined before the first object: %s", recvOut).isTrue();
        // 3 MB at 20 Mbit/s: over a second on the wire, so several progress lines come before the object is complete.
        int sendExit = new CommandLine(new NormSendCommand()).execute("--group", groupArg, "--interface", "lo",
                "--rate", "20mbit", "--grtt", "2ms", "--quiet", file.toString());
        assertThat(recv.get(60, TimeUnit.SECONDS)).as("recv exit; output %s", recvOut).isEqualTo(0);
        assertThat(sendExit).isZero();
        String output = recvOut.toString();
        String beforeComplete = output.substring(0, output.indexOf("received " + dir.resolve("out")));
        assertThat(beforeComplete.lines().filter(line -> line.matches(
                " *[0-9.]+ s  [0-9.]+ MB received .*, 0 objects written .*") && !line.contains(" 0.0 MB received")))
                .as("progress while the object was in transit: %s", output).isNotEmpty();
    }

    @Test
    void aStreamFromStdinArrivesOnTheReceiversStdout() throws Exception {
        NormConfig group = TestGroups.fresh();
        String groupArg = group.group().getHostAddress() + ":" + group.port();
        byte[] content = new byte[2_000_000];
        new SplittableRandom(29).nextBytes(content);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        ByteArrayOutputStream recvErr = new ByteArrayOutputStream();
        CompletableFuture<Integer> recv = CompletableFuture.supplyAsync(() -> {
            NormRecvCommand cmd = new NormRecvCommand();
            cmd.stdout = new PrintStream(data);
            cmd.stderr = new PrintStream(recvErr, true);
            return new CommandLine(cmd).execute("--group", groupArg, "--interface", "lo", "--stream", "--timeout",
                    "60", "--loss", "10%", "--seed", "6", "--grtt", "0.002", "--linger", "0");
        });
        assertThat(Await.until(() -> recvErr.toString().contains("listening on"), java.time.Duration.ofSeconds(10)))
                .as("the receiver joined before the stream: %s", recvErr).isTrue();
        NormSendCommand send = new NormSendCommand();
        ByteArrayOutputStream sendErr = new ByteArrayOutputStream();
        send.in = new java.io.ByteArrayInputStream(content);
        send.err = new PrintStream(sendErr, true);
        int sendExit = new CommandLine(send).execute("--group", groupArg, "--interface", "lo", "--stream", "--rate",
                "50m", "--grtt", "0.002", "--linger", "0.5", "--timeout", "60");
        assertThat(sendExit).as("send exit; stderr %s", sendErr).isZero();
        assertThat(recv.get(60, TimeUnit.SECONDS)).as("recv exit; stderr %s", recvErr).isZero();
        assertThat(data.toByteArray()).as("stdout of fjm2 norm recv --stream").isEqualTo(content);
        assertThat(recvErr.toString()).contains("stream ended: 2000000 bytes written").contains("0 gaps");
        assertThat(sendErr.toString()).contains("stream ended: 2000000 bytes");
    }

    @Test
    void badArgumentsExitWithTwoAndOneLine() {
        assertThat(run(new NormSendCommand(), "--group", "239.1.1.1", dir.resolve("x").toString())).isEqualTo(2);
        assertThat(run(new NormRecvCommand(), "--out", dir.toString())).isEqualTo(2);
        assertThat(run(new NormSendCommand(), "--help")).isEqualTo(0);
        assertThat(run(new NormRecvCommand(), "--group", "239.1.1.1:6003")).as("neither --out nor --stream")
                .isEqualTo(2);
        assertThat(run(new NormRecvCommand(), "--group", "239.1.1.1:6003", "--stream", "--out", dir.toString()))
                .isEqualTo(2);
        assertThat(run(new NormSendCommand(), "--group", "239.1.1.1:6003", "--stream",
                dir.resolve("x").toString())).as("files with --stream").isEqualTo(2);
        assertThat(run(new NormSendCommand(), "--group", "239.1.1.1:6003")).as("no file, no --stream")
                .isEqualTo(2);
        assertThat(run(new NormSendCommand(), "--group", "239.1.1.1:6003", "--stream", "--flush", "sometimes"))
                .isEqualTo(2);
    }

    @Test
    void aDirectoryArgumentSendsItsRegularFilesByName() throws Exception {
        Path in = Files.createDirectories(dir.resolve("many"));
        Files.createDirectories(in.resolve("sub"));
        for (String name : new String[] {"c.bin", "a.bin", "b.bin"}) {
            Files.write(in.resolve(name), new byte[] {1});
        }
        Path single = Files.write(dir.resolve("z.bin"), new byte[] {2});
        assertThat(NormSendCommand.expandDirectories(java.util.List.of(single, in)))
                .containsExactly(single, in.resolve("a.bin"), in.resolve("b.bin"), in.resolve("c.bin"));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThat(run(new NormSendCommand(), "--group", "239.1.1.1:6003", empty.toString()))
                .as("a directory without files").isEqualTo(2);
    }

    @Test
    void helpDocumentsStreams() {
        StringWriter recvHelp = new StringWriter();
        CommandLine recv = new CommandLine(new NormRecvCommand());
        recv.setOut(new PrintWriter(recvHelp));
        recv.execute("--help");
        assertThat(recvHelp.toString()).contains("--stream", "--stream-buffer", "--from-message-start",
                "--stdout-buffer", "write its bytes to stdout");
        StringWriter sendHelp = new StringWriter();
        CommandLine send = new CommandLine(new NormSendCommand());
        send.setOut(new PrintWriter(sendHelp));
        send.execute("--help");
        assertThat(sendHelp.toString()).contains("--stream", "--stream-buffer", "--flush", "--message-per-line",
                "send stdin as a NORM stream");
    }

    private static int run(Object command, String... args) {
        CommandLine cli = new CommandLine(command);
        cli.setErr(new PrintWriter(new StringWriter()));
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setExecutionExceptionHandler((ex, c, parse) -> ex instanceof IllegalArgumentException ? 2 : 1);
        return cli.execute(args);
    }

    @Test
    void namesFromTheNetworkCannotEscapeTheOutputDirectory() {
        assertThat(NormRecvCommand.safeName("../../etc/passwd")).isEqualTo("passwd");
        assertThat(NormRecvCommand.safeName("C:\\x\\y.txt")).isEqualTo("y.txt");
        assertThat(NormRecvCommand.safeName("..")).isNull();
        assertThat(NormRecvCommand.safeName("a/")).isNull();
        assertThat(NormRecvCommand.safeName("bad\u0000name\n")).isEqualTo("badname");
        assertThat(NormRecvCommand.safeName(null)).isNull();
    }
}
