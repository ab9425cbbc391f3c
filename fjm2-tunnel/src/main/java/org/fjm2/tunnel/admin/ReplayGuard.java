package org.fjm2.tunnel.admin;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Refuses an authentic advertisement a second time: its timestamp must lie within {@link #windowMillis} of the
 * local clock, and its nonce must not have been seen within that window. Nonces older than the window are
 * forgotten (the timestamp check refuses them anyway), and at most {@link #MAX_REMEMBERED} are kept. Not
 * thread-safe.
 */
public final class ReplayGuard {

    /** Most nonces remembered; the oldest go first. */
    public static final int MAX_REMEMBERED = 4096;

    /** What {@link #check} found. */
    public enum Result {
        FRESH,
        /** Timestamp outside the window: replayed later, or the clocks of admin and daemon disagree. */
        OUTSIDE_WINDOW,
        /** Nonce already seen. */
        REPLAYED
    }

    private final long windowMillis;
    private final Map<Long, Long> seen = new LinkedHashMap<>(64, 0.75f, false);

    public ReplayGuard(long windowMillis) {
        this.windowMillis = windowMillis;
    }

    /** Checks an advertisement and, when fresh, remembers its nonce. */
    public Result check(long timestamp, long nonce, long now) {
        if (Math.abs(now - timestamp) > windowMillis) {
            return Result.OUTSIDE_WINDOW;
        }
        // Entries are in the order they were seen; a nonce first seen more than two windows ago can only come
        // back with a timestamp outside the window, so it need not be remembered.
        var firstSeen = seen.values().iterator();
        while (firstSeen.hasNext()) {
            long at = firstSeen.next();
            if (seen.size() < MAX_REMEMBERED && now - at <= 2 * windowMillis) {
                break;
            }
            firstSeen.remove();
        }
        if (seen.putIfAbsent(nonce, now) != null) {
            return Result.REPLAYED;
        }
        return Result.FRESH;
    }

    public long windowMillis() {
        return windowMillis;
    }
}
