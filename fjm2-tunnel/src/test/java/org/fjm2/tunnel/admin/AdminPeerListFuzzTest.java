package org.fjm2.tunnel.admin;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.sun.net.httpserver.HttpServer;
import org.fjm2.norm.fuzz.InputBounds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Fuzz target: the daemon's parsing of FJM2-Admin's answers (the peer list of {@code GET api/nodes} and the
 * registration answer of {@code POST api/nodes}), whose bodies come from a server the daemon only partly trusts.
 * A stand-in admin on loopback answers every request with the fuzz input as its body. Only
 * {@link AdminApiException}, the client's documented failure, may come out; a list it accepts holds only
 * well-formed peers. Opens a loopback socket: run it in a network namespace (CI does).
 */
class AdminPeerListFuzzTest {

    private static HttpServer server;
    private static volatile byte[] answer = new byte[0];
    private static AdminApi api;

    @BeforeAll
    static void startStandInAdmin() throws IOException {
        // The JDK's server writes headers and body separately: without TCP_NODELAY each answer waits for the
        // client's delayed ACK (tens of milliseconds), which would throttle fuzzing, not the parser.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.createContext("/api/nodes", exchange -> {
            exchange.getRequestBody().readAllBytes();
            byte[] body = answer;
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.getResponseHeaders().add("ETag", "\"1\"");
            int status = "POST".equals(exchange.getRequestMethod()) ? 201 : 200;
            exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        api = new AdminApi(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/"), "fuzz-token",
                Duration.ofSeconds(10));
    }

    @AfterAll
    static void stopStandInAdmin() {
        server.stop(0);
    }

    @FuzzTest
    void adminAnswers(byte[] input) throws Exception {
        answer = input;
        InputBounds.runWithinBounds(input, () -> {
            try {
                Optional<AdminApi.PeerList> list = api.list(null);
                list.ifPresent(AdminPeerListFuzzTest::checkPeers);
            } catch (AdminApiException expected) {
                // a malformed answer: the client keeps its last list
            }
            try {
                api.register("fuzz-node", "127.0.0.1", 9);
            } catch (AdminApiException expected) {
                // likewise
            }
        });
    }

    private static void checkPeers(AdminApi.PeerList list) {
        for (PeerAddress peer : list.peers()) {
            if (peer.id() == null || peer.host() == null || peer.port() < 1 || peer.port() > 65535) {
                throw new AssertionError("the client accepted a malformed peer " + peer);
            }
            peer.socketAddress();
        }
    }
}
