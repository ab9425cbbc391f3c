package org.fjm2.cli.admin;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.util.LinkedHashMap;
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
            "Daemons register with 'Authorization: Bearer TOKEN' at http://HOST:PORT/api/nodes; the status page is "
                    + "at http://HOST:PORT/. Stop with Ctrl-C."})
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

    @Option(names = "--war", paramLabel = "FILE",
            description = "The FJM2-Admin WAR (default: the one next to the launcher's jars).")
    Path war;

    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile EmbeddedAdminServer server;

    @Override
    public Integer call() throws Exception {
        server = startServer();
        String shown = bind.equals("0.0.0.0") ? "localhost" : bind;
        System.out.printf("FJM2-Admin is running: http://%s:%d/ (data in %s). Ctrl-C stops it.%n", shown,
                server.port(), dataDir.toAbsolutePath().normalize());
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
        Path warFile = war != null ? war : findWar();
        if (!Files.isRegularFile(warFile)) {
            throw new IllegalArgumentException("no FJM2-Admin WAR at " + warFile);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("fjm2.admin.tokenFile", tokenFile.toAbsolutePath().normalize().toString());
        parameters.put("fjm2.admin.dataDir", dataDir.toAbsolutePath().normalize().toString());
        parameters.put("fjm2.admin.expiry", expiry);
        parameters.put("fjm2.admin.advertiseInterval", advertiseInterval);
        LOG.info("starting FJM2-Admin from {} on {}:{}", warFile, bind, port);
        return EmbeddedAdminServer.start(warFile, bind, port, parameters);
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
        Set<PosixFilePermission> perms;
        try {
            perms = Files.getPosixFilePermissions(file);
        } catch (UnsupportedOperationException e) {
            return;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (perms.contains(PosixFilePermission.OTHERS_READ) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            throw new IllegalArgumentException("token file " + file + " is readable or writable by other users; "
                    + "run 'chmod 600 " + file + "'");
        }
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
