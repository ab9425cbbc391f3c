package org.fjm2.admin;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /api/nodes}: {@code GET} the list (with {@code ETag}/{@code If-None-Match}), {@code POST} a
 * registration or refresh, {@code DELETE /api/nodes/{id}}. Input is validated completely before anything reaches
 * the registry, so a refused request stores nothing.
 */
public final class NodesServlet extends HttpServlet {

    /** How long a request waits for the registry to commit its change before answering 503. */
    static final long COMMIT_TIMEOUT_SECONDS = 15;

    private static final Logger LOG = LoggerFactory.getLogger(NodesServlet.class);

    private record SerializedList(RegistrySnapshot snapshot, byte[] json) {
    }

    /** Racy by design: two threads may both serialize a new snapshot; either result is right. */
    private volatile SerializedList lastSerialized;

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        String path = request.getPathInfo();
        boolean collection = path == null || path.equals("/");
        String method = request.getMethod();
        if (collection && (method.equals("GET") || method.equals("HEAD") || method.equals("POST"))
                || !collection && method.equals("DELETE")) {
            super.service(request, response);
            return;
        }
        RefusedBody.discard(request, response);
        response.setHeader("Allow", collection ? "GET, HEAD, POST" : "DELETE");
        ApiResponses.error(response, runtime().json(), HttpServletResponse.SC_METHOD_NOT_ALLOWED,
                "method_not_allowed", method + " is not allowed here");
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        RegistrySnapshot snapshot = runtime().registry().snapshot();
        response.setHeader("ETag", snapshot.etag());
        if (snapshot.matches(request.getHeader("If-None-Match"))) {
            response.setHeader("Cache-Control", "no-cache");
            response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
            return;
        }
        ApiResponses.json(response, HttpServletResponse.SC_OK, serialized(snapshot));
    }

    /** The list as JSON, serialized once per snapshot: reads outnumber changes by far. */
    private byte[] serialized(RegistrySnapshot snapshot) throws IOException {
        SerializedList cached = lastSerialized;
        if (cached == null || cached.snapshot != snapshot) {
            cached = new SerializedList(snapshot, runtime().json().writeValueAsBytes(snapshot));
            lastSerialized = cached;
        }
        return cached.json;
    }

    @Override
    protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AdminRuntime runtime = runtime();
        byte[] body = readBody(request, response, runtime);
        if (body == null) {
            return;
        }
        RegistrationRequest registration;
        try {
            registration = RegistrationRequest.parse(runtime.json(), body, runtime.settings().allowLoopback());
        } catch (RegistrationRequest.Invalid e) {
            refuse(request, response, runtime, e.reason(), HttpServletResponse.SC_BAD_REQUEST, "bad_request",
                    e.getMessage());
            return;
        }
        int tokenIndex = (Integer) request.getAttribute(BearerTokenFilter.TOKEN_INDEX);
        RegistryAgent.Registered done = await(runtime.registry().register(registration.id(), registration.host(),
                registration.port(), tokenIndex), request, response, runtime);
        if (done == null) {
            return;
        }
        if (done.created()) {
            LOG.info("registered node {} at {}:{} from {}", registration.id(), registration.host(),
                    registration.port(), request.getRemoteAddr());
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("node", done.node());
        answer.put("lastModified", done.lastModified());
        response.setHeader("ETag", RegistrySnapshot.etagOf(done.lastModified()));
        ApiResponses.json(response, runtime.json(),
                done.created() ? HttpServletResponse.SC_CREATED : HttpServletResponse.SC_OK, answer);
    }

    @Override
    protected void doDelete(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AdminRuntime runtime = runtime();
        String id = request.getPathInfo().substring(1);
        String problem = NodeAddressRules.checkId(id);
        if (problem != null) {
            refuse(request, response, runtime, Refusals.Reason.BAD_REQUEST, HttpServletResponse.SC_BAD_REQUEST,
                    "bad_request", problem);
            return;
        }
        int tokenIndex = (Integer) request.getAttribute(BearerTokenFilter.TOKEN_INDEX);
        Optional<Long> done = await(runtime.registry().deregister(id, tokenIndex), request, response, runtime);
        if (done == null) {
            return;
        }
        if (done.isEmpty()) {
            ApiResponses.error(response, runtime.json(), HttpServletResponse.SC_NOT_FOUND, "not_found",
                    "no node with id " + id);
            return;
        }
        LOG.info("deregistered node {} from {}", id, request.getRemoteAddr());
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("deleted", id);
        answer.put("lastModified", done.get());
        ApiResponses.json(response, runtime.json(), HttpServletResponse.SC_OK, answer);
    }

    /** The body, at most {@link AdminSettings#maxBodyBytes()}; {@code null} after answering 413. */
    private static byte[] readBody(HttpServletRequest request, HttpServletResponse response, AdminRuntime runtime)
            throws IOException {
        int max = runtime.settings().maxBodyBytes();
        try (InputStream in = request.getInputStream()) {
            if (request.getContentLengthLong() > max) {
                tooLarge(request, response, runtime);
                return null;
            }
            byte[] body = in.readNBytes(max + 1);
            if (body.length > max) {
                tooLarge(request, response, runtime);
                return null;
            }
            return body;
        }
    }

    /** Answers 413 once the rest of a body not larger than {@link RefusedBody#DRAIN_LIMIT} is read. */
    private static void tooLarge(HttpServletRequest request, HttpServletResponse response, AdminRuntime runtime)
            throws IOException {
        RefusedBody.discard(request, response);
        refuse(request, response, runtime, Refusals.Reason.TOO_LARGE, HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
                "payload_too_large", "the body exceeds " + runtime.settings().maxBodyBytes() + " bytes");
    }

    /** The change's outcome, or {@code null} after answering 403 (another token's node) or 503. */
    private static <T> T await(CompletableFuture<T> change, HttpServletRequest request, HttpServletResponse response,
                               AdminRuntime runtime) throws IOException {
        String reason;
        try {
            return change.get(COMMIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RegistryException r && r.kind() == RegistryException.Kind.NOT_OWNER) {
                refuse(request, response, runtime, Refusals.Reason.NOT_OWNER, HttpServletResponse.SC_FORBIDDEN,
                        "forbidden", r.getMessage());
                return null;
            }
            reason = e.getCause() instanceof RegistryException r ? r.getMessage() : "registry failure";
        } catch (TimeoutException e) {
            reason = "the registry did not answer within " + COMMIT_TIMEOUT_SECONDS + " s";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            reason = "interrupted";
        }
        response.setHeader("Retry-After", "1");
        refuse(request, response, runtime, Refusals.Reason.UNAVAILABLE, HttpServletResponse.SC_SERVICE_UNAVAILABLE,
                "unavailable", reason);
        return null;
    }

    /** Answers the error and has it counted and logged (rate-limited) with its reason. */
    private static void refuse(HttpServletRequest request, HttpServletResponse response, AdminRuntime runtime,
                               Refusals.Reason reason, int status, String code, String message) throws IOException {
        runtime.refusals().refuse(reason, request.getMethod() + " " + request.getRequestURI(), message,
                request.getRemoteAddr());
        ApiResponses.error(response, runtime.json(), status, code, message);
    }

    private AdminRuntime runtime() {
        return AdminRuntime.of(getServletContext());
    }
}
