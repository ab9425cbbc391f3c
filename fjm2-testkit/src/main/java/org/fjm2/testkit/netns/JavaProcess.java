package org.fjm2.testkit.netns;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A process started in a namespace (usually a JVM running a main class of the test classpath), whose standard
 * output lines are queued for the test to await and whose last standard-error lines are kept for messages.
 * {@link #close()} ends it: SIGTERM, then SIGKILL after a grace period.
 */
public final class JavaProcess implements AutoCloseable {

    /** Lines of standard error kept (status lines of long-running daemons among them). */
    static final int STDERR_TAIL_LINES = 200;
    /** Of those, lines shown in failure messages. */
    static final int DIAGNOSTIC_STDERR_LINES = 40;
    /** How long {@link #close()} waits after SIGTERM before SIGKILL. */
    static final Duration TERMINATION_GRACE = Duration.ofSeconds(5);

    private final String description;
    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> seen = new ArrayList<>();
    private final Deque<String> stderrTail = new ArrayDeque<>();

    JavaProcess(String description, Process process) {
        this.description = description;
        this.process = process;
        pump(process.getInputStream(), lines::add, "stdout");
        pump(process.getErrorStream(), this::keepStderr, "stderr");
    }

    private void pump(InputStream in, java.util.function.Consumer<String> sink, String which) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                // the process ended
            }
        }, "ns-process-" + which);
        t.setDaemon(true);
        t.start();
    }

    private synchronized void keepStderr(String line) {
        if (stderrTail.size() == STDERR_TAIL_LINES) {
            stderrTail.removeFirst();
        }
        stderrTail.addLast(line);
    }

    /** The next standard-output line matching {@code pattern} within {@code timeout}, skipping others. */
    public Optional<String> pollLine(Pattern pattern, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left <= 0 ? lines.poll() : lines.poll(left, TimeUnit.NANOSECONDS);
            if (line == null) {
                return Optional.empty();
            }
            synchronized (this) {
                seen.add(line);
            }
            if (pattern.matcher(line).find()) {
                return Optional.of(line);
            }
        }
    }

    /**
     * Like {@link #pollLine} but a missing line is an {@link IllegalStateException} that shows what the process
     * printed, its state and the tail of its standard error.
     */
    public String awaitLine(Pattern pattern, Duration timeout) throws InterruptedException {
        return pollLine(pattern, timeout).orElseThrow(() -> new IllegalStateException(
                description + ": no line matching /" + pattern + "/ within " + timeout + "; " + diagnostics()));
    }

    /** Every standard-output line read so far, plus those still queued; the process should have ended. */
    public synchronized List<String> allLines() {
        List<String> all = new ArrayList<>(seen);
        all.addAll(lines);
        return all;
    }

    /** The last {@value #STDERR_TAIL_LINES} standard-error lines (where the CLI's logs go). */
    public synchronized List<String> stderrTail() {
        return new ArrayList<>(stderrTail);
    }

    /** Waits for the process to end; returns its exit code, or empty if it still runs after {@code timeout}. */
    public Optional<Integer> waitFor(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS) ? Optional.of(process.exitValue()) : Optional.empty();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public long pid() {
        return process.pid();
    }

    /** What it printed, whether it runs, and its last standard-error lines. */
    public synchronized String diagnostics() {
        return (process.isAlive() ? "still running" : "exited with " + process.exitValue())
                + ", stdout so far " + seen + ", stderr tail "
                + stderrTail.stream().skip(Math.max(0, stderrTail.size() - DIAGNOSTIC_STDERR_LINES)).toList();
    }

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(TERMINATION_GRACE.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor(TERMINATION_GRACE.toMillis(), TimeUnit.MILLISECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
