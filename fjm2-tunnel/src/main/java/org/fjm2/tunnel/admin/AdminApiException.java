package org.fjm2.tunnel.admin;

import java.io.IOException;

/** FJM2-Admin answered a call with an error, or could not be reached. */
public final class AdminApiException extends IOException {

    private final int status;

    AdminApiException(int status, String message) {
        super(message);
        this.status = status;
    }

    AdminApiException(String message, Throwable cause) {
        super(message, cause);
        this.status = 0;
    }

    /** The HTTP status, or 0 when no answer came. */
    public int status() {
        return status;
    }
}
