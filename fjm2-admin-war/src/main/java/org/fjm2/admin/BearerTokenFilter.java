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

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        AdminRuntime runtime = AdminRuntime.of(getServletContext());
        int tokenIndex = runtime.tokens().match(request.getHeader("Authorization"));
        if (tokenIndex < 0) {
            runtime.refusals().refuse(Refusals.Reason.UNAUTHORIZED, request.getMethod() + " " + request.getRequestURI(),
                    request.getHeader("Authorization") == null ? "no bearer token" : "not a configured bearer token",
                    request.getRemoteAddr());
            RefusedBody.discard(request, response);
            response.setHeader("WWW-Authenticate", "Bearer realm=\"fjm2-admin\"");
            ApiResponses.error(response, runtime.json(), HttpServletResponse.SC_UNAUTHORIZED, "unauthorized",
                    "missing or wrong bearer token (send 'Authorization: Bearer TOKEN')");
            return;
        }
        request.setAttribute(TOKEN_INDEX, tokenIndex);
        chain.doFilter(request, response);
    }
}
