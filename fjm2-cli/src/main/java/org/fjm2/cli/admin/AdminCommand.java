package org.fjm2.cli.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fjm2 admin}: runs FJM2-Admin, the registry of FJM2D peers, in an embedded Tomcat on one machine, until
 * interrupted. The same WAR deploys to any Tomcat 10.1+ or Jetty 12 (ee10) for production.
 */
@Command(name = "admin",
        mixinStandardHelpOptions = true,
        description = {"Run FJM2-Admin (the registry of FJM2D peers) in an embedded servlet container.",
            "Daemons register with 'Authorization: Bearer TOKEN' at http(s)://HOST:PORT/api/nodes; the status page "
                    + "is at /, the health check at /health. Serve HTTPS with --tls-cert and --tls-key whenever "
                    + "daemons reach the admin across a network: the token travels in every request. "
                    + "Stop with Ctrl-C."})
public final class AdminCommand implements Callable<Integer> {

    /** System property naming the WAR, when it is not next to the launcher's jars. */
    public static final String WAR_PROPERTY = "fjm2.admin.war";

    private static final Logger LOG = LoggerFactory.getLogger(AdminCommand.class);

    @Option(names = "--port", defaultValue = "8080", paramLabel = "P",
            description = "HTTP port; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "0.0.0.0", paramLabel = "ADDRESS",
            description = "Address to listen on (default: ${DEFAULT-VALUE}; 127.0.0.1 for this machine only).")
    String bind;

    @Option(names = "--token-file", defaultValue = "${sys:user.home}/.fjm2/admin.token", paramLabel = "F",
            description = "Bearer tokens, one a line; must not be readable by other users (default: ${DEFAULT-VALUE}).")
    Path tokenFile;

    @Option(names = "--data", defaultValue = "${sys:user.home}/.fjm2/admin", paramLabel = "DIR",
            description = "Directory of the registry's database (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--expiry", defaultValue = "90s", paramLabel = "DURATION",
            description = "Drop nodes that have not refreshed for this long, e.g. 90s, 5m (default: ${DEFAULT-VALUE}).")
    String expiry;

    @Option(names = "--advertise-interval", defaultValue = "5s", paramLabel = "DURATION",
            description = "Period of the UDP advertisement to every node (default: ${DEFAULT-VALUE}).")
    String advertiseInterval;

    @Option(names = "--tls-cert", paramLabel = "CERT.pem",
            description = "Serve HTTPS with this PEM certificate chain (server certificate first); needs --tls-key.")
    Path tlsCertificate;

    @Option(names = "--tls-key", paramLabel = "KEY.pem",
            description = "The PEM private key of --tls-cert (unencrypted PKCS#8 or RSA); must not be readable by "
                    + "other users.")
    Path tlsKey;

    @Option(names = "--status-page", defaultValue = "token", paramLabel = "public|token|off",
            description = "Who sees the status page at /, which lists every node's address: token (a configured "
                    + "token, as bearer header or as the password the browser asks for), public, or off "
                    + "(default: ${DEFAULT-VALUE}).")
    String statusPage;

    @Option(names = "--allow-loopback",
            description = "Accept nodes at loopback addresses (daemons on this machine only, e.g. a lab).")
    boolean allowLoopback;

    @Option(names = "--war", paramLabel = "FILE",
            description = "The FJM2-Admin WAR (default: the one next to the launcher's jars).")
    Path war;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile EmbeddedAdminServer server;

    @Override
    public Integer call() throws Exception {
        server = startServer();
        String shown = bind.equals("0.0.0.0") ? "localhost" : bind;
        System.out.printf("FJM2-Admin is running: %s://%s:%d/ (data in %s). Ctrl-C stops it.%n", server.scheme(),
                shown, server.port(), dataDir.toAbsolutePath().normalize());
        System.out.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "fjm2-admin-shutdown"));
        stopped.await();
        return 0;
    }

    /**
     * Validates the options and starts the server; the caller owns it.
     *
     * @throws IllegalArgumentException with a one-line reason for bad options (a world-readable token file, a port
     *     out of range, no WAR)
     */
    public EmbeddedAdminServer startServer() throws IOException {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be 0..65535, not " + port);
        }
        checkTokenFile(tokenFile);
        EmbeddedAdminServer.Tls tls = tls();
        if (!List.of("public", "token", "off").contains(statusPage)) {
            throw new IllegalArgumentException("--status-page must be public, token or off, not '" + statusPage + "'");
        }
        Path warFile = war != null ? war : findWar();
        if (!Files.isRegularFile(warFile)) {
            throw new IllegalArgumentException("no FJM2-Admin WAR at " + warFile);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("fjm2.admin.tokenFile", tokenFile.toAbsolutePath().normalize().toString());
        parameters.put("fjm2.admin.dataDir", dataDir.toAbsolutePath().normalize().toString());
        parameters.put("fjm2.admin.expiry", expiry);
        parameters.put("fjm2.admin.advertiseInterval", advertiseInterval);
        parameters.put("fjm2.admin.statusPage", statusPage);
        parameters.put("fjm2.admin.allowLoopback", Boolean.toString(allowLoopback));
        // This embedded Tomcat has no JNDI naming, hence no container DataSource: do not look one up.
        parameters.put("fjm2.admin.dataSource", "none");
        LOG.info("starting FJM2-Admin from {} on {}:{} ({})", warFile, bind, port, tls == null ? "http" : "https");
        return EmbeddedAdminServer.start(warFile, bind, port, parameters, tls);
    }

    /** The TLS files, checked so that a mistake gets a one-line reason rather than a connector that fails later. */
    private EmbeddedAdminServer.Tls tls() {
        if (tlsCertificate == null && tlsKey == null) {
            return null;
        }
        if (tlsCertificate == null || tlsKey == null) {
            throw new IllegalArgumentException("--tls-cert and --tls-key go together");
        }
        requirePem(tlsCertificate, "--tls-cert", "CERTIFICATE");
        requirePem(tlsKey, "--tls-key", "PRIVATE KEY");
        if (othersMayRead(tlsKey)) {
            throw new IllegalArgumentException("--tls-key " + tlsKey + " is readable or writable by other users; run "
                    + "'chmod 600 " + tlsKey + "'");
        }
        return new EmbeddedAdminServer.Tls(tlsCertificate, tlsKey);
    }

    /** Reads the file as bytes (a DER file or a key store given by mistake is no text) and looks for the PEM label. */
    private static void requirePem(Path file, String option, String label) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IllegalArgumentException(option + ": cannot read " + file + ": " + e.getMessage());
        }
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        if (!text.contains("-----BEGIN ") || !text.contains(label + "-----")) {
            throw new IllegalArgumentException(option + ": " + file + " is not a PEM file with a " + label
                    + " (-----BEGIN ..." + label + "-----)");
        }
    }

    private void stop() {
        EmbeddedAdminServer s = server;
        if (s != null) {
            LOG.info("stopping FJM2-Admin");
            s.close();
        }
        stopped.countDown();
    }

    /** Refuses a missing token file, or one that users other than owner and group may read or write. */
    static void checkTokenFile(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("token file " + file + " does not exist (create it with one token of "
                    + "16+ characters, then 'chmod 600 " + file + "')");
        }
        if (othersMayRead(file)) {
            throw new IllegalArgumentException("token file " + file + " is readable or writable by other users; "
                    + "run 'chmod 600 " + file + "'");
        }
    }

    /** Whether users other than owner and group may read or write {@code file} (false without POSIX permissions). */
    private static boolean othersMayRead(Path file) {
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.OTHERS_WRITE);
    }

    /** The WAR named by {@link #WAR_PROPERTY}, else the {@code fjm2-admin-war-*.war} beside this class's jar. */
    static Path findWar() throws IOException {
        String property = System.getProperty(WAR_PROPERTY);
        if (property != null) {
            return Path.of(property);
        }
        Path home;
        try {
            home = Path.of(AdminCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalArgumentException("cannot tell where the launcher's jars are; give --war");
        }
        Path dir = Files.isDirectory(home) ? home : home.getParent();
        try (DirectoryStream<Path> wars = Files.newDirectoryStream(dir, "fjm2-admin-war*.war")) {
            for (Path w : wars) {
                return w;
            }
        }
        throw new IllegalArgumentException("no fjm2-admin-war*.war in " + dir
                + " (build with './mvnw -DskipTests package', or give --war)");
    }
}
