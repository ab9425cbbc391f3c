package org.fjm2.admin;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The application's default servlet: the status page at {@code /}, 404 for every other path that no API
 * mapping took.
 */
public final class StatusServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AdminRuntime runtime = AdminRuntime.of(getServletContext());
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (!(path.isEmpty() || path.equals("/")) || !runtime.settings().statusPage()) {
            response.setContentType("text/plain;charset=UTF-8");
            response.setStatus(HttpServletResponse.SC_NOT_FOUND);
            response.getWriter().write("not found\n");
            return;
        }
        RegistryAgent registry = runtime.registry();
        byte[] page = StatusPage.render(registry.snapshot(), System.currentTimeMillis(),
                registry.advertisementCounts(), registry.expiredTotal()).getBytes(StandardCharsets.UTF_8);
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
        response.setContentLength(page.length);
        response.getOutputStream().write(page);
    }
}
