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
import org.apache.catalina.startup.Tomcat;

/** Runs the FJM2-Admin WAR in a real embedded Tomcat 10.1 on 127.0.0.1, ephemeral port. */
public final class EmbeddedTomcat {

    private EmbeddedTomcat() {
    }

    /** Deploys the WAR at the root context of a new embedded Tomcat whose files live under {@code workDir}. */
    public static AdminServer deploy(Path workDir, Map<String, String> contextParameters) {
        return deploy(workDir, contextParameters, null);
    }

    /**
     * As {@link #deploy(Path, Map)}, with JNDI naming enabled and {@code beforeStart} given the context to add
     * resources to (e.g. a DataSource) before it starts.
     */
    public static AdminServer deployWithNaming(Path workDir, Map<String, String> contextParameters,
                                               Consumer<Context> beforeStart) {
        return deploy(workDir, contextParameters, beforeStart);
    }

    private static AdminServer deploy(Path workDir, Map<String, String> contextParameters,
                                      Consumer<Context> beforeStart) {
        Tomcat tomcat = new Tomcat();
        try {
            Files.createDirectories(workDir.resolve("webapps"));
            tomcat.setBaseDir(workDir.toString());
            tomcat.setPort(0);
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
            URI base = URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/");
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
