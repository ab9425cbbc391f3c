package org.fjm2.tunnel.tool;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.fjm2.tunnel.NodeIds;
import org.fjm2.tunnel.TunnelConfig;
import org.fjm2.tunnel.TunnelDaemon;
import org.fjm2.tunnel.security.TunnelKey;
import org.fjm2.tunnel.admin.AdminClient;
import org.fjm2.tunnel.admin.AdminTokenFile;
import org.fjm2.util.Quantities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 tunnel}: runs FJM2D until SIGTERM (or Ctrl-C, or {@code --duration}). Every option can also come from
 * a config file ({@code --config}: Java properties, keys are the long option names without dashes); the command
 * line wins. Secrets come from files only.
 */
@Command(name = "tunnel", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"FJM2D: bridge a LAN's NORM multicast group to other LANs' FJM2D daemons over UDP unicast.",
                "Every datagram between daemons is authenticated (HMAC-SHA256) with the shared key of --key-file.",
                "Peers come from --peer and, with --admin, from FJM2-Admin."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:stopped by SIGTERM, Ctrl-C or --duration", "1:failed (e.g. a socket could not be opened)",
                "2:bad arguments or configuration"},
        footerHeading = "%nConfig file:%n",
        footer = {"  group=239.255.0.1:6003", "  interface=eth0", "  peer=198.51.100.7:6004,203.0.113.9:6004",
                "  key-file=/etc/fjm2/tunnel.key", "  rate=50m"})
public final class TunnelCommand implements Callable<Integer> {

    private static final Logger LOG = LoggerFactory.getLogger(TunnelCommand.class);

    static final Set<String> KEYS = Set.of("group", "interface", "listen", "node-id", "peer", "key-file", "seal",
            "rate", "burst", "queue", "hop-by-hop", "repair-cache", "repair-holdoff", "transit", "accept-unlisted",
            "keepalive", "peer-silence", "state-dir", "status-interval", "ttl", "admin", "token-file", "advertise",
            "transport", "duration", "admin-ca");

    @Option(names = "--config", paramLabel = "FILE", description = "Properties file with any of the options below.")
    Path configFile;

    @Option(names = "--group", paramLabel = "GROUP:PORT", description = "The LAN's NORM multicast group (required).")
    String group;

    @Option(names = "--interface", paramLabel = "IF",
            description = "Interface (name or address) that joins the group and re-emits. Default: the system's.")
    String interfaceName;

    @Option(names = "--listen", paramLabel = "[HOST:]PORT",
            description = "UDP address for the peers. Default: " + TunnelConfig.DEFAULT_LISTEN_PORT + ".")
    String listen;

    @Option(names = "--node-id", paramLabel = "ID",
            description = "This daemon's unique id (its name in FJM2-Admin). Default: the host name and a random "
                    + "part, drawn once and kept in --state-dir.")
    String nodeId;

    @Option(names = "--state-dir", paramLabel = "DIR",
            description = "Where the default node id is kept. Default: $STATE_DIRECTORY (systemd), else "
                    + "~/" + NodeIds.DEFAULT_STATE_SUBDIRECTORY + ".")
    Path stateDir;

    @Option(names = "--peer", paramLabel = "HOST:PORT", split = ",",
            description = "A peer daemon; repeatable or comma-separated.")
    List<String> peers;

    @Option(names = "--key-file", paramLabel = "FILE",
            description = "File holding the secret shared by the peers (mode 600, at least 16 bytes; required).")
    Path keyFile;

    @Option(names = "--seal", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            description = "Also encrypt payloads (AES-256-GCM). Default: off (authenticated only).")
    String seal;

    @Option(names = "--rate", paramLabel = "RATE",
            description = "Pacing rate per peer, bit/s incl. IP/UDP headers (e.g. 50m; 0: unpaced). Default: 100m.")
    String rate;

    @Option(names = "--burst", paramLabel = "BYTES", description = "Pacer burst per peer. Default: 16k.")
    String burst;

    @Option(names = "--queue", paramLabel = "BYTES",
            description = "Pacing queue per peer; overflow is dropped and counted. Default: 512k.")
    String queue;

    @Option(names = "--hop-by-hop", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            description = "Answer NACKs from the repair cache (hop-by-hop repair). Default: true.")
    String hopByHop;

    @Option(names = "--repair-cache", paramLabel = "BYTES", description = "Repair cache size. Default: 32m.")
    String repairCache;

    @Option(names = "--repair-holdoff", paramLabel = "DURATION",
            description = "Do not serve a symbol to the same side twice within this. Default: 15ms.")
    String repairHoldoff;

    @Option(names = "--transit", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            description = "Relay between peers (rings, chains, stars; not needed in a full mesh). Default: false.")
    String transit;

    @Option(names = "--accept-unlisted", arity = "0..1", fallbackValue = "true", paramLabel = "BOOL",
            description = "Accept authentic traffic from daemons not listed as peers (NATed spokes). Default: false.")
    String acceptUnlisted;

    @Option(names = "--keepalive", paramLabel = "DURATION",
            description = "Hello to each answering peer this often (keeps NAT mappings open). Default: 10s.")
    String keepalive;

    @Option(names = "--peer-silence", paramLabel = "DURATION",
            description = "A peer not heard for this long gets no more data until it answers again. Default: 30s.")
    String peerSilence;

    @Option(names = "--status-interval", paramLabel = "DURATION",
            description = "Period of the one-line status log (0: off). Default: 10s.")
    String statusInterval;

    @Option(names = "--ttl", paramLabel = "N", description = "TTL of re-emitted multicast. Default: 1.")
    String ttl;

    @Option(names = "--admin", paramLabel = "URL",
            description = "FJM2-Admin's base URL: register and fetch peers. Without a scheme: https with --admin-ca, "
                    + "else http.")
    String admin;

    @Option(names = "--admin-ca", paramLabel = "FILE",
            description = "CA certificate(s) (PEM or DER) that signed FJM2-Admin's HTTPS certificate; the only ones "
                    + "trusted. Implies https.")
    Path adminCa;

    @Option(names = "--token-file", paramLabel = "FILE", description = "File holding the FJM2-Admin token.")
    Path tokenFile;

    @Option(names = "--advertise", paramLabel = "HOST",
            description = "Host or address registered with FJM2-Admin, where peers reach this daemon.")
    String advertise;

    @Option(names = "--transport", paramLabel = "KIND", description = "auto, epoll or nio. Default: auto.")
    String transport;

    @Option(names = "--duration", paramLabel = "DURATION", description = "Stop after this long (0: run until stopped).")
    String duration;

    PrintStream stdout = System.out;

    private Properties file = new Properties();

    @Override
    public Integer call() throws Exception {
        TunnelConfig config = config();
        java.time.Duration runFor = value("duration", duration) == null ? java.time.Duration.ZERO
                : Quantities.duration("--duration", value("duration", duration));
        CountDownLatch stop = new CountDownLatch(1);
        TunnelDaemon daemon = TunnelDaemon.start(config);
        Thread hook = new Thread(() -> {
            LOG.info("stopping (signal)");
            daemon.close();
            stop.countDown();
        }, "fjm2d-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        stdout.printf("fjm2d %s ready: group %s:%d, UDP port %d, %d static peer(s)%n", config.nodeId(),
                config.group().getHostAddress(), config.port(), daemon.listenPort(), config.peers().size());
        stdout.flush();
        if (runFor.isZero()) {
            stop.await();
        } else if (!stop.await(runFor.toMillis(), TimeUnit.MILLISECONDS)) {
            Runtime.getRuntime().removeShutdownHook(hook);
            daemon.close();
        }
        return 0;
    }

    /** Builds the daemon's configuration from the options and the config file (options win). */
    TunnelConfig config() throws IOException {
        if (configFile != null) {
            file = load(configFile);
        }
        String groupText = value("group", group);
        if (groupText == null) {
            throw new IllegalArgumentException("--group: required (GROUP:PORT), on the command line or in --config");
        }
        InetSocketAddress g = hostPort("--group", groupText, -1);
        TunnelConfig.Builder b = TunnelConfig.builder(g.getHostString(), g.getPort());
        apply("interface", interfaceName, b::interfaceName);
        apply("listen", listen, v -> b.listen(v.contains(":") ? hostPort("--listen", v, -1)
                : new InetSocketAddress(integer("--listen", v, 0, 65535))));
        Path state = stateDir != null ? stateDir : pathValue("state-dir");
        if (state != null) {
            b.stateDir(state);
        }
        apply("node-id", nodeId, b::nodeId);
        List<String> peerList = peers != null ? peers : splitList(file.getProperty("peer"));
        for (String p : peerList) {
            b.peer(hostPort("--peer", p, TunnelConfig.DEFAULT_LISTEN_PORT));
        }
        Path key = keyFile != null ? keyFile : pathValue("key-file");
        if (key == null) {
            throw new IllegalArgumentException("--key-file: required: FJM2D traffic is always authenticated "
                    + "(create one with: openssl rand -hex 32 > tunnel.key; chmod 600 tunnel.key)");
        }
        b.key(TunnelKey.load(key));
        apply("seal", seal, v -> b.seal(bool("--seal", v)));
        apply("rate", rate, v -> b.peerRate(Quantities.rate("--rate", v)));
        apply("burst", burst, v -> b.peerBurstBytes((int) Math.min(Integer.MAX_VALUE, Quantities.bytes("--burst", v))));
        apply("queue", queue, v -> b.peerQueueBytes(Quantities.bytes("--queue", v)));
        apply("hop-by-hop", hopByHop, v -> b.hopByHop(bool("--hop-by-hop", v)));
        apply("repair-cache", repairCache, v -> b.repairCacheBytes(Quantities.bytes("--repair-cache", v)));
        apply("repair-holdoff", repairHoldoff, v -> b.repairHoldoff(Quantities.duration("--repair-holdoff", v)));
        apply("transit", transit, v -> b.transit(bool("--transit", v)));
        apply("accept-unlisted", acceptUnlisted, v -> b.acceptUnlisted(bool("--accept-unlisted", v)));
        apply("keepalive", keepalive, v -> b.keepalive(Quantities.duration("--keepalive", v)));
        apply("peer-silence", peerSilence, v -> b.peerSilence(Quantities.duration("--peer-silence", v)));
        apply("status-interval", statusInterval, v -> b.statusInterval(Quantities.duration("--status-interval", v)));
        apply("ttl", ttl, v -> b.ttl(integer("--ttl", v, 0, 255)));
        apply("transport", transport, b::transport);
        String adminUrl = value("admin", admin);
        if (adminUrl != null) {
            Path ca = adminCa != null ? adminCa : pathValue("admin-ca");
            b.admin(AdminClient.adminUri(adminUrl, ca != null));
            if (ca != null) {
                b.adminOptions(AdminClient.Options.defaults().withTrustedCa(ca));
            }
            Path token = tokenFile != null ? tokenFile : pathValue("token-file");
            if (token == null) {
                throw new IllegalArgumentException("--token-file: required with --admin");
            }
            b.adminToken(AdminTokenFile.read(token));
            b.advertisedHost(value("advertise", advertise));
        }
        return b.build();
    }

    /** Hands the setting's value (command line first, then the config file) to {@code setter}, if there is one. */
    private void apply(String key, String fromCommandLine, java.util.function.Consumer<String> setter) {
        String v = value(key, fromCommandLine);
        if (v != null) {
            setter.accept(v);
        }
    }

    private String value(String key, String fromCommandLine) {
        return fromCommandLine != null ? fromCommandLine : file.getProperty(key);
    }

    private Path pathValue(String key) {
        String v = file.getProperty(key);
        return v == null ? null : Path.of(v.trim());
    }

    private static List<String> splitList(String v) {
        if (v == null || v.isBlank()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String s : v.split(",")) {
            if (!s.isBlank()) {
                out.add(s.trim());
            }
        }
        return out;
    }

    static Properties load(Path path) throws IOException {
        Properties p = new Properties();
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("--config: no such file: " + path);
        }
        try (InputStream in = Files.newInputStream(path)) {
            p.load(in);
        }
        for (String k : p.stringPropertyNames()) {
            if (!KEYS.contains(k)) {
                throw new IllegalArgumentException("--config: unknown setting '" + k + "' in " + path + " (known: "
                        + String.join(", ", new java.util.TreeSet<>(KEYS)) + ")");
            }
        }
        return p;
    }

    /** HOST:PORT (the port may be left out when {@code defaultPort} >= 0); the host stays unresolved. */
    static InetSocketAddress hostPort(String name, String text, int defaultPort) {
        String t = text.trim();
        int colon = t.lastIndexOf(':');
        if (colon < 0) {
            if (defaultPort < 0 || t.isEmpty()) {
                throw new IllegalArgumentException(name + ": expected HOST:PORT, got '" + text + "'");
            }
            return InetSocketAddress.createUnresolved(t, defaultPort);
        }
        String host = t.substring(0, colon);
        if (host.isEmpty()) {
            throw new IllegalArgumentException(name + ": expected HOST:PORT, got '" + text + "'");
        }
        try {
            int port = Integer.parseInt(t.substring(colon + 1));
            if (port < 0 || port > 65535) {
                throw new NumberFormatException();
            }
            return InetSocketAddress.createUnresolved(host, port);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": bad port in '" + text + "'");
        }
    }

    private static boolean bool(String name, String text) {
        return switch (text.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new IllegalArgumentException(name + ": expected true or false, got '" + text + "'");
        };
    }

    private static int integer(String name, String text, int min, int max) {
        try {
            int v = Integer.parseInt(text.trim());
            if (v < min || v > max) {
                throw new IllegalArgumentException(name + ": must be " + min + ".." + max + ", got " + v);
            }
            return v;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + ": not a number: '" + text + "'");
        }
    }

    /** Runs the command on its own (tests and processes started in network namespaces). */
    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The command with one-line errors: exit 2 for bad input, 1 for failures (the launcher has its own handler). */
    public static CommandLine newCommandLine() {
        CommandLine cli = new CommandLine(new TunnelCommand());
        cli.setExecutionExceptionHandler((ex, cmd, parse) -> {
            cmd.getErr().println("fjm2 tunnel: " + (ex.getMessage() == null ? ex.toString() : ex.getMessage()));
            return ex instanceof IllegalArgumentException ? 2 : 1;
        });
        return cli;
    }
}
