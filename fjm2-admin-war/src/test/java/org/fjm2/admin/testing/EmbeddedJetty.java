package org.fjm2.admin.testing;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/** Runs the FJM2-Admin WAR in a real embedded Jetty 12 (ee10) on 127.0.0.1, ephemeral port. */
public final class EmbeddedJetty {

    private EmbeddedJetty() {
    }

    /** Deploys the WAR at the root context of a new embedded Jetty 12 (ee10) whose files live under {@code workDir}. */
    public static AdminServer deploy(Path workDir, Map<String, String> contextParameters) {
        return deploy(workDir, contextParameters, null);
    }

    /**
     * As {@link #deploy(Path, Map)}, serving HTTPS only from the PKCS#12 keystore of {@code tls} (Jetty 12.0 reads
     * no PEM: the README has operators convert with {@code openssl pkcs12 -export}).
     */
    public static AdminServer deployTls(Path workDir, Map<String, String> contextParameters, TestCertificates tls) {
        return deploy(workDir, contextParameters, tls);
    }

    private static AdminServer deploy(Path workDir, Map<String, String> contextParameters, TestCertificates tls) {
        Server server = new Server();
        try {
            Files.createDirectories(workDir);
            ServerConnector connector;
            if (tls == null) {
                connector = new ServerConnector(server);
            } else {
                SslContextFactory.Server ssl = new SslContextFactory.Server();
                ssl.setKeyStorePath(tls.pkcs12().toString());
                ssl.setKeyStoreType("PKCS12");
                ssl.setKeyStorePassword(TestCertificates.PASSWORD);
                HttpConfiguration https = new HttpConfiguration();
                https.addCustomizer(new SecureRequestCustomizer());
                connector = new ServerConnector(server, ssl, new HttpConnectionFactory(https));
            }
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
            URI base = URI.create((tls == null ? "http" : "https") + "://127.0.0.1:" + connector.getLocalPort() + "/");
            return new AdminContainers.Running("Jetty", base, server::stop);
        } catch (Exception e) {
            AdminContainers.stopQuietly(server::stop);
            throw e instanceof RuntimeException r ? r : new IllegalStateException("Jetty did not start FJM2-Admin", e);
        }
    }
}
