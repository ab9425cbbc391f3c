package org.fjm2.admin;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Lets through only API requests that carry {@code Authorization: Bearer TOKEN} with a configured token;
 * answers 401 otherwise (counted and logged by {@link Refusals}). Tokens are read from that header only, never from
 * the URL, and never logged.
 */
public final class BearerTokenFilter extends HttpFilter {

    /** Request attribute holding the index of the token the request presented. */
    static final String TOKEN_INDEX = BearerTokenFilter.class.getName() + ".tokenIndex";

    /** Most bytes of a refused request's body read and thrown away before the 401 goes out. */
    static final int DRAIN_LIMIT = 64 * 1024;

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        AdminRuntime runtime = AdminRuntime.of(getServletContext());
        int tokenIndex = runtime.tokens().match(request.getHeader("Authorization"));
        if (tokenIndex < 0) {
            runtime.refusals().refuse(Refusals.Reason.UNAUTHORIZED, request.getMethod() + " " + request.getRequestURI(),
                    request.getHeader("Authorization") == null ? "no bearer token" : "not a configured bearer token",
                    request.getRemoteAddr());
            // Read a small body before answering (as for 413): a server that answers and closes while the client
            // still sends makes the client's TCP stack reset the connection, and the client may never see the 401.
            long declared = request.getContentLengthLong();
            if (declared != 0 && (declared > DRAIN_LIMIT
                    || request.getInputStream().readNBytes(DRAIN_LIMIT + 1).length > DRAIN_LIMIT)) {
                response.setHeader("Connection", "close");
            }
            response.setHeader("WWW-Authenticate", "Bearer realm=\"fjm2-admin\"");
            ApiResponses.error(response, runtime.json(), HttpServletResponse.SC_UNAUTHORIZED, "unauthorized",
                    "missing or wrong bearer token (send 'Authorization: Bearer TOKEN')");
            return;
        }
        request.setAttribute(TOKEN_INDEX, tokenIndex);
        chain.doFilter(request, response);
    }
}
