package org.fjm2.admin.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** A small HTTP client for the tests: every call bounded in time, the token sent as a bearer header. */
public final class AdminHttp {

    private final HttpClient client;
    private final URI base;
    private final String token;

    public AdminHttp(URI base, String token) {
        this(base, token, null);
    }

    /** A client that trusts only {@code trusted} (an SSL context over a test CA), or the JDK's defaults if null. */
    public AdminHttp(URI base, String token, javax.net.ssl.SSLContext trusted) {
        HttpClient.Builder builder = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        this.client = (trusted == null ? builder : builder.sslContext(trusted)).build();
        this.base = base;
        this.token = token;
    }

    /** A request to {@code path} (relative to the base URI) carrying the token, if any. */
    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30));
        return token == null ? b : b.header("Authorization", "Bearer " + token);
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpResponse<String> get(String path) {
        return send(request(path).GET().build());
    }

    public HttpResponse<String> post(String path, String json) {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    public HttpResponse<String> delete(String path) {
        return send(request(path).DELETE().build());
    }

    /** {@code POST /api/nodes} with the given fields. */
    public HttpResponse<String> register(String id, String host, int port) {
        return post("api/nodes", "{\"id\":\"" + id + "\",\"host\":\"" + host + "\",\"port\":" + port + "}");
    }

    public HttpClient client() {
        return client;
    }
}
