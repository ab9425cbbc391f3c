package org.fjm2.cli.admin;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * The FJM2-Admin WAR in an embedded Tomcat: the same application a servlet container would run, deployed at the
 * root context, configured through context parameters. Tomcat's own files go to a temporary directory removed
 * on {@link #close()}; the registry's data stays in the data directory the parameters name.
 */
public final class EmbeddedAdminServer implements AutoCloseable {

    /** Tomcat's log level (through SLF4J): its start-up chatter is not the user's business. */
    static final Level TOMCAT_LOG_LEVEL = Level.WARNING;

    // Held so that the level set on it is not lost to garbage collection of the logger.
    private static final java.util.logging.Logger TOMCAT_LOGGER = java.util.logging.Logger.getLogger("org.apache");

    /**
     * HTTPS instead of HTTP: a PEM certificate chain (server first) and its PEM private key (PKCS#8, or PKCS#1 RSA,
     * unencrypted), read by Tomcat's own PEM support.
     *
     * @param certificateChain the server's certificate, then any intermediate
     * @param privateKey its private key
     */
    public record Tls(Path certificateChain, Path privateKey) {
    }

    private final Tomcat tomcat;
    private final Path baseDir;
    private final int port;
    private final boolean https;

    private EmbeddedAdminServer(Tomcat tomcat, Path baseDir, int port, boolean https) {
        this.tomcat = tomcat;
        this.baseDir = baseDir;
        this.port = port;
        this.https = https;
    }

    /**
     * Starts Tomcat on {@code bind:port} (port 0: any free port) with {@code war} at {@code /}, over HTTPS when
     * {@code tls} is given, else plain HTTP.
     *
     * @throws IllegalStateException when Tomcat or the application does not start (the reason is in the log)
     */
    public static EmbeddedAdminServer start(Path war, String bind, int port, Map<String, String> contextParameters,
                                            Tls tls) throws IOException {
        routeJulToSlf4j();
        Path baseDir = Files.createTempDirectory("fjm2-admin-tomcat");
        Files.createDirectories(baseDir.resolve("webapps"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        if (tls != null) {
            tomcat.setConnector(httpsConnector(tls));
        }
        tomcat.setPort(port);
        tomcat.getConnector().setPort(port);
        tomcat.getConnector().setProperty("address", bind);
        tomcat.setAddDefaultWebXmlToWebapp(false);
        try {
            Context context = tomcat.addWebapp("", war.toAbsolutePath().toString());
            contextParameters.forEach(context::addParameter);
            tomcat.start();
            if (context.getState() != LifecycleState.STARTED) {
                throw new IllegalStateException("FJM2-Admin did not start; the reason is logged above");
            }
            if (tomcat.getConnector().getLocalPort() < 0) {
                throw new IllegalStateException("Tomcat's connector did not start on " + bind + ":" + port
                        + "; the reason is logged above");
            }
            return new EmbeddedAdminServer(tomcat, baseDir, tomcat.getConnector().getLocalPort(), tls != null);
        } catch (LifecycleException | RuntimeException e) {
            new EmbeddedAdminServer(tomcat, baseDir, -1, false).close();
            if (e instanceof LifecycleException) {
                throw new IllegalStateException("Tomcat did not start: " + e.getMessage(), e);
            }
            throw (RuntimeException) e;
        }
    }

    /** The port Tomcat listens on. */
    public int port() {
        return port;
    }

    /** {@code https} or {@code http}. */
    public String scheme() {
        return https ? "https" : "http";
    }

    private static Connector httpsConnector(Tls tls) {
        Connector connector = new Connector();
        connector.setScheme("https");
        connector.setSecure(true);
        connector.setProperty("SSLEnabled", "true");
        SSLHostConfig host = new SSLHostConfig();
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host,
                SSLHostConfigCertificate.Type.UNDEFINED);
        certificate.setCertificateFile(tls.certificateChain().toAbsolutePath().toString());
        certificate.setCertificateKeyFile(tls.privateKey().toAbsolutePath().toString());
        host.addCertificate(certificate);
        connector.addSslHostConfig(host);
        return connector;
    }

    /** Stops Tomcat (the application closes its database) and removes Tomcat's temporary files. */
    @Override
    public void close() {
        try {
            tomcat.stop();
            tomcat.destroy();
        } catch (LifecycleException e) {
            throw new IllegalStateException("Tomcat did not stop cleanly: " + e.getMessage(), e);
        } finally {
            deleteQuietly(baseDir);
        }
    }

    private static synchronized void routeJulToSlf4j() {
        if (!SLF4JBridgeHandler.isInstalled()) {
            SLF4JBridgeHandler.removeHandlersForRootLogger();
            SLF4JBridgeHandler.install();
        }
        TOMCAT_LOGGER.setLevel(TOMCAT_LOG_LEVEL);
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is harmless
        }
    }
}
