package org.fjm2.admin;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * The body of a request refused before it was read (401, 405, 413). A server that answers while the client still
 * sends either closes the connection (Jetty, on finding unread content: a client that kept the connection alive
 * then fails its next request with no answer) or makes the client's TCP stack reset it before the answer is read.
 * So a small body is read and thrown away before the answer; a larger one is not read, and the answer says
 * {@code Connection: close}.
 */
final class RefusedBody {

    /** Most bytes of a refused request's body read and thrown away before the answer goes out. */
    static final int DRAIN_LIMIT = 64 * 1024;

    private RefusedBody() {
    }

    /** Reads what is left of the request's body, up to {@link #DRAIN_LIMIT}; asks to close the connection if more. */
    static void discard(HttpServletRequest request, HttpServletResponse response) throws IOException {
        long declared = request.getContentLengthLong();
        if (declared != 0 && (declared > DRAIN_LIMIT
                || request.getInputStream().readNBytes(DRAIN_LIMIT + 1).length > DRAIN_LIMIT)) {
            response.setHeader("Connection", "close");
        }
    }
}
