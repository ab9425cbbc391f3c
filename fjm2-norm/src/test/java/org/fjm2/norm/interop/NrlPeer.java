package org.fjm2.norm.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running NRL NORM peer: the C++ program {@code src/test/native/nrlpeer.cpp} built against Debian's libnorm during
 * the build (profile {@code nrl-peer}, into {@code target/native/nrlpeer}). It is a sender or a receiver driven by
 * options (run it with {@code --help}) that reports one line per event on stdout, {@code TYPE key=value ...}; this
 * wrapper parses those lines into {@link Event}s, queues them for {@link #awaitEvent}, keeps stderr for failure
 * messages, and kills the process on {@link #close}.
 *
 * <pre>{@code
 * NrlPeer.assumeAvailable();
 * try (NrlPeer rx = NrlPeer.receiver(group, port).option("--count", 50).option("--verify-seed", 7).start();
 *      ...) {
 *     rx.awaitEvent("READY", Duration.ofSeconds(10));
 *     ...
 *     NrlPeer.Event done = rx.awaitEvent("DONE", Duration.ofSeconds(60));
 * }
 * }</pre>
 *
 * Object contents of the peer's sender are {@link #objectContent(long, long, int)}, sizes
 * {@link #objectSize(long, long, int, int)}: the Java side can build or check the same bytes.
 */
public final class NrlPeer implements AutoCloseable {

    /** System property naming the peer binary; default {@link #DEFAULT_BINARY} (relative to the module). */
    public static final String BINARY_PROPERTY = "fjm2.nrlpeer";
    /** Where the build puts the peer. */
    public static final String DEFAULT_BINARY = "target/native/nrlpeer";
    /** Stderr kept for failure messages, default 64 KiB (the tail is kept). */
    public static final int STDERR_KEEP_CHARS = 64 * 1024;
    /** Event type the wrapper adds when the process's stdout ends. */
    public static final String EXIT = "EXIT";

    private static final Logger LOG = LoggerFactory.getLogger(NrlPeer.class);

    /** One line of the peer's output: its type (first word) and its key=value fields. */
    public static final class Event {
        private final String type;
        private final Map<String, String> fields;
        private final String line;

        Event(String type, Map<String, String> fields, String line) {
            this.type = type;
            this.fields = fields;
            this.line = line;
        }

        /** Parses {@code TYPE key=value key=value}; words without '=' are kept with an empty value. */
        public static Event parse(String line) {
            String[] words = line.trim().split(" +");
            Map<String, String> fields = new LinkedHashMap<>();
            for (int i = 1; i < words.length; i++) {
                int eq = words[i].indexOf('=');
                if (eq < 0) {
                    fields.put(words[i], "");
                } else {
                    fields.put(words[i].substring(0, eq), words[i].substring(eq + 1));
                }
            }
            return new Event(words[0], Collections.unmodifiableMap(fields), line);
        }

        public String type() {
            return type;
        }

        public Map<String, String> fields() {
            return fields;
        }

        /** The field's value, or null. */
        public String get(String key) {
            return fields.get(key);
        }

        /** The field as a number; fails with the line in the message when absent or not a number. */
        public long getLong(String key) {
            String value = fields.get(key);
            if (value == null) {
                throw new IllegalStateException("no field " + key + " in: " + line);
            }
            return Long.parseLong(value);
        }

        /** A value with the peer's %XX escapes undone (NORM_INFO names). */
        public String getText(String key) {
            String value = fields.get(key);
            if (value == null) {
                return null;
            }
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if (c == '%' && i + 2 < value.length()) {
                    out.append((char) Integer.parseInt(value.substring(i + 1, i + 3), 16));
                    i += 2;
                } else {
                    out.append(c);
                }
            }
            return out.toString();
        }

        public String line() {
            return line;
        }

        @Override
        public String toString() {
            return line;
        }
    }

    /** Builds the command line of a peer; {@link #start} runs it. */
    public static final class Builder {
        private final List<String> command = new ArrayList<>();
        private final String role;

        Builder(String role, String group, int port) {
            this.role = role;
            command.add(binary().toString());
            command.add(role);
            option("--addr", group);
            option("--port", port);
            option("--iface", "lo");
        }

        /** Adds {@code name value} (any option of {@code nrlpeer --help}). */
        public Builder option(String name, Object value) {
            command.add(name);
            command.add(String.valueOf(value));
            return this;
        }

        /** Adds a flag without value ({@code --info}, {@code --sync-all}). */
        public Builder flag(String name) {
            command.add(name);
            return this;
        }

        public List<String> command() {
            return Collections.unmodifiableList(command);
        }

        public NrlPeer start() {
            return new NrlPeer(role, command);
        }
    }

    private final String role;
    private final Process process;
    private final BlockingQueue<Event> queue = new LinkedBlockingQueue<>();
    private final List<Event> history = Collections.synchronizedList(new ArrayList<>());
    private final StringBuilder stderr = new StringBuilder();
    private final Thread stdoutReader;
    private final Thread stderrReader;

    private NrlPeer(String role, List<String> command) {
        this.role = role;
        LOG.info("starting {}", String.join(" ", command));
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
        try {
            process.getOutputStream().close(); // the peer reads no input
        } catch (IOException e) {
            LOG.debug("closing nrlpeer stdin: {}", e.getMessage());
        }
        stdoutReader = daemon("nrlpeer-" + role + "-out", () -> readEvents(process.getInputStream()));
        stderrReader = daemon("nrlpeer-" + role + "-err", () -> readStderr(process.getErrorStream()));
    }

    /** A sender on {@code group:port} over lo; add options, then {@link Builder#start}. */
    public static Builder sender(String group, int port) {
        return new Builder("send", group, port);
    }

    /** A receiver on {@code group:port} over lo; add options, then {@link Builder#start}. */
    public static Builder receiver(String group, int port) {
        return new Builder("recv", group, port);
    }

    /**
     * The peer binary: the {@link #BINARY_PROPERTY} property if set, else {@link #DEFAULT_BINARY} relative to the
     * working directory (tests of fjm2-norm), else the same under {@code ../fjm2-norm} (tests of sibling modules that
     * use this class from fjm2-norm's test jar).
     */
    public static Path binary() {
        String configured = System.getProperty(BINARY_PROPERTY);
        if (configured != null) {
            return Path.of(configured);
        }
        Path local = Path.of(DEFAULT_BINARY);
        Path sibling = Path.of("..", "fjm2-norm").resolve(DEFAULT_BINARY);
        return !Files.isExecutable(local) && Files.isExecutable(sibling) ? sibling : local;
    }

    public static boolean isAvailable() {
        return Files.isExecutable(binary());
    }

    /** Why the peer cannot run here, or null when it can. */
    public static String unavailableReason() {
        if (isAvailable()) {
            return null;
        }
        return "NRL NORM test peer " + binary().toAbsolutePath() + " not built: the build compiles it only where "
                + "libnorm-dev and g++ are installed (apt-get install -y libnorm-dev g++)";
    }

    /** Skips the calling test (JUnit assumption) with a printed reason when the peer is not built. */
    public static void assumeAvailable() {
        String reason = unavailableReason();
        if (reason != null) {
            System.out.println("SKIPPED: " + reason);
        }
        Assumptions.assumeTrue(reason == null, reason);
    }

    /**
     * Takes events in order until one of {@code type} arrives and returns it; events passed over stay in
     * {@link #history}. Fails (AssertionError naming the last events and stderr) on timeout or when the process ends
     * first.
     */
    public Event awaitEvent(String type, Duration timeout) {
        Event event = pollEvent(type, timeout);
        if (event == null) {
            throw new AssertionError("nrlpeer " + role + ": no " + type + " event within " + timeout + describe());
        }
        return event;
    }

    /** Like {@link #awaitEvent} but returns null on timeout or exit. */
    public Event pollEvent(String type, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                Event event = queue.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (event == null) {
                    return null;
                }
                if (event.type().equals(type)) {
                    return event;
                }
                if (event.type().equals(EXIT)) {
                    queue.add(event); // later waits see the exit too
                    return null;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Waits until {@code count} events of {@code type} have been seen (they stay in the queue for
     * {@link #awaitEvent}) and returns them; fails (AssertionError naming the last events and stderr) on timeout or
     * when the process ends first.
     */
    public List<Event> awaitCount(String type, int count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (history) {
            while (true) {
                List<Event> matching = history(type);
                if (matching.size() >= count) {
                    return matching;
                }
                long left = deadline - System.nanoTime();
                boolean exited = !history(EXIT).isEmpty();
                if (left <= 0 || exited) {
                    throw new AssertionError("nrlpeer " + role + ": " + matching.size() + " of " + count + " "
                            + type + " events " + (exited ? "before it exited" : "within " + timeout) + describe());
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(history, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted waiting for nrlpeer " + role, e);
                }
            }
        }
    }

    /** Every event seen so far, in order. */
    public List<Event> history() {
        synchronized (history) {
            return new ArrayList<>(history);
        }
    }

    /** Events of one type seen so far. */
    public List<Event> history(String type) {
        List<Event> matching = new ArrayList<>();
        for (Event e : history()) {
            if (e.type().equals(type)) {
                matching.add(e);
            }
        }
        return matching;
    }

    /** Waits for the process to end and returns its exit code; fails on timeout. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("nrlpeer " + role + " still running after " + timeout + describe());
            }
            stdoutReader.join(TimeUnit.SECONDS.toMillis(5));
            stderrReader.join(TimeUnit.SECONDS.toMillis(5));    // stderr complete before anyone reads it
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for nrlpeer " + role, e);
        }
    }

    public String stderr() {
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    /** Last events and stderr, for failure messages. */
    public String describe() {
        List<Event> all = history();
        List<Event> last = all.subList(Math.max(0, all.size() - 10), all.size());
        StringBuilder text = new StringBuilder("\n  last events:");
        for (Event e : last) {
            text.append("\n    ").append(e.line());
        }
        String err = stderr().strip();
        if (!err.isEmpty()) {
            text.append("\n  stderr (tail):\n").append(err, Math.max(0, err.length() - 4000), err.length());
        }
        return text.toString();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(5, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }

    private void readEvents(InputStream in) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (line.isBlank()) {
                    continue;
                }
                Event event = Event.parse(line);
                LOG.debug("nrlpeer {}: {}", role, line);
                record(event);
            }
        } catch (IOException e) {
            LOG.debug("nrlpeer {} stdout closed: {}", role, e.getMessage());
        }
        record(Event.parse(EXIT));
    }

    private void record(Event event) {
        synchronized (history) {
            history.add(event);
            history.notifyAll();
        }
        queue.add(event);
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
            LOG.debug("nrlpeer {} stderr closed: {}", role, e.getMessage());
        }
    }

    private static Thread daemon(String name, Runnable body) {
        Thread thread = new Thread(body, name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    // --- object contents, identical to nrlpeer.cpp ---

    private static long splitmix64(long[] state) {
        state[0] += 0x9E3779B97F4A7C15L;
        long z = state[0];
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Size of object {@code index} of a sender run with {@code --count N --min min --max max --seed seed}. */
    public static int objectSize(long seed, long index, int min, int max) {
        long[] state = {seed ^ 0x5EED5EED5EED5EEDL ^ (index * 0x9E3779B97F4A7C15L)};
        return min + (int) Long.remainderUnsigned(splitmix64(state), max - min + 1L);
    }

    /** Content of object {@code index} of {@code size} bytes from a sender run with {@code --seed seed}. */
    public static byte[] objectContent(long seed, long index, int size) {
        byte[] data = new byte[size];
        byte[] header = {(byte) (index >>> 24), (byte) (index >>> 16), (byte) (index >>> 8), (byte) index,
            (byte) (size >>> 24), (byte) (size >>> 16), (byte) (size >>> 8), (byte) size};
        System.arraycopy(header, 0, data, 0, Math.min(8, size));
        long[] state = {seed ^ (index * 0xD1B54A32D192ED03L)};
        for (int x = 8; x < size; x += 8) {
            long v = splitmix64(state);
            for (int b = 0; b < 8 && x + b < size; b++) {
                data[x + b] = (byte) (v >>> (8 * b));
            }
        }
        return data;
    }
}
