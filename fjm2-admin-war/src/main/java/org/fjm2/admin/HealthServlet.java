package org.fjm2.admin;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /health}: for load balancers and container probes, so it needs no token and serves no data (no node,
 * no address, no count). 200 {@code {"status":"up","database":"up"}} when the registry's database answers a query
 * on the registry's own thread within {@link #PROBE_TIMEOUT_MILLIS}; 503 with {@code "down"} otherwise (the reason
 * goes to the log, once until the database answers again, never to the anonymous caller).
 */
public final class HealthServlet extends HttpServlet {

    /** How long a health check waits for the database's answer. */
    static final long PROBE_TIMEOUT_MILLIS = 5000;

    private static final Logger LOG = LoggerFactory.getLogger(HealthServlet.class);

    private final AtomicBoolean reportedDown = new AtomicBoolean();

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AdminRuntime runtime = AdminRuntime.of(getServletContext());
        String problem;
        try {
            problem = runtime.registry().probeDatabase().get(PROBE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            problem = e.getCause() instanceof RegistryException r ? r.getMessage() : String.valueOf(e.getCause());
        } catch (TimeoutException e) {
            problem = "the registry did not answer within " + PROBE_TIMEOUT_MILLIS + " ms";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problem = "interrupted";
        }
        if (problem == null) {
            if (reportedDown.compareAndSet(true, false)) {
                LOG.info("health: the registry database answers again");
            }
        } else if (reportedDown.compareAndSet(false, true)) {
            LOG.warn("health: the registry database does not answer (503 until it does): {}", problem);
        }
        Map<String, String> body = new LinkedHashMap<>();
        body.put("status", problem == null ? "up" : "down");
        body.put("database", problem == null ? "up" : "down");
        ApiResponses.json(response, runtime.json(),
                problem == null ? HttpServletResponse.SC_OK : HttpServletResponse.SC_SERVICE_UNAVAILABLE, body);
    }
}
