package org.fjm2.containers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.containers.Fjm2Images.TOKEN;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.junit.jupiter.Testcontainers;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The built fjm2-admin.war in the official Tomcat and Jetty images: it starts, answers /health without a token,
 * and an FJM2D daemon in another container on the same Docker network registers with it by name (the admin's API
 * then lists it). Skipped, with the reason, where no Docker engine runs.
 */
@ExtendWith(DockerNotice.class)
@Testcontainers(disabledWithoutDocker = true)
class AdminWarContainerTest {

    private static final String NODE_ID = "lan-a";
    private static final String DAEMON_ALIAS = "daemon-a";
    private static final Duration REGISTRATION_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration POLL = Duration.ofMillis(500);

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @ParameterizedTest
    @EnumSource(ServletContainer.class)
    void aDaemonRegistersWithTheWar(ServletContainer server) throws Exception {
        try (Network network = Network.newNetwork();
             GenericContainer<?> admin = server.admin(network);
             GenericContainer<?> daemon = Fjm2Images.fjm2(network, DAEMON_ALIAS, "tunnel",
                     "--group", "239.255.0.1:6003", "--interface", "eth0", "--listen", "6004",
                     "--node-id", NODE_ID, "--key-file", Fjm2Images.KEY_FILE,
                     "--admin", ServletContainer.internalUrl(), "--token-file", Fjm2Images.TOKEN_FILE,
                     "--advertise", DAEMON_ALIAS)) {
            admin.start();
            String url = ServletContainer.externalUrl(admin);
            HttpResponse<String> health = get(url + "/health", false);
            assertThat(health.statusCode()).as("/health without a token").isEqualTo(200);
            assertThat(health.body()).contains("\"up\"");

            daemon.start();
            long deadline = System.nanoTime() + REGISTRATION_TIMEOUT.toNanos();
            String nodes = "";
            while (System.nanoTime() - deadline < 0 && !nodes.contains("\"" + NODE_ID + "\"")) {
                assertThat(daemon.isRunning()).as("the daemon runs; its log:%n%s", daemon.getLogs()).isTrue();
                HttpResponse<String> list = get(url + "/api/nodes", true);
                assertThat(list.statusCode()).as("GET /api/nodes: %s", list.body()).isEqualTo(200);
                nodes = list.body();
                Thread.sleep(POLL.toMillis());
            }
            assertThat(nodes).as("the admin lists the daemon within %s; its log:%n%s", REGISTRATION_TIMEOUT,
                    daemon.getLogs()).contains("\"" + NODE_ID + "\"");
        }
    }

    private HttpResponse<String> get(String url, boolean withToken) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
        if (withToken) {
            request.header("Authorization", "Bearer " + TOKEN);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
