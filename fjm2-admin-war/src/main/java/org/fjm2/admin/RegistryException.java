package org.fjm2.admin;

/** Why the registry could not carry out a change; nothing of the change was stored. */
public final class RegistryException extends Exception {

    /** The kinds of refusal, each answered with its own HTTP status. */
    public enum Kind {
        /** The registry holds {@link AdminSettings#maxNodes()} nodes already. */
        FULL,
        /** Too many changes are queued; the caller may retry. */
        BUSY,
        /** The database refused the write. */
        STORAGE,
        /** The registry is shutting down. */
        STOPPED,
        /** The node belongs to another token. */
        NOT_OWNER
    }

    private final Kind kind;

    public RegistryException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
