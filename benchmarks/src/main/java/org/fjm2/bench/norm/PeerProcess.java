package org.fjm2.bench.norm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One benchmark peer process (nrlbench or a {@link Fjm2BenchPeer} JVM): starts it, collects its
 * {@code STAT t=... objects=... bytes=... aborted=...} lines, and answers rates over a window. Peer timestamps are
 * CLOCK_MONOTONIC seconds, the clock {@link System#nanoTime()} reads on Linux, so windows are given in that clock.
 */
public final class PeerProcess implements AutoCloseable {

    /** Characters of stderr kept for error messages. */
    static final int STDERR_KEEP_CHARS = 4000;

    /** One STAT line. */
    public record Sample(double seconds, long objects, long bytes, long aborted) {
    }

    /** Objects/s and MB/s between two samples, and objects aborted in between. */
    public record Rate(double objectsPerSecond, double megabytesPerSecond, long aborted) {
    }

    private final String name;
    private final Process process;
    private final List<Sample> samples = new ArrayList<>();
    private final CountDownLatch ready = new CountDownLatch(1);
    private final StringBuilder stderr = new StringBuilder();
    private final List<String> errors = new ArrayList<>();

    public PeerProcess(String name, List<String> command) throws IOException {
        this.name = name;
        this.process = new ProcessBuilder(command).start();
        process.getOutputStream().close();
        ChildProcesses.daemon(name + "-out", () -> readStdout(process.getInputStream()));
        ChildProcesses.daemon(name + "-err", () -> readStderr(process.getErrorStream()));
    }

    /** Waits for the peer's READY line; fails naming stderr when it exits or times out first. */
    public void awaitReady(long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!ready.await(50, TimeUnit.MILLISECONDS)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " did not start" + describe());
            }
        }
    }

    /**
     * Rate between the first sample at or after {@code fromSeconds} and the last at or before {@code toSeconds}
     * (System.nanoTime() / 1e9); fails when fewer than two samples fall in the window.
     */
    public Rate rate(double fromSeconds, double toSeconds) {
        Sample first = null;
        Sample last = null;
        synchronized (samples) {
            for (Sample s : samples) {
                if (first == null && s.seconds() >= fromSeconds) {
                    first = s;
                }
                if (s.seconds() <= toSeconds) {
                    last = s;
                }
            }
        }
        if (first == null || last == null || last.seconds() <= first.seconds()) {
            throw new IllegalStateException(name + " reported no progress in the measured window" + describe());
        }
        double span = last.seconds() - first.seconds();
        return new Rate((last.objects() - first.objects()) / span, (last.bytes() - first.bytes()) / span / 1e6,
                last.aborted() - first.aborted());
    }

    /** Last sample, or null before the first. */
    public Sample last() {
        synchronized (samples) {
            return samples.isEmpty() ? null : samples.get(samples.size() - 1);
        }
    }

    private void readStdout(InputStream in) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.startsWith("STAT ")) {
                    Sample s = parse(line);
                    synchronized (samples) {
                        samples.add(s);
                    }
                } else if (line.startsWith("READY")) {
                    ready.countDown();
                } else if (line.startsWith("ERROR") || line.startsWith("WARN")) {
                    synchronized (errors) {
                        errors.add(line);
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    static Sample parse(String line) {
        double t = 0;
        long objects = 0;
        long bytes = 0;
        long aborted = 0;
        for (String field : line.substring(5).trim().split(" ")) {
            int eq = field.indexOf('=');
            String key = field.substring(0, eq);
            String value = field.substring(eq + 1);
            switch (key) {
                case "t" -> t = Double.parseDouble(value);
                case "objects" -> objects = Long.parseLong(value);
                case "bytes" -> bytes = Long.parseLong(value);
                case "aborted" -> aborted = Long.parseLong(value);
                default -> { } // later additions
            }
        }
        return new Sample(t, objects, bytes, aborted);
    }

    private void readStderr(InputStream in) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                synchronized (stderr) {
                    stderr.append(line).append('\n');
                    if (stderr.length() > STDERR_KEEP_CHARS) {
                        stderr.delete(0, stderr.length() - STDERR_KEEP_CHARS);
                    }
                }
            }
        } catch (IOException e) {
            // the process ended
        }
    }

    /** Warnings or errors the peer printed, and the tail of its stderr. */
    public String describe() {
        StringBuilder text = new StringBuilder();
        synchronized (errors) {
            for (String e : errors) {
                text.append("\n  ").append(e);
            }
        }
        synchronized (stderr) {
            if (!stderr.isEmpty()) {
                text.append("\n  stderr: ").append(stderr.toString().strip());
            }
        }
        return text.toString();
    }

    @Override
    public void close() throws InterruptedException {
        ChildProcesses.stop(process);
    }
}
