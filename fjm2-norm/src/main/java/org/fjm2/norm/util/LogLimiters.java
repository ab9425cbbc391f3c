package org.fjm2.norm.util;

import java.util.EnumMap;

/**
 * One {@link LogLimiter} per kind of event, for a component whose log lines other nodes can make frequent: each kind
 * gets at most one line a second, so one flood cannot hide the others. One owner thread.
 */
public final class LogLimiters<K extends Enum<K>> {

    private final EnumMap<K, LogLimiter> limiters;

    public LogLimiters(Class<K> kinds) {
        this.limiters = new EnumMap<>(kinds);
        for (K kind : kinds.getEnumConstants()) {
            limiters.put(kind, new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS));
        }
    }

    /** True when a line about {@code kind} may be logged now (else it is counted). */
    public boolean allow(K kind) {
        return limiters.get(kind).allow();
    }

    /** Lines about {@code kind} suppressed since the last one logged (then reset). */
    public long takeSuppressed(K kind) {
        return limiters.get(kind).takeSuppressed();
    }
}
