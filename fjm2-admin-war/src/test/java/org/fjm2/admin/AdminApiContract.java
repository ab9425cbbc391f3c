package org.fjm2.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.fjm2.admin.testing.AdminContainers;
import org.fjm2.admin.testing.AdminHttp;
import org.fjm2.admin.testing.AdminServer;
import org.fjm2.admin.testing.AdvertisementCheck;
import org.fjm2.admin.testing.TestCertificates;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What FJM2-Admin must do in any servlet container: the API, authentication, bad input, expiry, advertisement
 * and re-query, restart persistence. Subclasses name the container.
 */
abstract class AdminApiContract {

    static final String TOKEN = "test-token-0123456789abcdef";
    /** A second valid token: another tenant of the same registry. */
    static final String OTHER_TOKEN = "other-token-0123456789abcdef";
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final List<AdminServer> servers = new ArrayList<>();

    /** Starts the WAR in this class's container with {@code contextParameters}, files under {@code workDir}. */
    abstract AdminServer deploy(Path workDir, Map<String, String> contextParameters);

    /** As {@link #deploy}, serving HTTPS only with {@code tls}, configured as the README says for this container. */
    abstract AdminServer deployTls(Path workDir, Map<String, String> contextParameters, TestCertificates tls);

    @AfterEach
    void stopServers() {
        servers.forEach(AdminServer::close);
    }

    /**
     * Starts the WAR with two tokens ({@link #TOKEN}, {@link #OTHER_TOKEN}) and loopback addresses allowed: the
     * test daemons live on loopback. {@link #startWithDefaults} leaves every other setting at its default.
     */
    AdminServer start(Map<String, String> extra) {
        Map<String, String> params = new HashMap<>();
        params.put(AdminSettings.ALLOW_LOOPBACK, "true");
        params.putAll(extra);
        return startWithDefaults(params);
    }

    AdminServer startWithDefaults(Map<String, String> extra) {
        Map<String, String> params = new HashMap<>();
        params.put(AdminSettings.TOKEN_FILE, AdminContainers.tokenFile(dir, TOKEN, OTHER_TOKEN).toString());
        params.put(AdminSettings.DATA_DIR, dir.resolve("data").toString());
        params.putAll(extra);
        AdminServer server = deploy(dir.resolve("container-" + servers.size()), params);
        servers.add(server);
        return server;
    }

    static JsonNode json(HttpResponse<String> response) throws IOException {
        return JSON.readTree(response.body());
    }

    @Test
    void refusesRequestsWithoutTheRightToken() throws IOException {
        AdminServer server = start(Map.of());
        for (String header : new String[] {null, "Bearer wrong-token-0123456789", "Basic " + TOKEN, "Bearer "}) {
            HttpRequest.Builder request = new AdminHttp(server.baseUri(), null).request("api/nodes").GET();
            if (header != null) {
                request.header("Authorization", header);
            }
            HttpResponse<String> response = new AdminHttp(server.baseUri(), null).send(request.build());
            assertThat(response.statusCode()).as("header %s", header).isEqualTo(401);
            assertThat(response.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("Bearer"));
            assertThat(json(response).get("error").asText()).isEqualTo("unauthorized");
        }
        AdminHttp anonymous = new AdminHttp(server.baseUri(), null);
        assertThat(anonymous.get("api/nodes?access_token=" + TOKEN).statusCode()).isEqualTo(401);
        assertThat(anonymous.register("rogue", "127.0.0.1", 9).statusCode()).isEqualTo(401);
        assertThat(anonymous.delete("api/nodes/rogue").statusCode()).isEqualTo(401);
        HttpResponse<String> list = new AdminHttp(server.baseUri(), TOKEN).get("api/nodes");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(json(list).get("nodes")).isEmpty();
    }

    @Test
    void registersRefreshesListsAndDeletes() throws IOException {
        AdminHttp http = new AdminHttp(start(Map.of()).baseUri(), TOKEN);
        HttpResponse<String> created = http.register("lan-a", "gw-a.example.org", 7001);
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode body = json(created);
        assertThat(body.at("/node/id").asText()).isEqualTo("lan-a");
        assertThat(body.at("/node/host").asText()).isEqualTo("gw-a.example.org");
        assertThat(body.at("/node/port").asInt()).isEqualTo(7001);
        long stamp = body.get("lastModified").asLong();
        assertThat(stamp).isPositive();

        HttpResponse<String> refreshed = http.register("lan-a", "gw-a.example.org", 7001);
        assertThat(refreshed.statusCode()).isEqualTo(200);
        assertThat(json(refreshed).get("lastModified").asLong()).as("a refresh leaves the stamp").isEqualTo(stamp);
        assertThat(json(refreshed).at("/node/lastSeen").asLong()).isGreaterThanOrEqualTo(body.at("/node/lastSeen").asLong());

        HttpResponse<String> moved = http.register("lan-a", "2001:db8::7", 7002);
        long movedStamp = json(moved).get("lastModified").asLong();
        assertThat(movedStamp).as("a new address advances the stamp").isGreaterThan(stamp);
        assertThat(http.register("lan-b", "10.1.2.3", 7001).statusCode()).isEqualTo(201);

        HttpResponse<String> list = http.get("api/nodes");
        assertThat(list.statusCode()).isEqualTo(200);
        JsonNode nodes = json(list).get("nodes");
        assertThat(nodes).hasSize(2);
        assertThat(nodes.get(0).get("id").asText()).isEqualTo("lan-a");
        assertThat(nodes.get(0).get("host").asText()).isEqualTo("2001:db8::7");
        assertThat(nodes.get(0).get("registered").asLong()).isPositive();
        assertThat(nodes.get(0).get("lastSeen").asLong()).isPositive();
        assertThat(nodes.get(1).get("id").asText()).isEqualTo("lan-b");

        HttpResponse<String> deleted = http.delete("api/nodes/lan-a");
        assertThat(deleted.statusCode()).isEqualTo(200);
        assertThat(json(deleted).get("lastModified").asLong()).isGreaterThan(json(list).get("lastModified").asLong());
        assertThat(json(http.get("api/nodes")).get("nodes")).extracting(n -> n.get("id").asText())
                .containsExactly("lan-b");
        assertThat(http.delete("api/nodes/lan-a").statusCode()).isEqualTo(404);
        assertThat(json(http.delete("api/nodes/nobody")).get("error").asText()).isEqualTo("not_found");
    }

    @Test
    void answersNotModifiedWhileTheListIsUnchanged() throws IOException {
        AdminHttp http = new AdminHttp(start(Map.of()).baseUri(), TOKEN);
        http.register("lan-a", "127.0.0.1", 9);
        HttpResponse<String> first = http.get("api/nodes");
        String etag = first.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).isEqualTo("W/\"" + json(first).get("lastModified").asLong() + "\"");

        HttpResponse<String> same = http.send(http.request("api/nodes").header("If-None-Match", etag).GET().build());
        assertThat(same.statusCode()).isEqualTo(304);
        assertThat(same.body()).isEmpty();
        http.register("lan-a", "127.0.0.1", 9);
        assertThat(http.send(http.request("api/nodes").header("If-None-Match", etag).GET().build()).statusCode())
                .as("a refresh is not a change").isEqualTo(304);

        http.register("lan-b", "127.0.0.1", 9);
        HttpResponse<String> changed = http.send(http.request("api/nodes").header("If-None-Match", etag).GET().build());
        assertThat(changed.statusCode()).isEqualTo(200);
        assertThat(changed.headers().firstValue("ETag")).isPresent().get().isNotEqualTo(etag);
        assertThat(json(changed).get("nodes")).hasSize(2);
    }

    @Test
    void refusesBadInputAndStoresNothing() throws IOException {
        AdminHttp http = new AdminHttp(start(Map.of()).baseUri(), TOKEN);
        http.register("keep", "127.0.0.1", 9);
        HttpResponse<String> before = http.get("api/nodes");

        Map<String, String> badBodies = new HashMap<>();
        badBodies.put("malformed", "{\"id\": \"x\", \"host\": ");
        badBodies.put("not an object", "[1,2,3]");
        badBodies.put("empty", "");
        badBodies.put("missing port", "{\"id\":\"x\",\"host\":\"127.0.0.1\"}");
        badBodies.put("missing id", "{\"host\":\"127.0.0.1\",\"port\":9}");
        badBodies.put("port zero", "{\"id\":\"x\",\"host\":\"127.0.0.1\",\"port\":0}");
        badBodies.put("port too big", "{\"id\":\"x\",\"host\":\"127.0.0.1\",\"port\":65536}");
        badBodies.put("port string", "{\"id\":\"x\",\"host\":\"127.0.0.1\",\"port\":\"9\"}");
        badBodies.put("port fraction", "{\"id\":\"x\",\"host\":\"127.0.0.1\",\"port\":9.5}");
        badBodies.put("bad host", "{\"id\":\"x\",\"host\":\"evil host;rm\",\"port\":9}");
        badBodies.put("bad ip", "{\"id\":\"x\",\"host\":\"300.1.1.1\",\"port\":9}");
        badBodies.put("bad id", "{\"id\":\"../etc\",\"host\":\"127.0.0.1\",\"port\":9}");
        badBodies.put("long id", "{\"id\":\"" + "a".repeat(65) + "\",\"host\":\"127.0.0.1\",\"port\":9}");
        badBodies.put("duplicate key", "{\"id\":\"x\",\"id\":\"y\",\"host\":\"127.0.0.1\",\"port\":9}");
        badBodies.put("trailing", "{\"id\":\"x\",\"host\":\"127.0.0.1\",\"port\":9} {}");
        badBodies.forEach((name, body) -> {
            HttpResponse<String> response = http.post("api/nodes", body);
            assertThat(response.statusCode()).as(name).isEqualTo(400);
            try {
                assertThat(json(response).get("error").asText()).as(name).isEqualTo("bad_request");
                assertThat(json(response).get("message").asText()).as(name).isNotBlank();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });

        String padding = "x".repeat(5000);
        HttpResponse<String> oversized = http.post("api/nodes",
                "{\"id\":\"big\",\"host\":\"127.0.0.1\",\"port\":9,\"pad\":\"" + padding + "\"}");
        assertThat(oversized.statusCode()).isEqualTo(413);
        assertThat(json(oversized).get("error").asText()).isEqualTo("payload_too_large");
        // A chunked body (no Content-Length) over the limit is refused too.
        HttpResponse<String> chunked = http.send(http.request("api/nodes").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(
                        ("{\"id\":\"chunked\",\"host\":\"127.0.0.1\",\"port\":9,\"pad\":\"" + padding + "\"}")
                                .getBytes(StandardCharsets.UTF_8)))).build());
        assertThat(chunked.statusCode()).isEqualTo(413);

        assertThat(http.delete("api/nodes/bad%20id").statusCode()).isEqualTo(400);
        assertThat(http.send(http.request("api/nodes").PUT(HttpRequest.BodyPublishers.ofString("{}")).build())
                .statusCode()).isEqualTo(405);
        assertThat(http.delete("api/nodes").statusCode()).isEqualTo(405);
        assertThat(http.get("api/other").statusCode()).isEqualTo(404);

        HttpResponse<String> after = http.get("api/nodes");
        assertThat(after.body()).as("nothing stored by refused requests").isEqualTo(before.body());
    }

    /**
     * A refused request's body that arrives after the answer must not cost the client its connection: the JDK
     * client sends a PUT's headers and body separately, and a server that answers 405 before the body came and
     * then finds unread content closes the kept-alive connection, so the client's next request on it fails with
     * "header parser received no bytes" (seen in CI). The body here comes 300 ms after the headers.
     */
    @Test
    void aRefusedRequestsLateBodyKeepsTheConnectionUsable() throws IOException {
        URI base = start(Map.of()).baseUri();
        String path = base.getPath() + "api/nodes";
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = new BufferedInputStream(socket.getInputStream());
            out.write(("PUT " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + TOKEN
                    + "\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
            out.write("{}".getBytes(StandardCharsets.US_ASCII));
            out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + TOKEN
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponseStatus(in)).as("the PUT").isEqualTo(405);
            assertThat(readResponseStatus(in)).as("the GET after it, on the same connection").isEqualTo(200);
        }
    }

    /** Reads one HTTP/1.1 response with a Content-Length or chunked body; its status, or -1 at end of stream. */
    private static int readResponseStatus(InputStream in) throws IOException {
        String status = readLine(in);
        if (status == null) {
            return -1;
        }
        long length = 0;
        boolean chunked = false;
        for (String line = readLine(in); line != null && !line.isEmpty(); line = readLine(in)) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Long.parseLong(lower.substring("content-length:".length()).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        if (chunked) {
            for (long size = Long.parseLong(readLine(in).trim(), 16); size > 0;
                 size = Long.parseLong(readLine(in).trim(), 16)) {
                in.readNBytes((int) size);
                readLine(in);
            }
            readLine(in);
        } else {
            in.readNBytes((int) length);
        }
        return Integer.parseInt(status.split(" ")[1]);
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                return line.length() == 0 ? null : line.toString();
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Test
    void dropsNodesThatStopRefreshing() throws IOException {
        AdminHttp http = new AdminHttp(start(Map.of(AdminSettings.EXPIRY, "1s")).baseUri(), TOKEN);
        long stamp = json(http.register("silent", "127.0.0.1", 9)).get("lastModified").asLong();
        JsonNode list = awaitList(http, l -> l.get("nodes").isEmpty(), "the silent node to expire");
        assertThat(list.get("lastModified").asLong()).as("expiry advances the stamp").isGreaterThan(stamp);
    }

    @Test
    void advertisesTheStampAndTheDaemonSeesChangesByReQuerying() throws IOException {
        try (DatagramSocket daemon = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            daemon.setSoTimeout(20_000);
            AdminHttp http = new AdminHttp(start(Map.of(AdminSettings.ADVERTISE_INTERVAL, "1h")).baseUri(), TOKEN);
            long stamp = json(http.register("daemon", "127.0.0.1", daemon.getLocalPort())).get("lastModified").asLong();
            AdvertisementCheck first = awaitAdvertisement(daemon, a -> a.lastModified() >= stamp);
            assertThat(first.lastModified()).isEqualTo(stamp);

            long newer = json(http.register("other", "127.0.0.1", 9)).get("lastModified").asLong();
            AdvertisementCheck second = awaitAdvertisement(daemon, a -> a.lastModified() > first.lastModified());
            assertThat(second.lastModified()).isEqualTo(newer);
            assertThat(second.nonce()).isNotEqualTo(first.nonce());
            JsonNode requeried = json(http.get("api/nodes"));
            assertThat(requeried.get("lastModified").asLong()).isEqualTo(second.lastModified());
            assertThat(requeried.get("nodes")).extracting(n -> n.get("id").asText()).contains("daemon", "other");
        }
    }

    @Test
    void advertisesPeriodicallyWithoutChanges() throws IOException {
        try (DatagramSocket daemon = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            daemon.setSoTimeout(20_000);
            AdminHttp http = new AdminHttp(start(Map.of(AdminSettings.ADVERTISE_INTERVAL, "200ms")).baseUri(), TOKEN);
            long stamp = json(http.register("daemon", "127.0.0.1", daemon.getLocalPort())).get("lastModified").asLong();
            List<Long> nonces = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                AdvertisementCheck ad = awaitAdvertisement(daemon, a -> true);
                assertThat(ad.lastModified()).isEqualTo(stamp);
                nonces.add(ad.nonce());
            }
            assertThat(nonces).doesNotHaveDuplicates();
        }
    }

    @Test
    void keepsTheRegistryAcrossARestart() throws IOException {
        AdminServer first = start(Map.of());
        AdminHttp http = new AdminHttp(first.baseUri(), TOKEN);
        for (int i = 0; i < 5; i++) {
            assertThat(http.register("node-" + i, "10.0.0." + (i + 1), 7000 + i).statusCode()).isEqualTo(201);
        }
        http.delete("api/nodes/node-4");
        String before = http.get("api/nodes").body();
        first.close();
        servers.remove(first);

        AdminHttp again = new AdminHttp(start(Map.of()).baseUri(), TOKEN);
        HttpResponse<String> after = again.get("api/nodes");
        assertThat(after.statusCode()).isEqualTo(200);
        assertThat(after.body()).isEqualTo(before);
        assertThat(json(after).get("nodes")).hasSize(4);
    }

    @Test
    void refusesToStartWithAWorldReadableTokenFile() throws IOException {
        Path tokenFile = dir.resolve("open.token");
        Files.writeString(tokenFile, TOKEN + "\n");
        Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> start(Map.of(AdminSettings.TOKEN_FILE, tokenFile.toString())))
                .isInstanceOf(RuntimeException.class);
    }

    @Test
    void servesTheStatusPageToTokenHoldersOnlyByDefault() {
        AdminServer server = startWithDefaults(Map.of());
        AdminHttp http = new AdminHttp(server.baseUri(), TOKEN);
        http.register("lan-a", "gw-a.example.org", 7001);

        HttpResponse<String> anonymous = new AdminHttp(server.baseUri(), null).get("");
        assertThat(anonymous.statusCode()).isEqualTo(401);
        assertThat(anonymous.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                v -> assertThat(v).startsWith("Basic realm=\"fjm2-admin\""));
        assertThat(anonymous.body()).doesNotContain("lan-a", "gw-a.example.org");
        HttpResponse<String> wrong = new AdminHttp(server.baseUri(), null).send(new AdminHttp(server.baseUri(), null)
                .request("").header("Authorization", basic("admin", "wrong-token-0123456789abc")).GET().build());
        assertThat(wrong.statusCode()).isEqualTo(401);

        for (HttpResponse<String> page : List.of(http.get(""), http.send(new AdminHttp(server.baseUri(), null)
                .request("").header("Authorization", basic("anyone", OTHER_TOKEN)).GET().build()))) {
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.headers().firstValue("Content-Type")).hasValueSatisfying(
                    v -> assertThat(v).startsWith("text/html"));
            assertThat(page.body()).contains("lan-a", "gw-a.example.org:7001", "http-equiv=\"refresh\"", "viewport");
        }
        assertThat(http.get("nothing-here").statusCode()).isEqualTo(404);
    }

    @Test
    void theStatusPageCanBePublicOrOff() {
        AdminServer open = start(Map.of(AdminSettings.STATUS_PAGE, "public"));
        new AdminHttp(open.baseUri(), TOKEN).register("lan-a", "gw-a.example.org", 7001);
        HttpResponse<String> page = new AdminHttp(open.baseUri(), null).get("");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("lan-a");
        open.close();
        servers.remove(open);

        AdminServer off = start(Map.of(AdminSettings.STATUS_PAGE, "off"));
        assertThat(new AdminHttp(off.baseUri(), TOKEN).get("").statusCode()).isEqualTo(404);
        assertThat(new AdminHttp(off.baseUri(), null).get("").statusCode()).isEqualTo(404);
        assertThat(new AdminHttp(off.baseUri(), TOKEN).get("api/nodes").statusCode()).as("the API is unaffected")
                .isEqualTo(200);
        assertThatThrownBy(() -> start(Map.of(AdminSettings.STATUS_PAGE, "yes")))
                .as("an unknown value fails the deployment").isInstanceOf(RuntimeException.class);
    }

    @Test
    void aNodeBelongsToTheTokenThatRegisteredIt() throws IOException {
        AdminServer server = start(Map.of());
        AdminHttp owner = new AdminHttp(server.baseUri(), TOKEN);
        AdminHttp other = new AdminHttp(server.baseUri(), OTHER_TOKEN);
        assertThat(owner.register("lan-a", "192.0.2.10", 7001).statusCode()).isEqualTo(201);
        String before = owner.get("api/nodes").body();

        HttpResponse<String> overwrite = other.register("lan-a", "198.51.100.66", 7001);
        assertThat(overwrite.statusCode()).isEqualTo(403);
        assertThat(json(overwrite).get("error").asText()).isEqualTo("forbidden");
        assertThat(json(overwrite).get("message").asText()).contains("lan-a", "another token");
        HttpResponse<String> delete = other.delete("api/nodes/lan-a");
        assertThat(delete.statusCode()).isEqualTo(403);
        assertThat(owner.get("api/nodes").body()).as("nothing changed").isEqualTo(before);

        assertThat(other.register("lan-b", "192.0.2.11", 7001).statusCode()).as("its own node").isEqualTo(201);
        assertThat(owner.delete("api/nodes/lan-b").statusCode()).isEqualTo(403);
        assertThat(owner.register("lan-a", "192.0.2.12", 7002).statusCode()).as("the owner moves it").isEqualTo(200);
        assertThat(other.delete("api/nodes/lan-b").statusCode()).isEqualTo(200);
        assertThat(owner.delete("api/nodes/lan-a").statusCode()).isEqualTo(200);
        assertThat(other.register("lan-a", "192.0.2.13", 7001).statusCode()).as("free again once deleted")
                .isEqualTo(201);
    }

    @Test
    void refusesAddressesNoDaemonMaySendTo() throws IOException {
        AdminHttp http = new AdminHttp(startWithDefaults(Map.of()).baseUri(), TOKEN);
        Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("127.0.0.1", "loopback");
        refused.put("127.8.9.10", "loopback");
        refused.put("::1", "loopback");
        refused.put("::ffff:127.0.0.1", "loopback");
        refused.put("localhost", "loopback");
        refused.put("224.0.0.251", "multicast");
        refused.put("239.255.0.1", "multicast");
        refused.put("ff02::1", "multicast");
        refused.put("255.255.255.255", "broadcast");
        refused.put("0.0.0.0", "unspecified");
        refused.put("::", "unspecified");
        refused.forEach((host, kind) -> {
            HttpResponse<String> response = http.register("victim", host, 7001);
            assertThat(response.statusCode()).as(host).isEqualTo(400);
            try {
                assertThat(json(response).get("error").asText()).isEqualTo("bad_request");
                assertThat(json(response).get("message").asText()).as(host).contains(host, kind);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThat(json(http.get("api/nodes")).get("nodes")).as("nothing stored").isEmpty();
        assertThat(http.register("fine", "192.0.2.1", 7001).statusCode()).isEqualTo(201);
        assertThat(http.register("fine6", "2001:db8::1", 7001).statusCode()).isEqualTo(201);
    }

    @Test
    void healthNeedsNoTokenAndShowsNoData() throws IOException {
        AdminServer server = startWithDefaults(Map.of(AdminSettings.STATUS_PAGE, "off"));
        new AdminHttp(server.baseUri(), TOKEN).register("secret-node", "192.0.2.99", 7001);
        HttpResponse<String> health = new AdminHttp(server.baseUri(), null).get("health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("application/json"));
        assertThat(json(health).get("status").asText()).isEqualTo("up");
        assertThat(json(health).get("database").asText()).isEqualTo("up");
        assertThat(json(health).size()).isEqualTo(2);
        assertThat(health.body()).doesNotContain("secret-node", "192.0.2.99");
    }

    @Test
    void countsRefusalsByReason() throws IOException {
        AdminServer server = start(Map.of());
        AdminHttp owner = new AdminHttp(server.baseUri(), TOKEN);
        owner.register("mine", "192.0.2.1", 7001);
        new AdminHttp(server.baseUri(), null).register("anon", "192.0.2.2", 7001);
        new AdminHttp(server.baseUri(), OTHER_TOKEN).register("mine", "192.0.2.3", 7001);
        new AdminHttp(server.baseUri(), OTHER_TOKEN).delete("api/nodes/mine");
        owner.register("cannon", "239.1.2.3", 7001);
        owner.post("api/nodes", "{\"id\": 1}");
        String page = owner.get("").body();
        assertThat(page).contains("Requests refused: 5 (unauthorized 1, bad request 1, forbidden address 1,"
                + " not owner 2)");
    }

    @Test
    void servesHttpsWithTheCertificateTheReadmeConfigures() throws IOException {
        TestCertificates tls = TestCertificates.create(dir.resolve("tls"), "admin");
        Map<String, String> params = new HashMap<>();
        params.put(AdminSettings.TOKEN_FILE, AdminContainers.tokenFile(dir, TOKEN).toString());
        params.put(AdminSettings.DATA_DIR, dir.resolve("data").toString());
        AdminServer server = deployTls(dir.resolve("container-tls"), params, tls);
        servers.add(server);
        assertThat(server.baseUri().getScheme()).isEqualTo("https");
        AdminHttp http = new AdminHttp(server.baseUri(), TOKEN, tls.trustingTheCa());
        assertThat(http.register("lan-a", "192.0.2.1", 7001).statusCode()).isEqualTo(201);
        assertThat(json(http.get("health")).get("status").asText()).isEqualTo("up");
        TestCertificates stranger = TestCertificates.create(dir.resolve("other-ca"), "stranger");
        assertThatThrownBy(() -> new AdminHttp(server.baseUri(), TOKEN, stranger.trustingTheCa()).get("health"))
                .as("a client that trusts another CA").hasCauseInstanceOf(javax.net.ssl.SSLHandshakeException.class);
    }

    static String basic(String user, String password) {
        return "Basic " + java.util.Base64.getEncoder().encodeToString(
                (user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    interface Condition<T> {
        boolean test(T value) throws IOException;
    }

    static JsonNode awaitList(AdminHttp http, Condition<JsonNode> condition, String what) throws IOException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        JsonNode list;
        do {
            list = json(http.get("api/nodes"));
            if (condition.test(list)) {
                return list;
            }
            pause();
        } while (System.nanoTime() < deadline);
        throw new AssertionError("timed out waiting for " + what + "; last list: " + list);
    }

    /** Reads datagrams until one verifies under the token and satisfies {@code wanted}; forged ones fail the test. */
    static AdvertisementCheck awaitAdvertisement(DatagramSocket socket, Condition<AdvertisementCheck> wanted)
            throws IOException {
        byte[] buffer = new byte[2048];
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (System.nanoTime() < deadline) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                socket.receive(packet);
            } catch (SocketTimeoutException e) {
                break;
            }
            AdvertisementCheck ad = AdvertisementCheck.verify(packet.getData(), packet.getLength(), TOKEN);
            assertThat(ad).as("every datagram from the admin verifies under the token").isNotNull();
            if (wanted.test(ad)) {
                return ad;
            }
        }
        throw new AssertionError("no matching advertisement arrived");
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

}
