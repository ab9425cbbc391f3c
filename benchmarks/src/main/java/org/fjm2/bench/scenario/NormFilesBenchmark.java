package org.fjm2.bench.scenario;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.fjm2.bench.norm.FileTransferProcess;
import org.fjm2.bench.norm.PeerLauncher.Engine;
import org.fjm2.bench.report.Plot;
import org.fjm2.bench.report.ProgressBar;
import org.fjm2.bench.report.ResultTable;

/**
 * {@code fjm2 bench norm --files N}: the file path as users run it. N files of one size are written once into a
 * directory; for each pair a receiver process is started into an empty directory and, once it listens, a sender
 * process is given the directory: {@code fjm2 norm send DIR} / {@code fjm2 norm recv --out DIR --count N} (the CLI,
 * each its own JVM, as bin/fjm2 starts it) and nrlbench's NRL file path ({@code NormFileEnqueue} at the sender, file
 * objects written into the receiver's cache directory and renamed by their NORM_INFO). The clock runs from the
 * sender's start (its process start included) to the receiver's report of the N-th file; every file is then compared
 * with its original. The ratio is against the NRL -> NRL pair of the same run.
 */
final class NormFilesBenchmark {

    /** The CLI's main class (fjm2-cli depends on this module, so it is named, not linked). */
    static final String CLI_MAIN = "org.fjm2.cli.Fjm2";
    /** Set by bin/fjm2 to its own path: the benchmark then starts the commands through it. */
    static final String LAUNCHER_VARIABLE = "FJM2_LAUNCHER";
    /** Child JVM options as bin/fjm2 gives them to the norm commands (when not started through it). */
    static final List<String> CLI_JVM_OPTIONS = List.of("-Djava.net.preferIPv4Stack=true",
            "-Dio.netty.leakDetection.level=disabled", "-XX:TieredStopAtLevel=1");
    /** Longest a receiver may take to listen (a JVM starting on a busy 2-core machine). */
    static final long READY_TIMEOUT_MS = 20_000;
    /** A transfer may take this long plus a millisecond per file before it counts as failed. */
    static final long TRANSFER_TIMEOUT_BASE_MS = 30_000;
    /** nrlbench's STAT interval at the receiver: the resolution of the NRL receiver's first and last file. */
    static final String NRL_REPORT_SECONDS = "0.01";
    /** --quick: at most this many files. */
    static final int QUICK_FILES = 2_000;
    static final int SENDER_NODE = 1;
    static final int RECEIVER_NODE = 2;
    /** Seed of the files' content. */
    static final long CONTENT_SEED = 20261126L;

    private static final Pattern NRL_STAT_OBJECTS = Pattern.compile("^STAT .* objects=(\\d+) ");
    private static final Pattern FJM2_FILE_WRITTEN = Pattern.compile("^received \\S.* \\(\\d+ bytes, object ");

    /** One transfer: files intact at the receiver, seconds from the sender's start to the last file and from the
     *  first file to the last. */
    record Transfer(long intact, double seconds, double streamingSeconds) {
        double objectsPerSecond(int files) {
            return seconds <= 0 ? 0 : intact == files ? files / seconds : 0;
        }
    }

    private final NormVsNrlBenchmark options;
    private final Path nrlBinary;
    private final int files;

    NormFilesBenchmark(NormVsNrlBenchmark options, Path nrlBinary) {
        this.options = options;
        this.nrlBinary = nrlBinary;
        this.files = options.quick ? Math.min(options.files, QUICK_FILES) : options.files;
    }

    /** One pair of engines at one sender rate. */
    record Case(Engine sender, Engine receiver, long rate) {
        String label() {
            return sender.label + " -> " + receiver.label + (sender == Engine.NRL ? " @ " + rate / 1_000_000 + "m"
                    : "");
        }
    }

    /** Every pair, an NRL sender at each NRL rate; NRL -> NRL first. */
    List<Case> cases(List<Engine[]> pairs) {
        List<Case> cases = new ArrayList<>();
        for (Engine[] pair : pairs) {
            if (pair[0] == Engine.NRL) {
                for (long rate : options.nrlFileRates) {
                    cases.add(new Case(pair[0], pair[1], rate));
                }
            } else {
                cases.add(new Case(pair[0], pair[1], options.rate));
            }
        }
        return cases;
    }

    int run(List<Engine[]> pairs) throws Exception {
        int size = options.fileSize;
        List<Case> cases = cases(pairs);
        Path work = Files.isDirectory(options.filesDir)
                ? Files.createTempDirectory(options.filesDir, "fjm2-bench-files")
                : Files.createTempDirectory("fjm2-bench-files");
        try {
            Path source = Files.createDirectories(work.resolve("src"));
            writeFiles(source, files, size);
            ProgressBar progress = new ProgressBar("norm --files", (long) cases.size() * options.runs);
            List<List<Transfer>> perCase = new ArrayList<>();
            for (int c = 0; c < cases.size(); c++) {
                perCase.add(new ArrayList<>());
            }
            int port = 33000 + (int) (ProcessHandle.current().pid() % 500) * 64;
            for (int run = 0; run < options.runs; run++) {
                for (int c = 0; c < cases.size(); c++) {
                    Case one = cases.get(c);
                    Path out = work.resolve("out-" + c + "-" + run);
                    Transfer t = transfer(one, source, out, port++);
                    Directories.deleteTree(out);
                    perCase.get(c).add(t);
                    progress.step(one.label() + ", run " + (run + 1) + ": "
                            + String.format("%d of %d files intact in %.2f s", t.intact(), files, t.seconds()));
                }
            }
            double baseline = 0;
            for (int c = 0; c < cases.size(); c++) {
                Case one = cases.get(c);
                if (one.sender() == Engine.NRL && one.receiver() == Engine.NRL) {
                    baseline = Math.max(baseline, median(perCase.get(c), files).objectsPerSecond(files));
                }
            }
            ResultTable table = new ResultTable("file path: " + files + " files of " + size + " B, sender process"
                    + " start to last file written, loopback multicast, segment " + options.segment + " B;"
                    + " vs the fastest NRL -> NRL that delivered every file",
                    "sender", "receiver", "sender_rate_bps", "files_intact", "seconds", "objects_per_s",
                    "streaming_objects_per_s", "vs_nrl_nrl", "runs_objects_per_s");
            List<String> names = new ArrayList<>();
            List<double[]> series = new ArrayList<>();
            for (int c = 0; c < cases.size(); c++) {
                Case one = cases.get(c);
                Transfer t = median(perCase.get(c), files);
                double perSecond = t.objectsPerSecond(files);
                table.row(one.sender().label, one.receiver().label, one.rate(), t.intact(), t.seconds(), perSecond,
                        t.streamingSeconds() <= 0 ? 0 : files / t.streamingSeconds(),
                        baseline == 0 ? 0 : perSecond / baseline, runsText(perCase.get(c), files));
                names.add(one.label());
                series.add(new double[] {perSecond});
            }
            table.print(System.out);
            table.writeCsv(options.out.resolve("norm-files.csv"));
            Plot.bars(options.out.resolve("norm-files.png"), "file path, objects/s from sender start (" + files
                    + " files of " + size + " B)", "", "objects/s", List.of(size + " B files"), names, series);
            System.out.println("wrote " + options.out.resolve("norm-files.csv") + " and "
                    + options.out.resolve("norm-files.png"));
            return 0;
        } finally {
            Directories.deleteTree(work);
        }
    }

    private Transfer transfer(Case one, Path source, Path out, int port) throws Exception {
        Engine senderEngine = one.sender();
        Engine receiverEngine = one.receiver();
        Files.createDirectories(out);
        long timeoutMs = TRANSFER_TIMEOUT_BASE_MS + files;
        try (FileTransferProcess receiver = receiver(receiverEngine, out, port)) {
            receiver.awaitReady(READY_TIMEOUT_MS);
            long start = System.nanoTime();
            try (FileTransferProcess sender = sender(senderEngine, one.rate(), source, port, timeoutMs)) {
                if (!receiver.awaitComplete(timeoutMs)) {
                    System.err.printf("%s: %d of %d files after %.1f s%s%s%n", one.label(), receiver.count(), files,
                            (System.nanoTime() - start) / 1e9, receiver.describe(), sender.describe());
                }
            }
            long intact = intactFiles(source, out);
            if (receiver.completeNanos() == 0) {
                return new Transfer(intact, 0, 0);
            }
            return new Transfer(intact, (receiver.completeNanos() - start) / 1e9,
                    (receiver.completeNanos() - receiver.firstNanos()) / 1e9);
        }
    }

    private FileTransferProcess receiver(Engine engine, Path out, int port) throws IOException {
        if (engine == Engine.NRL) {
            return new FileTransferProcess("NRL-recv", List.of(nrlBinary.toString(), "recv",
                    "--addr", options.group, "--port", Integer.toString(port), "--iface", options.interfaceName,
                    "--id", Integer.toString(RECEIVER_NODE), "--out", out.toString(), "--count", Integer.toString(files),
                    "--seconds", Long.toString((TRANSFER_TIMEOUT_BASE_MS + files) / 1000 + 30),
                    "--report", NRL_REPORT_SECONDS), line -> line.startsWith("READY"), NormFilesBenchmark::nrlCount,
                    files);
        }
        List<String> command = cli("norm", "recv", "--group", options.group + ":" + port,
                "--interface", options.interfaceName, "--node-id", Integer.toString(RECEIVER_NODE),
                "--out", out.toString(), "--count", Integer.toString(files), "--linger", "0");
        ToLongFunction<String> counter = new ToLongFunction<>() {
            private long written;

            @Override
            public long applyAsLong(String line) {
                return FJM2_FILE_WRITTEN.matcher(line).find() ? ++written : -1;
            }
        };
        return new FileTransferProcess("fjm2-recv", command, line -> line.startsWith("listening on"), counter, files);
    }

    private FileTransferProcess sender(Engine engine, long rate, Path source, int port, long timeoutMs)
            throws IOException {
        if (engine == Engine.NRL) {
            return new FileTransferProcess("NRL-send", List.of(nrlBinary.toString(), "send",
                    "--addr", options.group, "--port", Integer.toString(port), "--iface", options.interfaceName,
                    "--id", Integer.toString(SENDER_NODE), "--files", source.toString(),
                    "--rate", Long.toString(rate), "--segment", Integer.toString(options.segment),
                    "--block", Integer.toString(options.block), "--parity", Integer.toString(options.parity),
                    "--ahead", Integer.toString(options.nrlAhead), "--seconds", Long.toString(timeoutMs / 1000),
                    "--report", "1"), line -> false, line -> -1, 0);
        }
        List<String> command = cli("norm", "send", "--group", options.group + ":" + port,
                "--interface", options.interfaceName, "--node-id", Integer.toString(SENDER_NODE),
                "--rate", Long.toString(rate), "--segment", Integer.toString(options.segment),
                "--block", Integer.toString(options.block), "--parity", Integer.toString(options.parity),
                source.toString());
        return new FileTransferProcess("fjm2-send", command, line -> false, line -> -1, 0);
    }

    /**
     * The CLI in a JVM of its own: through bin/fjm2 when the benchmark runs from it (its class-data archives
     * included, as users start the commands), else a JVM started with bin/fjm2's options.
     */
    private List<String> cli(String... arguments) {
        List<String> command = new ArrayList<>();
        String launcher = System.getenv(LAUNCHER_VARIABLE);
        if (launcher != null && Files.isExecutable(Path.of(launcher))) {
            command.addAll(List.of("env", "FJM2_JAVA_OPTS=" + String.join(" ", options.jvmOptions), launcher));
            command.addAll(List.of(arguments));
            return command;
        }
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(CLI_JVM_OPTIONS);
        command.addAll(options.jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(CLI_MAIN);
        command.addAll(List.of(arguments));
        return command;
    }

    /** Whether the CLI can be started from this JVM's class path. */
    static boolean cliOnClassPath() {
        try {
            Class.forName(CLI_MAIN, false, NormFilesBenchmark.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    static long nrlCount(String line) {
        Matcher m = NRL_STAT_OBJECTS.matcher(line);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    /** {@code count} files f00000.bin... of {@code size} seeded random bytes. */
    static void writeFiles(Path dir, int count, int size) throws IOException {
        SplittableRandom random = new SplittableRandom(CONTENT_SEED);
        byte[] content = new byte[size];
        for (int i = 0; i < count; i++) {
            random.nextBytes(content);
            Files.write(dir.resolve(String.format("f%06d.bin", i)), content);
        }
    }

    /** Files of {@code source} found in {@code out} with the same bytes. */
    static long intactFiles(Path source, Path out) throws IOException {
        long intact = 0;
        try (Stream<Path> listing = Files.list(source)) {
            for (Path original : (Iterable<Path>) listing::iterator) {
                Path copy = out.resolve(original.getFileName().toString());
                if (Files.isRegularFile(copy) && Files.mismatch(original, copy) == -1) {
                    intact++;
                }
            }
        }
        return intact;
    }

    /** The run with the median objects/s (a run that lost files counts as 0). */
    static Transfer median(List<Transfer> runs, int files) {
        return Runs.median(runs, t -> t.objectsPerSecond(files));
    }

    private static String runsText(List<Transfer> runs, int files) {
        return Runs.text(runs, t -> t.objectsPerSecond(files));
    }
}
