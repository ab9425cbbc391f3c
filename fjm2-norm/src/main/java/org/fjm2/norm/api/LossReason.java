package org.fjm2.norm.api;

/** Why an object can never be completed. */
public enum LossReason {
    /** The sender no longer has it (NORM_CMD(SQUELCH)). */
    SQUELCHED("the sender no longer holds it (squelched)"),
    /** The sender went silent or restarted before the object was complete. */
    SENDER_GONE("the sender went silent or restarted"),
    /** The object is larger than this receiver's maximum object size. */
    TOO_LARGE("larger than the receiver's maximum object size"),
    /** The receiver fell too far behind the sender (window or buffer bound reached). */
    RECEIVER_OVERRUN("the receiver fell too far behind (buffer bound)"),
    /**
     * The object uses a form this engine does not receive (an unknown FEC scheme, a structure it cannot take); for a
     * stream, also: a newer stream of the same sender replaced it (a receiver follows one stream per sender).
     */
    UNSUPPORTED("unsupported object type or FEC scheme"),
    /** The session was closed. */
    SESSION_CLOSED("the session was closed");

    private final String description;

    LossReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
