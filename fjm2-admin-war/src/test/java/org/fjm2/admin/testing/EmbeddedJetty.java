package org.fjm2.admin.testing;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** Runs the FJM2-Admin WAR in a real embedded Jetty 12 (ee10) on 127.0.0.1, ephemeral port. */
public final class EmbeddedJetty {

    private EmbeddedJetty() {
    }

    /** Deploys the WAR at the root context of a new embedded Jetty 12 (ee10) whose files live under {@code workDir}. */
    public static AdminServer deploy(Path workDir, Map<String, String> contextParameters) {
        Server server = new Server();
        try {
            Files.createDirectories(workDir);
            ServerConnector connector = new ServerConnector(server);
            connector.setHost("127.0.0.1");
            connector.setPort(0);
            server.addConnector(connector);
            WebAppContext webapp = new WebAppContext();
            webapp.setContextPath("/");
            webapp.setWar(AdminContainers.war().toString());
            webapp.setTempDirectory(workDir.toFile());
            webapp.setThrowUnavailableOnStartupException(true);
            contextParameters.forEach(webapp::setInitParameter);
            server.setHandler(webapp);
            server.start();
            URI base = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/");
            return new AdminContainers.Running("Jetty", base, server::stop);
        } catch (Exception e) {
            AdminContainers.stopQuietly(server::stop);
            throw e instanceof RuntimeException r ? r : new IllegalStateException("Jetty did not start FJM2-Admin", e);
        }
    }
}
