package org.fjm2.testkit;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A main class of the test classpath run in its own JVM, its output read line by line: tests wait for a line that
 * starts with a prefix, and print the whole output when something fails. {@link #close} kills it (SIGKILL on
 * Linux: what kill -9 does), which crash tests use.
 */
public final class ChildJvm implements AutoCloseable {

    /** Silences logback's own start-up chatter, which would fill the output a failing test prints. */
    public static final String QUIET_LOGBACK =
            "-Dlogback.statusListenerClass=ch.qos.logback.core.status.NopStatusListener";

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuilder output = new StringBuilder();

    public ChildJvm(String heap, Class<?> main, String... args) throws java.io.IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx" + heap, "-Djava.net.preferIPv4Stack=true",
                QUIET_LOGBACK, "-cp",
                System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        this.process = new ProcessBuilder(command).redirectErrorStream(true).start();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                }
            } catch (java.io.IOException e) {
                lines.add("FAIL " + e);
            }
        }, "child-output");
        reader.setDaemon(true);
        reader.start();
    }

    /** The first line starting with {@code prefix} (or FAIL) within the timeout; other lines are skipped. */
    public String awaitLine(String prefix, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null) {
                break;
            }
            if (line.startsWith(prefix) || line.startsWith("FAIL")) {
                return line;
            }
        }
        return "no " + prefix + " within " + seconds + " s";
    }

    /** Everything the child printed so far. */
    public String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    /** The last {@code count} lines the child printed so far: what a failure message can carry whole. */
    public String outputTail(int count) {
        String all = output();
        int start = all.length();
        for (int n = 0; n <= count && start > 0; ) {
            start = all.lastIndexOf('\n', start - 1);
            if (start < 0) {
                return all;
            }
            n++;
        }
        return all.substring(start + 1);
    }

    /** Waits for the child to exit; its exit code, or -1 when it did not exit in time. */
    public int awaitExit(int seconds) throws InterruptedException {
        return process.waitFor(seconds, TimeUnit.SECONDS) ? process.exitValue() : -1;
    }

    /** Kills the child (SIGKILL on Linux, as kill -9) and waits until it is gone; false if it was not in time. */
    public boolean kill(int seconds) throws InterruptedException {
        process.destroyForcibly();
        return process.waitFor(seconds, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
