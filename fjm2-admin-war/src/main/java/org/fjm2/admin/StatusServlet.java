package org.fjm2.admin;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The application's default servlet: the status page at {@code /}, 404 for every other path that no API
 * mapping took. The page lists every node's address, so by default ({@link AdminSettings#STATUS_PAGE} =
 * {@code token}) it needs a configured token: a bearer header, or HTTP Basic with the token as password (a browser
 * asks for it on the 401's {@code WWW-Authenticate: Basic} challenge; the user name is ignored).
 */
public final class StatusServlet extends HttpServlet {

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        AdminRuntime runtime = AdminRuntime.of(getServletContext());
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        AdminSettings.StatusPageAccess access = runtime.settings().statusPage();
        if (!(path.isEmpty() || path.equals("/")) || access == AdminSettings.StatusPageAccess.OFF) {
            plain(response, HttpServletResponse.SC_NOT_FOUND, "not found\n");
            return;
        }
        if (access == AdminSettings.StatusPageAccess.TOKEN
                && runtime.tokens().matchPageCredentials(request.getHeader("Authorization")) < 0) {
            runtime.refusals().refuse(Refusals.Reason.UNAUTHORIZED, "GET /", "status page without a token",
                    request.getRemoteAddr());
            response.setHeader("WWW-Authenticate", "Basic realm=\"fjm2-admin\", charset=\"UTF-8\"");
            plain(response, HttpServletResponse.SC_UNAUTHORIZED, "The status page needs a token of FJM2-Admin: "
                    + "enter it as the password (any user name), or send 'Authorization: Bearer TOKEN'.\n");
            return;
        }
        RegistryAgent registry = runtime.registry();
        byte[] page = StatusPage.render(registry.snapshot(), System.currentTimeMillis(),
                registry.advertisementCounts(), registry.expiredTotal(), runtime.refusals().counts())
                .getBytes(StandardCharsets.UTF_8);
        response.setContentType("text/html;charset=UTF-8");
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
        response.setContentLength(page.length);
        response.getOutputStream().write(page);
    }

    private static void plain(HttpServletResponse response, int status, String text) throws IOException {
        response.setContentType("text/plain;charset=UTF-8");
        response.setHeader("Cache-Control", "no-cache");
        response.setStatus(status);
        response.getWriter().write(text);
    }
}
