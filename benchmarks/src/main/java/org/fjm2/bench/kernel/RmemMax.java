package org.fjm2.bench.kernel;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * {@code net.core.rmem_max}, the kernel's cap on every socket's receive buffer (SO_RCVBUF asks are silently clamped
 * to it), as a {@link Sysctl} this process may change.
 *
 * <p>The cap is one value for the whole machine, not one per network namespace: the kernel keeps it in a global
 * (sysctl_rmem_max), and a socket in any namespace is clamped by it. Linux 6.10 and later show it inside other
 * network namespaces as a <em>read-only</em> file (this machine, 6.18: {@code ip netns exec X sysctl
 * net.core.rmem_max} gives the host's value, and writing it there is refused with EACCES); older kernels show no
 * such file there at all. Benchmarks run inside a private namespace, so from there it is written in the initial
 * network namespace through {@code nsenter --net=/proc/2/ns/net} (root only): PID 2 is kthreadd on a host, and kernel
 * threads live in the initial namespaces (PID 1 may not be readable: here it is a VM's init whose /proc/1/ns
 * refuses even root; in a container PID 1 is the container's init, and PID 1's namespace the fallback). From the
 * initial namespace itself the file is written directly.
 */
public final class RmemMax {

    /** The sysctl's name. */
    public static final String NAME = "net.core.rmem_max";
    /** Its file; what it names depends on the network namespace of the process that opens it. */
    public static final Path PROC_FILE = Path.of("/proc/sys/net/core/rmem_max");
    /** This process's network namespace. */
    static final Path OWN_NET_NS = Path.of("/proc/self/ns/net");
    /** The network namespace of kthreadd (PID 2 on a host): kernel threads live in the initial namespaces. */
    static final Path KTHREADD_NET_NS = Path.of("/proc/2/ns/net");
    /** The network namespace of PID 1, where PID 2 is not kthreadd (a container: the container's init). */
    static final Path PID1_NET_NS = Path.of("/proc/1/ns/net");
    /** Longest wait for nsenter. */
    static final long NSENTER_TIMEOUT_SECONDS = 10;
    /** The smallest cap a benchmark accepts: a 64 KB datagram must fit a receive buffer. */
    public static final long MIN_CAP = 64 * 1024;

    private RmemMax() {
    }

    /**
     * The cap as this process can change it: directly in the initial namespace, through nsenter elsewhere (also where
     * it cannot tell, e.g. when the namespace links are not readable: nsenter then says why).
     */
    public static Sysctl sysctl() {
        boolean initial;
        try {
            initial = inInitialNetworkNamespace();
        } catch (IOException e) {
            initial = false;
        }
        return initial ? new ProcFile(NAME, PROC_FILE) : new InitNamespaceFile(NAME, PROC_FILE);
    }

    /**
     * The cap now, or empty when it cannot be read: from the file this namespace shows, else (older kernels show
     * none in other namespaces) through nsenter when that is allowed.
     */
    public static OptionalLong current() {
        try {
            return OptionalLong.of(new ProcFile(NAME, PROC_FILE).read());
        } catch (IOException | RuntimeException e) {
            try {
                return OptionalLong.of(sysctl().read());
            } catch (IOException | RuntimeException e2) {
                return OptionalLong.empty();
            }
        }
    }

    /** Whether this process is in the initial network namespace. */
    static boolean inInitialNetworkNamespace() throws IOException {
        return Files.readSymbolicLink(OWN_NET_NS).equals(Files.readSymbolicLink(initialNetworkNamespace()));
    }

    /** The handle of the initial network namespace: kthreadd's where PID 2 is kthreadd, else PID 1's. */
    static Path initialNetworkNamespace() {
        try (BufferedReader comm = Files.newBufferedReader(Path.of("/proc/2/comm"), StandardCharsets.US_ASCII)) {
            if ("kthreadd".equals(comm.readLine())) {
                return KTHREADD_NET_NS;
            }
        } catch (IOException e) {
            // no PID 2 here: a PID namespace
        }
        return PID1_NET_NS;
    }

    /** Why this process may not change the cap (needs root), or empty when it may. */
    public static Optional<String> whyNotRoot() {
        try {
            return whyNotRoot(Files.readAllLines(Path.of("/proc/self/status"), StandardCharsets.US_ASCII));
        } catch (IOException e) {
            return Optional.of("cannot tell whether this process runs as root (/proc/self/status: " + e
                    + "); changing " + NAME + " needs root on Linux");
        }
    }

    /** {@link #whyNotRoot()} from the lines of /proc/PID/status: root is effective user id 0. */
    static Optional<String> whyNotRoot(List<String> status) {
        OptionalLong uid = effectiveUid(status);
        if (uid.isPresent() && uid.getAsLong() == 0) {
            return Optional.empty();
        }
        return Optional.of("changing " + NAME + " needs root (it writes " + PROC_FILE + "), and this process "
                + (uid.isPresent() ? "runs as user id " + uid.getAsLong() : "has no known user id")
                + ": run it as root, or leave --rmem-max out to measure under the current cap");
    }

    /** The effective user id of a /proc/PID/status ("Uid: real effective saved filesystem"). */
    static OptionalLong effectiveUid(List<String> status) {
        for (String line : status) {
            if (line.startsWith("Uid:")) {
                String[] ids = line.substring(4).trim().split("\\s+");
                if (ids.length >= 2 && ids[1].matches("[0-9]+")) {
                    return OptionalLong.of(Long.parseLong(ids[1]));
                }
            }
        }
        return OptionalLong.empty();
    }

    /** A /proc/sys file opened by this process (so: of this process's network namespace). */
    static final class ProcFile implements Sysctl {
        private final String name;
        private final Path file;

        ProcFile(String name, Path file) {
            this.name = name;
            this.file = file;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long read() throws IOException {
            // Not Files.readString: sysctl files report size 0 and the JDK then reads only their first byte.
            try (BufferedReader reader = Files.newBufferedReader(file, StandardCharsets.US_ASCII)) {
                return parse(name, reader.readLine());
            }
        }

        @Override
        public void write(long value) throws IOException {
            try (OutputStream out = Files.newOutputStream(file)) {
                out.write((value + "\n").getBytes(StandardCharsets.US_ASCII));
            } catch (IOException e) {
                throw new IOException("cannot write " + name + " (" + file + "): " + e, e);
            }
            verify(this, value);
        }
    }

    /**
     * The same /proc/sys file opened by a process in the initial network namespace ({@code nsenter --net}), which is
     * where a machine-wide net.core setting can be written from.
     */
    static final class InitNamespaceFile implements Sysctl {
        private final String name;
        private final Path file;

        InitNamespaceFile(String name, Path file) {
            this.name = name;
            this.file = file;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public long read() throws IOException {
            return parse(name, run(List.of("cat", file.toString()), "").trim());
        }

        @Override
        public void write(long value) throws IOException {
            run(List.of("tee", file.toString()), value + "\n");
            verify(this, value);
        }

        private String run(List<String> command, String input) throws IOException {
            List<String> full = new ArrayList<>(List.of("nsenter", "--net=" + initialNetworkNamespace(), "--"));
            full.addAll(command);
            Process p = new ProcessBuilder(full).redirectErrorStream(true).start();
            try (OutputStream in = p.getOutputStream()) {
                in.write(input.getBytes(StandardCharsets.US_ASCII));
            }
            String output = readAll(p.getInputStream());
            try {
                if (!p.waitFor(NSENTER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IOException(String.join(" ", full) + ": no answer within " + NSENTER_TIMEOUT_SECONDS + " s");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(String.join(" ", full) + ": interrupted", e);
            }
            if (p.exitValue() != 0) {
                throw new IOException(String.join(" ", full) + " (" + name + " in the initial network namespace) "
                        + "failed with exit code " + p.exitValue() + ": " + output.trim());
            }
            return output;
        }
    }

    private static String readAll(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        in.transferTo(bytes);
        return bytes.toString(StandardCharsets.US_ASCII);
    }

    static long parse(String name, String text) throws IOException {
        if (text == null || !text.trim().matches("[0-9]+")) {
            throw new IOException(name + ": not a number: " + text);
        }
        return Long.parseLong(text.trim());
    }

    private static void verify(Sysctl sysctl, long value) throws IOException {
        long now = sysctl.read();
        if (now != value) {
            throw new IOException(sysctl.name() + " reads " + now + " after writing " + value);
        }
    }
}
