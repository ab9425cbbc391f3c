package org.fjm2.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes the API's JSON answers, errors included, always with the same headers. */
final class ApiResponses {

    static final String JSON = "application/json;charset=UTF-8";

    private ApiResponses() {
    }

    static void json(HttpServletResponse response, ObjectMapper mapper, int status, Object body) throws IOException {
        json(response, status, mapper.writeValueAsBytes(body));
    }

    /** Sends JSON already serialized. */
    static void json(HttpServletResponse response, int status, byte[] bytes) throws IOException {
        response.setStatus(status);
        response.setContentType(JSON);
        response.setHeader("Cache-Control", "no-cache");
        response.setHeader("X-Content-Type-Options", "nosniff");
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    /** {@code {"error": code, "message": message}} with {@code status}. */
    static void error(HttpServletResponse response, ObjectMapper mapper, int status, String code, String message)
            throws IOException {
        Map<String, String> body = new LinkedHashMap<>();
        body.put("error", code);
        body.put("message", message);
        json(response, mapper, status, body);
    }
}
