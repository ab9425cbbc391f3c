package org.fjm2.cli.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.interop.NrlPeer;
import org.fjm2.norm.interop.StreamContent;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The README's "Talking to NRL NORM" commands, run as written (in-process, with a fresh group): {@code fjm2 norm recv}
 * writes the files an NRL sender sends under their NORM_INFO names and acknowledges its watermark, and
 * {@code fjm2 norm send} delivers files to an NRL receiver, which names them by NORM_INFO and acknowledges; with
 * {@code --stream}, {@code fjm2 norm recv} writes an NRL stream to stdout and {@code fjm2 norm send} streams stdin to
 * an NRL receiver, which checks every byte.
 */
class NrlCommandLineInteropTest {

    static final long SEED = 808;
    static final int[] SIZES = {1, 1000, 1400, 70_000, 300_000};
    static final int FJM2_NODE = 7;
    static final int NRL_NODE = 2;

    @TempDir
    Path dir;

    @Test
    void fjm2RecvWritesWhatAnNrlSenderSends() throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = TestGroups.fresh();
        String address = group.group().getHostAddress();
        Path out = dir.resolve("in");
        ByteArrayOutputStream recvOut = new ByteArrayOutputStream();
        CompletableFuture<Integer> recv = CompletableFuture.supplyAsync(() -> {
            NormRecvCommand command = new NormRecvCommand();
            setOutput(command, recvOut);
            return new CommandLine(command).execute("--group", address + ":" + group.port(), "--interface", "lo",
                    "--out", out.toString(), "--count", Integer.toString(SIZES.length), "--node-id",
                    Integer.toString(FJM2_NODE), "--linger", "2", "--timeout", "60");
        });
        awaitListening(recvOut);
        try (NrlPeer tx = NrlPeer.sender(address, group.port()).option("--id", 10)
                .option("--sizes", sizesArgument()).option("--seed", SEED).flag("--info")
                .option("--ack", FJM2_NODE).option("--linger", 0.5).option("--timeout", 60).start()) {
            assertThat(recv.get(90, TimeUnit.SECONDS)).as("fjm2 norm recv exit code; stderr %s", recvOut)
                    .isZero();
            NrlPeer.Event watermark = tx.awaitEvent("WATERMARK", Duration.ofSeconds(30));
            assertThat(watermark.get("status")).as(tx.describe()).isEqualTo("SUCCESS");
        }
        for (int i = 0; i < SIZES.length; i++) {
            assertThat(Files.readAllBytes(out.resolve(infoName(i))))
                    .as("file %s", infoName(i)).isEqualTo(NrlPeer.objectContent(SEED, i, SIZES[i]));
        }
    }

    @Test
    void fjm2SendDeliversFilesToAnNrlReceiver() throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = TestGroups.fresh();
        Path in = Files.createDirectories(dir.resolve("files"));
        Path out = dir.resolve("nrl-out");
        List<String> arguments = new ArrayList<>(List.of("--group",
                group.group().getHostAddress() + ":" + group.port(), "--interface", "lo", "--rate", "50m",
                "--ack", Integer.toString(NRL_NODE), "--timeout", "60", "--quiet"));
        for (int i = 0; i < SIZES.length; i++) {
            Path file = in.resolve("report-" + i + ".dat");
            Files.write(file, NrlPeer.objectContent(SEED, i, SIZES[i]));
            arguments.add(file.toString());
        }
        try (NrlPeer rx = NrlPeer.receiver(group.group().getHostAddress(), group.port()).option("--id", NRL_NODE)
                .option("--out", out).option("--count", SIZES.length).option("--linger", 30).option("--timeout", 60)
                .start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            NormSendCommand send = new NormSendCommand();
            ByteArrayOutputStream sendOut = new ByteArrayOutputStream();
            setOutput(send, sendOut);
            int exit = new CommandLine(send).execute(arguments.toArray(String[]::new));
            assertThat(exit).as("fjm2 norm send exit code; output %s%s", sendOut, rx.describe()).isZero();
            assertThat(sendOut.toString()).contains("acknowledged by all");
            rx.awaitCount("RX_OBJECT", SIZES.length, Duration.ofSeconds(10));
        }
        for (int i = 0; i < SIZES.length; i++) {
            Path file = out.resolve("report-" + i + ".dat");
            assertThat(Files.readAllBytes(file)).as("file %s written by the NRL receiver", file)
                    .isEqualTo(Files.readAllBytes(in.resolve("report-" + i + ".dat")));
        }
    }

    @Test
    void fjm2RecvStreamWritesAnNrlStreamToStdout() throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = TestGroups.fresh();
        String address = group.group().getHostAddress();
        long bytes = 2_000_000;
        StreamContent content = new StreamContent(SEED, 500, 5_000, bytes);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        ByteArrayOutputStream recvErr = new ByteArrayOutputStream();
        CompletableFuture<Integer> recv = CompletableFuture.supplyAsync(() -> {
            NormRecvCommand command = new NormRecvCommand();
            command.stdout = new PrintStream(data);
            command.stderr = new PrintStream(recvErr, true);
            return new CommandLine(command).execute("--group", address + ":" + group.port(), "--interface", "lo",
                    "--stream", "--node-id", Integer.toString(FJM2_NODE), "--linger", "0", "--timeout", "60");
        });
        awaitListening(recvErr);
        try (NrlPeer tx = content.options(NrlPeer.sender(address, group.port()).option("--id", 10)
                .option("--seed", SEED).option("--rate", 20_000_000L).option("--linger", 2)
                .option("--timeout", 60).flag("--info")).start()) {
            assertThat(recv.get(90, TimeUnit.SECONDS)).as("fjm2 norm recv --stream exit code; stderr %s%s", recvErr,
                    tx.describe()).isZero();
        }
        assertThat(data.toByteArray()).as("the NRL stream on stdout").isEqualTo(content.bytes(0, bytes));
        assertThat(recvErr.toString()).as("the stream's NORM_INFO on the log").contains("info 'stream-" + SEED + "'");
    }

    @Test
    void fjm2SendStreamReachesAnNrlReceiver() throws Exception {
        NrlPeer.assumeAvailable();
        NormConfig group = TestGroups.fresh();
        long bytes = 2_000_000;
        StreamContent content = new StreamContent(SEED, 500, 5_000, bytes);
        try (NrlPeer rx = NrlPeer.receiver(group.group().getHostAddress(), group.port()).option("--id", NRL_NODE)
                .option("--stream", bytes).option("--verify-seed", SEED).option("--progress", 0)
                .option("--linger", 0).option("--timeout", 60).start()) {
            rx.awaitEvent("READY", Duration.ofSeconds(10));
            NormSendCommand send = new NormSendCommand();
            ByteArrayOutputStream sendErr = new ByteArrayOutputStream();
            send.in = new java.io.ByteArrayInputStream(content.bytes(0, bytes));
            send.err = new PrintStream(sendErr, true);
            int exit = new CommandLine(send).execute("--group", group.group().getHostAddress() + ":" + group.port(),
                    "--interface", "lo", "--stream", "--rate", "20m", "--linger", "1", "--timeout", "60", "--info",
                    "quotes.csv");
            assertThat(exit).as("fjm2 norm send --stream exit code; stderr %s%s", sendErr, rx.describe()).isZero();
            NrlPeer.Event end = rx.awaitEvent("STREAM_END", Duration.ofSeconds(30));
            assertThat(end.get("verify")).as(end.line()).isEqualTo("ok");
            assertThat(end.getLong("received")).as(end.line()).isEqualTo(bytes);
            assertThat(end.getLong("breaks")).as(end.line()).isZero();
            assertThat(rx.history("STREAM_INFO")).as("the stream's NORM_INFO at NRL").extracting(e -> e.get("info"))
                    .containsExactly("quotes.csv");
        }
    }

    private static String sizesArgument() {
        StringBuilder list = new StringBuilder();
        for (int size : SIZES) {
            list.append(list.length() == 0 ? "" : ",").append(size);
        }
        return list.toString();
    }

    /** The NORM_INFO the peer sends with object {@code index}. */
    private static String infoName(int index) {
        return "obj-" + index + ".bin";
    }

    /** Both commands print to fields the tests can redirect (stdout and stderr into one buffer). */
    private static void setOutput(Object command, ByteArrayOutputStream buffer) {
        PrintStream print = new PrintStream(buffer, true);
        if (command instanceof NormRecvCommand recv) {
            recv.stdout = print;
            recv.stderr = print;
        } else if (command instanceof NormSendCommand send) {
            send.out = print;
            send.err = print;
        }
    }

    /** Waits until {@code fjm2 norm recv} has joined (it prints "listening on" first). */
    private static void awaitListening(ByteArrayOutputStream output) throws InterruptedException {
        Await.until(() -> output.toString().contains("listening on"), java.time.Duration.ofSeconds(10));
        assertThat(output.toString()).contains("listening on");
    }
}
