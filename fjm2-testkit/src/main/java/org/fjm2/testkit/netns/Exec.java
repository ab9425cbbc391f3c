package org.fjm2.testkit.netns;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs a short command with a bounded wait and captures its output. */
public final class Exec {

    /** How long a command may run unless told otherwise. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    private Exec() {
    }

    public static ExecResult run(String... command) {
        return run(DEFAULT_TIMEOUT, List.of(command));
    }

    /**
     * Runs {@code command} and waits at most {@code timeout}; a command still running then is killed and an
     * {@link IllegalStateException} names it. A command that cannot start at all returns exit code 127.
     */
    public static ExecResult run(Duration timeout, List<String> command) {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        } catch (IOException e) {
            return new ExecResult(command, 127, "", "cannot run " + command.get(0) + ": " + e.getMessage());
        }
        try {
            process.getOutputStream().close();
            CompletableFuture<String> out = drain(process.getInputStream());
            CompletableFuture<String> err = drain(process.getErrorStream());
            if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("'" + String.join(" ", command) + "' did not finish within " + timeout);
            }
            return new ExecResult(command, process.exitValue(), out.get(5, TimeUnit.SECONDS), err.get(5, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        } catch (IOException | ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("cannot read the output of " + command + ": " + e, e);
        }
    }

    /** Reads a stream to its end on a thread of its own (the common pool may have a single thread here). */
    private static CompletableFuture<String> drain(InputStream in) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread reader = new Thread(() -> {
            try (in) {
                ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                in.transferTo(buffer);
                result.complete(buffer.toString(StandardCharsets.UTF_8));
            } catch (IOException e) {
                result.completeExceptionally(new UncheckedIOException(e));
            }
        }, "exec-output");
        reader.setDaemon(true);
        reader.start();
        return result;
    }

    /** Whether {@code program} is an executable on the PATH. */
    public static boolean onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (new java.io.File(dir, program).canExecute()) {
                return true;
            }
        }
        return false;
    }
}
