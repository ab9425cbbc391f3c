package org.fjm2.admin;

import java.util.List;

/**
 * An immutable view of the registry as of one moment, published by the {@link RegistryAgent} after every
 * committed change and read by any request thread without locking.
 *
 * @param lastModified the list's stamp: advances (strictly) whenever a node joins, leaves or changes address;
 *     a refresh that only moves {@code lastSeen} leaves it alone, so that keepalives make no daemon re-query
 * @param nodes the nodes, sorted by id
 */
public record RegistrySnapshot(long lastModified, List<Node> nodes) {

    public RegistrySnapshot {
        nodes = List.copyOf(nodes);
    }

    /**
     * The weak entity tag of the list: weak because {@code lastSeen} values may move without the stamp
     * advancing, while the membership the tag stands for stays the same.
     */
    public String etag() {
        return etagOf(lastModified);
    }

    static String etagOf(long lastModified) {
        return "W/\"" + lastModified + "\"";
    }

    /** Whether an {@code If-None-Match} header value names this list's tag (or is {@code *}). */
    public boolean matches(String ifNoneMatch) {
        if (ifNoneMatch == null) {
            return false;
        }
        String strong = "\"" + lastModified + "\"";
        for (String candidate : ifNoneMatch.split(",")) {
            String tag = candidate.trim();
            if (tag.equals("*") || tag.equals(strong) || tag.equals(etag())) {
                return true;
            }
        }
        return false;
    }
}
