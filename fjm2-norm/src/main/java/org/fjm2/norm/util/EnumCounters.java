package org.fjm2.norm.util;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters named by an enum, the one counter type of the engine and FJM2D: written by one owner thread (single
 * writer, ordered stores, no locks), read from any thread — status lines, JMX and metrics read them all the same
 * way, through {@link #snapshot()}.
 */
public class EnumCounters<E extends Enum<E>> {

    private final Class<E> type;
    private final E[] all;
    private final AtomicLongArray values;

    public EnumCounters(Class<E> type) {
        this.type = type;
        this.all = type.getEnumConstants();
        this.values = new AtomicLongArray(all.length);
    }

    /** Adds to a counter (owner thread only). */
    public final void add(E counter, long delta) {
        int i = counter.ordinal();
        values.lazySet(i, values.get(i) + delta);
    }

    /** Adds one (owner thread only). */
    public final void increment(E counter) {
        add(counter, 1);
    }

    /** Adds one from any thread: only for counters the owner thread never writes. */
    public final void incrementFromAnyThread(E counter) {
        values.incrementAndGet(counter.ordinal());
    }

    public final long get(E counter) {
        return values.get(counter.ordinal());
    }

    /** The counters' names, in order. */
    public final Class<E> type() {
        return type;
    }

    /** A copy of every counter, for reports, JMX and metrics. */
    public final Map<E, Long> snapshot() {
        Map<E, Long> map = new EnumMap<>(type);
        for (E c : all) {
            map.put(c, values.get(c.ordinal()));
        }
        return map;
    }

    /** The non-zero counters, {@code name=value} separated by spaces. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (E c : all) {
            long v = values.get(c.ordinal());
            if (v != 0) {
                sb.append(sb.length() == 0 ? "" : " ").append(c.name().toLowerCase()).append('=').append(v);
            }
        }
        return sb.toString();
    }
}
