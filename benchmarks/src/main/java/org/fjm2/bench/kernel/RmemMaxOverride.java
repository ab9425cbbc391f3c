package org.fjm2.bench.kernel;

import java.io.IOException;
import java.io.PrintStream;
import java.util.OptionalLong;

/**
 * Sets {@code net.core.rmem_max} to one value after another for a benchmark and puts the value it found back: in
 * {@link #close()} (a try-with-resources' finally, so also when the run throws) and in a shutdown hook (Ctrl-C, a
 * kill), whichever comes first; the other then does nothing. The cap is machine-wide: a run that leaves it changed
 * changes every later socket's buffers, other people's too.
 */
public final class RmemMaxOverride implements AutoCloseable {

    /** One run under one cap. */
    public interface UnderCap {
        /** Runs with {@code cap} in effect (empty: the current cap, which cannot be read). */
        void run(OptionalLong cap) throws Exception;
    }

    /** Where shutdown hooks go: the JVM's, or a test's. */
    interface ShutdownHooks {
        void add(Thread hook);

        void remove(Thread hook);
    }

    static final ShutdownHooks RUNTIME = new ShutdownHooks() {
        @Override
        public void add(Thread hook) {
            Runtime.getRuntime().addShutdownHook(hook);
        }

        @Override
        public void remove(Thread hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs (and finds the value restored) or ran already
            }
        }
    };

    private final Sysctl sysctl;
    private final long original;
    private final ShutdownHooks hooks;
    private final Thread hook;
    private final PrintStream log;
    private long lastSet = -1;
    private boolean restored;

    private RmemMaxOverride(Sysctl sysctl, long original, ShutdownHooks hooks, PrintStream log) {
        this.sysctl = sysctl;
        this.original = original;
        this.hooks = hooks;
        this.log = log;
        this.hook = new Thread(this::restoreQuietly, "restore-" + sysctl.name());
    }

    /** Reads the value to put back and registers the shutdown hook; nothing is changed yet. */
    public static RmemMaxOverride begin(Sysctl sysctl, PrintStream log) throws IOException {
        return begin(sysctl, RUNTIME, log);
    }

    static RmemMaxOverride begin(Sysctl sysctl, ShutdownHooks hooks, PrintStream log) throws IOException {
        RmemMaxOverride override = new RmemMaxOverride(sysctl, sysctl.read(), hooks, log);
        hooks.add(override.hook);
        return override;
    }

    /**
     * Sets {@code sysctl} to each of {@code caps} in turn and runs {@code body} under it, then puts back the value
     * found at the start: after the last cap, or as soon as {@code body} throws (the exception then goes on).
     */
    public static void forEach(Sysctl sysctl, int[] caps, PrintStream log, UnderCap body) throws Exception {
        forEach(sysctl, RUNTIME, caps, log, body);
    }

    static void forEach(Sysctl sysctl, ShutdownHooks hooks, int[] caps, PrintStream log, UnderCap body)
            throws Exception {
        try (RmemMaxOverride override = begin(sysctl, hooks, log)) {
            for (int cap : caps) {
                override.set(cap);
                body.run(OptionalLong.of(cap));
            }
        }
    }

    /** The value found at the start, which is put back. */
    public long original() {
        return original;
    }

    /** Sets the cap to {@code value}; refused once the original is back. */
    public synchronized void set(long value) throws IOException {
        if (restored) {
            throw new IllegalStateException(sysctl.name() + " was already put back to " + original);
        }
        sysctl.write(value);
        lastSet = value;
        log.printf("%s = %d (was %d; put back at the end)%n", sysctl.name(), value, original);
    }

    /** Puts the original value back (once) and removes the shutdown hook. */
    @Override
    public void close() throws IOException {
        try {
            restore();
        } finally {
            hooks.remove(hook);
        }
    }

    /** Puts the original value back, once; says so when someone else changed the value meanwhile. */
    synchronized void restore() throws IOException {
        if (restored) {
            return;
        }
        if (lastSet >= 0) {
            long now = sysctl.read();
            if (now != lastSet) {
                log.printf("warning: %s is %d, not the %d this run set: something else changed it during the run "
                        + "(the figures measured since may not be under the cap they name)%n", sysctl.name(), now, lastSet);
            }
        }
        sysctl.write(original);
        restored = true;
        log.printf("%s = %d again%n", sysctl.name(), original);
    }

    /** Whether the original value is back. */
    synchronized boolean restored() {
        return restored;
    }

    /** The shutdown hook's thread (for tests). */
    Thread hook() {
        return hook;
    }

    private void restoreQuietly() {
        try {
            restore();
        } catch (IOException | RuntimeException e) {
            log.printf("could not put %s back to %d: %s (as root: sysctl -w %s=%d)%n", sysctl.name(), original, e,
                    sysctl.name(), original);
        }
    }
}
