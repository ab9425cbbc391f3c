package org.fjm2.admin;

import com.fasterxml.jackson.annotation.JsonIgnore;

/**
 * One registered FJM2D node.
 *
 * @param id the node's chosen identifier, unique in the registry
 * @param host host name or IP literal where its peers (and the advertisement) reach it
 * @param port UDP port of its tunnel at {@code host}
 * @param registered when it first registered (epoch milliseconds)
 * @param lastSeen when it last registered or refreshed (epoch milliseconds)
 * @param owner fingerprint ({@link TokenSet#owner}) of the token that registered it: only that token may change or
 *     delete it; {@code null} for a node stored before owners were kept (the next token to refresh it claims it).
 *     Never served.
 */
public record Node(String id, String host, int port, long registered, long lastSeen, @JsonIgnore String owner) {

    /** Whether this node's address differs from {@code other}'s: the list's content changes then. */
    boolean addressDiffers(String otherHost, int otherPort) {
        return port != otherPort || !host.equals(otherHost);
    }
}
