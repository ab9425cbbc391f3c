package org.fjm2.bench.norm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.function.Predicate;

/**
 * One side of a file transfer ({@code fjm2 norm send|recv} or {@code nrlbench}), watched through its output: when it
 * said it is ready (on stdout or stderr), and, for a receiver, when the first and the {@code expected}-th file were
 * reported on stdout (stderr, where logs go, is read apart so that no log line can split one). The count of files a
 * line reports is engine-specific ({@code countOf}: -1 for lines that report none), as is the ready line.
 */
public final class FileTransferProcess implements AutoCloseable {

    /** Characters of output kept for error messages. */
    static final int OUTPUT_KEEP_CHARS = 4000;

    private final String name;
    private final Process process;
    private final Predicate<String> readyLine;
    private final ToLongFunction<String> countOf;
    private final long expected;
    private final CountDownLatch ready = new CountDownLatch(1);
    private final CountDownLatch complete = new CountDownLatch(1);
    private final StringBuilder output = new StringBuilder();
    private volatile long firstNanos;
    private volatile long completeNanos;
    private volatile long count;

    /** {@code expected}: files after which the transfer is complete (0 for a sender). */
    public FileTransferProcess(String name, List<String> command, Predicate<String> readyLine,
                               ToLongFunction<String> countOf, long expected) throws IOException {
        this.name = name;
        this.readyLine = readyLine;
        this.countOf = countOf;
        this.expected = expected;
        this.process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        ChildProcesses.daemon(name + "-out", () -> readOutput(process.getInputStream(), true));
        ChildProcesses.daemon(name + "-err", () -> readOutput(process.getErrorStream(), false));
    }

    /** Waits for the ready line; fails naming the output when the process exits or times out first. */
    public void awaitReady(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!ready.await(20, TimeUnit.MILLISECONDS)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not start" + describe());
            }
        }
    }

    /** Waits until the expected files were reported; false on timeout or when the process ended first. */
    public boolean awaitComplete(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!complete.await(20, TimeUnit.MILLISECONDS)) {
            if (System.nanoTime() > deadline || (!process.isAlive() && !complete.await(200, TimeUnit.MILLISECONDS))) {
                return false;
            }
        }
        return true;
    }

    /** System.nanoTime() when the first file was reported, 0 before. */
    public long firstNanos() {
        return firstNanos;
    }

    /** System.nanoTime() when the expected count was reported, 0 before. */
    public long completeNanos() {
        return completeNanos;
    }

    /** Files reported so far. */
    public long count() {
        return count;
    }

    private void readOutput(InputStream in, boolean counts) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                long now = System.nanoTime();
                if (ready.getCount() > 0 && readyLine.test(line)) {
                    ready.countDown();
                }
                long reported = counts ? countOf.applyAsLong(line) : -1;
                if (reported > 0) {
                    if (firstNanos == 0) {
                        firstNanos = now;
                    }
                    count = reported;
                    if (expected > 0 && reported >= expected && completeNanos == 0) {
                        completeNanos = now;
                        complete.countDown();
                    }
                }
                synchronized (output) {
                    output.append(line).append('\n');
                    if (output.length() > 2 * OUTPUT_KEEP_CHARS) {
                        output.delete(0, output.length() - OUTPUT_KEEP_CHARS);
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** The tail of the process's output. */
    public String describe() {
        synchronized (output) {
            String text = output.length() > OUTPUT_KEEP_CHARS
                    ? output.substring(output.length() - OUTPUT_KEEP_CHARS) : output.toString();
            return text.isBlank() ? "" : "\n  output: " + text.strip();
        }
    }

    @Override
    public void close() throws InterruptedException {
        ChildProcesses.stop(process);
    }
}
