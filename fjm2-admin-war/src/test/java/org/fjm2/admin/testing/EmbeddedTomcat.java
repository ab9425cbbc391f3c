package org.fjm2.admin.testing;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;

/** Runs the FJM2-Admin WAR in a real embedded Tomcat 10.1 on 127.0.0.1, ephemeral port. */
public final class EmbeddedTomcat {

    private EmbeddedTomcat() {
    }

    /** Deploys the WAR at the root context of a new embedded Tomcat whose files live under {@code workDir}. */
    public static AdminServer deploy(Path workDir, Map<String, String> contextParameters) {
        return deploy(workDir, contextParameters, null, null);
    }

    /**
     * As {@link #deploy(Path, Map)}, serving HTTPS only, with the PEM certificate chain and key of {@code tls} set
     * on the connector's {@code SSLHostConfig} as the README tells operators to.
     */
    public static AdminServer deployTls(Path workDir, Map<String, String> contextParameters, TestCertificates tls) {
        return deploy(workDir, contextParameters, null, tls);
    }

    /**
     * As {@link #deploy(Path, Map)}, with JNDI naming enabled and {@code beforeStart} given the context to add
     * resources to (e.g. a DataSource) before it starts.
     */
    public static AdminServer deployWithNaming(Path workDir, Map<String, String> contextParameters,
                                               Consumer<Context> beforeStart) {
        return deploy(workDir, contextParameters, beforeStart, null);
    }

    private static AdminServer deploy(Path workDir, Map<String, String> contextParameters,
                                      Consumer<Context> beforeStart, TestCertificates tls) {
        Tomcat tomcat = new Tomcat();
        try {
            Files.createDirectories(workDir.resolve("webapps"));
            tomcat.setBaseDir(workDir.toString());
            tomcat.setPort(0);
            if (tls != null) {
                Connector https = new Connector();
                https.setPort(0);
                https.setScheme("https");
                https.setSecure(true);
                https.setProperty("SSLEnabled", "true");
                SSLHostConfig host = new SSLHostConfig();
                SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host,
                        SSLHostConfigCertificate.Type.UNDEFINED);
                certificate.setCertificateFile(tls.certificateChain().toString());
                certificate.setCertificateKeyFile(tls.privateKey().toString());
                host.addCertificate(certificate);
                https.addSslHostConfig(host);
                tomcat.setConnector(https);
            }
            tomcat.getConnector().setProperty("address", "127.0.0.1");
            tomcat.setAddDefaultWebXmlToWebapp(false);
            Context context = tomcat.addWebapp("", AdminContainers.war().toString());
            contextParameters.forEach(context::addParameter);
            if (beforeStart != null) {
                tomcat.enableNaming();
                beforeStart.accept(context);
            }
            tomcat.start();
            if (context.getState() != LifecycleState.STARTED) {
                throw new IllegalStateException("Tomcat did not start FJM2-Admin (state " + context.getState()
                        + "); see the log");
            }
            URI base = URI.create((tls == null ? "http" : "https") + "://127.0.0.1:"
                    + tomcat.getConnector().getLocalPort() + "/");
            return new AdminContainers.Running("Tomcat", base, () -> {
                tomcat.stop();
                tomcat.destroy();
            });
        } catch (IOException | LifecycleException | RuntimeException e) {
            AdminContainers.stopQuietly(() -> {
                tomcat.stop();
                tomcat.destroy();
            });
            throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
    }
}
