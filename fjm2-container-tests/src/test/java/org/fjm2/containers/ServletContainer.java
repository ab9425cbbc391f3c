package org.fjm2.containers;

import static org.fjm2.containers.Fjm2Images.CONTEXT_PATH;
import static org.fjm2.containers.Fjm2Images.HTTP_PORT;
import static org.fjm2.containers.Fjm2Images.TOKEN;
import static org.fjm2.containers.Fjm2Images.text;

import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.MountableFile;

import java.time.Duration;

/**
 * The official servlet container images with the built WAR deployed at {@value Fjm2Images#CONTEXT_PATH}, the
 * admin's token and data directory given as context parameters (as the fjm2-admin-war README's Deployment says).
 */
enum ServletContainer {

    TOMCAT {
        @Override
        GenericContainer<?> admin(Network network) {
            String context = """
                    <Context>
                      <Parameter name="fjm2.admin.tokens" value="%s" override="false"/>
                      <Parameter name="fjm2.admin.dataDir" value="%s" override="false"/>
                    </Context>
                    """.formatted(TOKEN, DATA_DIR);
            return base(new GenericContainer<>(Fjm2Images.TOMCAT), network)
                    .withCopyToContainer(MountableFile.forHostPath(Fjm2Images.adminWar()),
                            "/usr/local/tomcat/webapps/fjm2-admin.war")
                    .withCopyToContainer(text(context), "/usr/local/tomcat/conf/Catalina/localhost/fjm2-admin.xml");
        }
    },

    JETTY {
        @Override
        GenericContainer<?> admin(Network network) {
            // The WAR outside webapps/: the context XML deploys it, once, with the parameters.
            String context = """
                    <?xml version="1.0"?>
                    <!DOCTYPE Configure PUBLIC "-//Jetty//Configure//EN" "https://jetty.org/configure_10_0.dtd">
                    <Configure class="org.eclipse.jetty.ee10.webapp.WebAppContext">
                      <Set name="contextPath">%s</Set>
                      <Set name="war">/var/lib/jetty/fjm2/fjm2-admin.war</Set>
                      <Call name="setInitParameter"><Arg>fjm2.admin.tokens</Arg><Arg>%s</Arg></Call>
                      <Call name="setInitParameter"><Arg>fjm2.admin.dataDir</Arg><Arg>%s</Arg></Call>
                    </Configure>
                    """.formatted(CONTEXT_PATH, TOKEN, DATA_DIR);
            return base(new GenericContainer<>(Fjm2Images.JETTY), network)
                    .withCopyToContainer(MountableFile.forHostPath(Fjm2Images.adminWar(), 0644),
                            "/var/lib/jetty/fjm2/fjm2-admin.war")
                    .withCopyToContainer(text(context), "/var/lib/jetty/webapps/fjm2-admin.xml")
                    // Jetty 12 runs a WAR through an environment's deployer: Jakarta EE 10 for Servlet 6.0.
                    .withCommand("--module=ee10-deploy");
        }
    };

    /** The network alias the daemons reach the admin at. */
    static final String ALIAS = "admin";
    /** Writable by the images' users (root in Tomcat's, jetty in Jetty's). */
    static final String DATA_DIR = "/tmp/fjm2-admin";
    static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(3);

    abstract GenericContainer<?> admin(Network network);

    /** The admin's URL inside the network, for the daemons. */
    static String internalUrl() {
        return "http://" + ALIAS + ":" + HTTP_PORT + CONTEXT_PATH;
    }

    /** The admin's URL from the host running the tests. */
    static String externalUrl(GenericContainer<?> admin) {
        return "http://" + admin.getHost() + ":" + admin.getMappedPort(HTTP_PORT) + CONTEXT_PATH;
    }

    private static GenericContainer<?> base(GenericContainer<?> c, Network network) {
        return c.withNetwork(network)
                .withNetworkAliases(ALIAS)
                .withExposedPorts(HTTP_PORT)
                .waitingFor(Wait.forHttp(CONTEXT_PATH + "/health").forPort(HTTP_PORT).forStatusCode(200)
                        .withStartupTimeout(STARTUP_TIMEOUT));
    }
}
