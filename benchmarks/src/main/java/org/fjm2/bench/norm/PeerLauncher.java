package org.fjm2.bench.norm;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts benchmark peers of either engine with one set of options: the NRL NORM peer binary, or a child JVM running
 * {@link Fjm2BenchPeer} on this JVM's class path. Both take the same {@code send|recv --name value} options.
 */
public final class PeerLauncher {

    /** The two engines. */
    public enum Engine {
        NRL("NRL"), FJM2("fjm2");

        public final String label;

        Engine(String label) {
            this.label = label;
        }
    }

    /**
     * Child JVM options: IPv4 sockets (see DESIGN.md pitfalls), no Netty leak sampling, and a heap above the
     * receiver's bound on incomplete objects (NormConfig receiveBufferBytes), which a receiver that falls
     * behind a 2 Gbit/s sender does fill.
     */
    static final List<String> CHILD_JVM_OPTIONS = List.of("-Djava.net.preferIPv4Stack=true",
            "-Dio.netty.leakDetection.level=disabled", "-Xms512m", "-Xmx1g");

    private final Path nrlBinary;
    private final List<String> extraJvmOptions;

    /** {@code nrlBinary} may be null when no NRL peer is started. */
    public PeerLauncher(Path nrlBinary, List<String> extraJvmOptions) {
        this.nrlBinary = nrlBinary;
        this.extraJvmOptions = List.copyOf(extraJvmOptions);
    }

    public PeerProcess start(Engine engine, String role, List<String> options) throws IOException {
        return start(engine, role, options, null);
    }

    /** Starts the peer inside network namespace {@code namespace} ({@code ip netns exec}; null: this one). */
    public PeerProcess start(Engine engine, String role, List<String> options, String namespace) throws IOException {
        List<String> command = new ArrayList<>();
        if (namespace != null) {
            command.addAll(List.of("ip", "netns", "exec", namespace));
        }
        if (engine == Engine.NRL) {
            command.add(nrlBinary.toString());
        } else {
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(CHILD_JVM_OPTIONS);
            command.addAll(extraJvmOptions);
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(Fjm2BenchPeer.class.getName());
        }
        command.add(role);
        command.addAll(options);
        return new PeerProcess(engine.label + "-" + role, command);
    }
}
