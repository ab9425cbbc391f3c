package org.fjm2.admin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Deploys the built FJM2-Admin WAR (system property {@link #WAR_PROPERTY}) into a real embedded Tomcat or Jetty
 * on 127.0.0.1 with an ephemeral port. Context parameters configure the application as a deployer would.
 */
public final class AdminContainers {

    /** System property naming the WAR file; set by the build (failsafe here, surefire in fjm2-tunnel). */
    public static final String WAR_PROPERTY = "fjm2.admin.war";

    private AdminContainers() {
    }

    /** The built WAR. */
    public static Path war() {
        String path = System.getProperty(WAR_PROPERTY);
        if (path == null || !Files.isRegularFile(Path.of(path))) {
            throw new IllegalStateException("system property " + WAR_PROPERTY + " must name the built WAR (got "
                    + path + "); run the tests through Maven after 'package'");
        }
        return Path.of(path);
    }

    /** Writes {@code token} to a new file readable by its owner only. */
    public static Path tokenFile(Path dir, String token) {
        try {
            Path file = dir.resolve("admin.token");
            Files.writeString(file, "# FJM2-Admin test token\n" + token + "\n");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deploys the WAR at the root context of a new embedded Tomcat whose files live under {@code workDir}. */
    public static AdminServer tomcat(Path workDir, Map<String, String> contextParameters) {
        Tomcat tomcat = new Tomcat();
        try {
            Files.createDirectories(workDir.resolve("webapps"));
            tomcat.setBaseDir(workDir.toString());
            tomcat.setPort(0);
            tomcat.getConnector().setProperty("address", "127.0.0.1");
            tomcat.setAddDefaultWebXmlToWebapp(false);
            Context context = tomcat.addWebapp("", war().toString());
            contextParameters.forEach(context::addParameter);
            tomcat.start();
            if (context.getState() != LifecycleState.STARTED) {
                throw new IllegalStateException("Tomcat did not start FJM2-Admin (state " + context.getState()
                        + "); see the log");
            }
            URI base = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/");
            return new Running("Tomcat", base, () -> {
                tomcat.stop();
                tomcat.destroy();
            });
        } catch (IOException | LifecycleException | RuntimeException e) {
            stopQuietly(() -> {
                tomcat.stop();
                tomcat.destroy();
            });
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
    }

    /** Deploys the WAR at the root context of a new embedded Jetty 12 (ee10) whose files live under {@code workDir}. */
    public static AdminServer jetty(Path workDir, Map<String, String> contextParameters) {
        Server server = new Server();
        try {
            Files.createDirectories(workDir);
            ServerConnector connector = new ServerConnector(server);
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            server.addConnector(connector);
            WebAppContext webapp = new WebAppContext();
            webapp.setContextPath("/");
            webapp.setWar(war().toString());
            webapp.setTempDirectory(workDir.toFile());
            webapp.setThrowUnavailableOnStartupException(true);
            contextParameters.forEach(webapp::setInitParameter);
            server.setHandler(webapp);
            server.start();
            URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
            return new Running("Jetty", base, server::stop);
        } catch (Exception e) {
            stopQuietly(server::stop);
            throw e instanceof RuntimeException r ? r : new IllegalStateException("Jetty did not start FJM2-Admin", e);
        }
    }

    private interface Stopper {
        void stop() throws Exception;
    }

    private static void stopQuietly(Stopper stopper) {
        try {
            stopper.stop();
        } catch (Exception ignored) {
            // already failing; the original exception is the one to report
        }
    }

    private record Running(String container, URI baseUri, Stopper stopper) implements AdminServer {
        @Override
        public void close() {
            try {
                stopper.stop();
            } catch (Exception e) {
                throw new IllegalStateException(container + " did not stop cleanly", e);
            }
        }
    }
}
