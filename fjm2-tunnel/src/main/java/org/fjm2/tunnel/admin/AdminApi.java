package org.fjm2.tunnel.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;

/**
 * The three calls of FJM2-Admin's HTTP API, over {@code java.net.http}: register (or refresh), list with
 * {@code If-None-Match}, deregister. The token travels in the {@code Authorization} header only. Answers are
 * treated as untrusted input: bounded in size and checked field by field.
 */
public final class AdminApi {

    /** Largest list body read; a longer one is refused. */
    public static final int MAX_LIST_BYTES = 4 << 20;
    /** Largest error or registration answer read. */
    static final int MAX_SMALL_BYTES = 64 << 10;

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One list as FJM2-Admin served it.
     *
     * @param lastModified the list's stamp
     * @param etag the entity tag to send back in {@code If-None-Match}
     * @param peers every node in the list (this node included)
     */
    public record PeerList(long lastModified, String etag, List<PeerAddress> peers) {
    }

    private final HttpClient http;
    private final URI nodes;
    private final String authorization;
    private final Duration timeout;
    private final String trustSource;

    /**
     * @param admin FJM2-Admin's base URI, e.g. {@code http://admin.example.org:8080/} (the API is under
     *     {@code api/nodes} below it)
     */
    public AdminApi(URI admin, String token, Duration timeout) {
        this(admin, token, timeout, null, null);
    }

    /**
     * @param trust the authorities that vouch for the admin's certificate ({@link AdminTrust}); {@code null} for the
     *     JDK's defaults
     * @param trustSource where {@code trust} came from, named in TLS errors (e.g. the CA file)
     */
    public AdminApi(URI admin, String token, Duration timeout, SSLContext trust, String trustSource) {
        String base = admin.toString();
        this.nodes = URI.create(base.endsWith("/") ? base : base + "/").resolve("api/nodes");
        this.authorization = "Bearer " + token;
        this.timeout = timeout;
        this.trustSource = trustSource == null ? "the JDK's default authorities" : trustSource;
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(timeout);
        this.http = (trust == null ? builder : builder.sslContext(trust)).build();
    }

    /** {@code POST api/nodes}: registers or refreshes; returns the list's stamp after it. */
    public long register(String id, String host, int port) throws AdminApiException {
        String body = JSON.createObjectNode().put("id", id).put("host", host).put("port", port).toString();
        HttpResponse<InputStream> response = send(request(nodes)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        JsonNode answer = readJson(response, MAX_SMALL_BYTES, 200, 201);
        JsonNode stamp = answer.get("lastModified");
        if (stamp == null || !stamp.canConvertToLong()) {
            throw new AdminApiException(response.statusCode(), "registration answer without lastModified");
        }
        return stamp.longValue();
    }

    /** {@code GET api/nodes}: the list, or empty when it still has entity tag {@code etag} (304). */
    public Optional<PeerList> list(String etag) throws AdminApiException {
        HttpRequest.Builder request = request(nodes).GET();
        if (etag != null) {
            request.header("If-None-Match", etag);
        }
        HttpResponse<InputStream> response = send(request.build());
        if (response.statusCode() == 304) {
            drain(response);
            return Optional.empty();
        }
        JsonNode answer = readJson(response, MAX_LIST_BYTES, 200);
        JsonNode stamp = answer.get("lastModified");
        JsonNode list = answer.get("nodes");
        if (stamp == null || !stamp.canConvertToLong() || list == null || !list.isArray()) {
            throw new AdminApiException(200, "list answer without lastModified or nodes");
        }
        List<PeerAddress> peers = new ArrayList<>(list.size());
        for (JsonNode n : list) {
            JsonNode id = n.get("id");
            JsonNode host = n.get("host");
            JsonNode port = n.get("port");
            if (id == null || !id.isTextual() || host == null || !host.isTextual() || port == null
                    || !port.canConvertToInt() || port.intValue() < 1 || port.intValue() > 65535) {
                throw new AdminApiException(200, "list holds a malformed node: " + truncate(n.toString()));
            }
            peers.add(new PeerAddress(id.textValue(), host.textValue(), port.intValue()));
        }
        return Optional.of(new PeerList(stamp.longValue(),
                response.headers().firstValue("ETag").orElse(null), List.copyOf(peers)));
    }

    /** {@code DELETE api/nodes/{id}}: true when removed, false when the admin did not know it (404). */
    public boolean deregister(String id) throws AdminApiException {
        URI uri = URI.create(nodes + "/" + URLEncoder.encode(id, StandardCharsets.UTF_8));
        HttpResponse<InputStream> response = send(request(uri).DELETE().build());
        if (response.statusCode() == 404) {
            drain(response);
            return false;
        }
        readJson(response, MAX_SMALL_BYTES, 200);
        return true;
    }

    private HttpRequest.Builder request(URI uri) {
        return HttpRequest.newBuilder(uri).timeout(timeout).header("Authorization", authorization)
                .header("Accept", "application/json");
    }

    private HttpResponse<InputStream> send(HttpRequest request) throws AdminApiException {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (SSLHandshakeException e) {
            throw new AdminApiException("TLS handshake with FJM2-Admin at " + nodes + " failed: its certificate is "
                    + "not signed by " + trustSource + ", or does not name host '" + nodes.getHost() + "' ("
                    + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new AdminApiException("cannot reach FJM2-Admin at " + nodes + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AdminApiException("interrupted while calling FJM2-Admin", e);
        }
    }

    private static JsonNode readJson(HttpResponse<InputStream> response, int maxBytes, int... expected)
            throws AdminApiException {
        byte[] body;
        try (InputStream in = response.body()) {
            body = in.readNBytes(maxBytes + 1);
        } catch (IOException e) {
            throw new AdminApiException("reading FJM2-Admin's answer failed: " + e, e);
        }
        if (body.length > maxBytes) {
            throw new AdminApiException(response.statusCode(), "FJM2-Admin's answer exceeds " + maxBytes + " bytes");
        }
        boolean ok = false;
        for (int status : expected) {
            ok |= response.statusCode() == status;
        }
        JsonNode json;
        try {
            json = JSON.readTree(body);
        } catch (IOException e) {
            json = null;
        }
        if (!ok) {
            String message = json != null && json.hasNonNull("message") ? json.get("message").asText()
                    : truncate(new String(body, StandardCharsets.UTF_8));
            throw new AdminApiException(response.statusCode(), "FJM2-Admin answered " + response.statusCode()
                    + ": " + message);
        }
        if (json == null || !json.isObject()) {
            throw new AdminApiException(response.statusCode(), "FJM2-Admin's answer is not a JSON object");
        }
        return json;
    }

    private static void drain(HttpResponse<InputStream> response) {
        try (InputStream in = response.body()) {
            in.skip(MAX_SMALL_BYTES);
        } catch (IOException ignored) {
            // nothing was expected in the body
        }
    }

    private static String truncate(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "...";
    }
}
