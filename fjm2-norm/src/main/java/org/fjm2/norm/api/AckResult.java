package org.fjm2.norm.api;

import java.util.Map;

/**
 * Outcome of a positive-acknowledgement round: for each node asked, whether it acknowledged everything up to the
 * watermark (object {@code watermarkObjectId}, the last object enqueued before the request).
 */
public record AckResult(long watermarkTicket, int watermarkObjectId, Map<Integer, Boolean> acknowledged) {

    /** True when every node asked acknowledged. */
    public boolean complete() {
        return acknowledged.values().stream().allMatch(Boolean::booleanValue);
    }
}
