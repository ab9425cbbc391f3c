package org.fjm2.bench.jms;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark peer in its own JVM (same classpath, same network namespace): the bench JVM writes commands to its
 * standard input and awaits its answers on standard output, one line each. Standard error is kept (last lines)
 * for failure messages. {@link #close()} kills it if it has not exited.
 */
public final class ChildJvm implements AutoCloseable {

    /** Heap of a child: room for 8 subscriber connections with their receive queues. */
    public static final String CHILD_HEAP = "-Xmx1g";
    /** Lines of standard error kept for failure messages. */
    static final int STDERR_TAIL = 30;
    /**
     * Environment variable naming a directory where every child's whole standard error is written too (one file per
     * child, named by its process id), for looking into a run after the fact, e.g. with FJM2_LOG_LEVEL=DEBUG.
     */
    public static final String STDERR_DIRECTORY_ENV = "FJM2_BENCH_CHILD_LOGS";
    /** How long close() waits for a child to exit before it kills it. */
    static final Duration EXIT_GRACE = Duration.ofSeconds(10);

    private final String description;
    private final Process process;
    private final PrintWriter stdin;
    private final BlockingQueue<String> stdout = new LinkedBlockingQueue<>();
    private final Deque<String> stderrTail = new ArrayDeque<>();
    private final PrintWriter stderrCopy;

    private ChildJvm(String description, Process process) throws IOException {
        this.description = description;
        this.process = process;
        String directory = System.getenv(STDERR_DIRECTORY_ENV);
        if (directory == null || directory.isBlank()) {
            this.stderrCopy = null;
        } else {
            Path file = Path.of(directory).resolve("child-" + process.pid() + ".log");
            Files.createDirectories(file.getParent());
            this.stderrCopy = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8), true);
            stderrCopy.println(description);
        }
        this.stdin = new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8), true);
        pump(new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8)), false);
        pump(new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)), true);
    }

    /**
     * Starts {@code main} of this JVM's classpath with {@code jvmOptions} (e.g. a JFR recording) and {@code args}.
     */
    public static ChildJvm start(Class<?> main, List<String> jvmOptions, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add(CHILD_HEAP);
        command.add("-Djava.net.preferIPv4Stack=true");
        // the leak detector samples buffers with stack traces: overhead that is no part of what is measured
        command.add("-Dio.netty.leakDetection.level=disabled");
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add(main.getName());
        command.addAll(List.of(args));
        return new ChildJvm(main.getSimpleName() + " " + String.join(" ", args), new ProcessBuilder(command).start());
    }

    private void pump(BufferedReader reader, boolean isStderr) {
        Thread t = new Thread(() -> {
            try (reader) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (isStderr) {
                        keepStderr(line);
                    } else {
                        stdout.add(line);
                    }
                }
            } catch (IOException e) {
                // the child ended
            }
        }, "child-" + (isStderr ? "stderr" : "stdout"));
        t.setDaemon(true);
        t.start();
    }

    private synchronized void keepStderr(String line) {
        if (stderrCopy != null) {
            stderrCopy.println(line);
        }
        if (stderrTail.size() == STDERR_TAIL) {
            stderrTail.removeFirst();
        }
        stderrTail.addLast(line);
    }

    /** Sends one command line to the child. */
    public void send(String command) {
        stdin.println(command);
    }

    /**
     * The next output line starting with {@code prefix}, skipping others; a line starting with FAIL, the child's
     * exit or the timeout is an {@link IllegalStateException} with the child's last standard-error lines.
     */
    public String await(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? null : stdout.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(200)),
                    TimeUnit.NANOSECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line != null && line.startsWith("FAIL")) {
                throw failure(line);
            }
            if (line == null && (left <= 0 || (!process.isAlive() && stdout.isEmpty()))) {
                throw failure(left <= 0 ? "no " + prefix + " line within " + timeout : "exited with "
                        + process.exitValue() + " before a " + prefix + " line");
            }
        }
    }

    private synchronized IllegalStateException failure(String what) {
        return new IllegalStateException(description + ": " + what + "; stderr tail " + stderrTail);
    }

    @Override
    public void close() throws InterruptedException {
        stdin.close();
        if (!process.waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(EXIT_GRACE.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
