package org.fjm2.tunnel.relay;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters named by an enum. Written only by the relay's event loop (single writer, ordered stores), read from any
 * thread (status line, JMX, tests).
 */
public abstract class EnumCounters<E extends Enum<E>> {

    private final E[] all;
    private final AtomicLongArray values;

    EnumCounters(Class<E> type) {
        this.all = type.getEnumConstants();
        this.values = new AtomicLongArray(all.length);
    }

    final void add(E c, long delta) {
        int i = c.ordinal();
        values.lazySet(i, values.get(i) + delta);
    }

    final void increment(E c) {
        add(c, 1);
    }

    public final long get(E c) {
        return values.get(c.ordinal());
    }

    /** A copy of every counter. */
    public final Map<E, Long> snapshot() {
        Map<E, Long> m = new EnumMap<>(all[0].getDeclaringClass());
        for (E c : all) {
            m.put(c, values.get(c.ordinal()));
        }
        return m;
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
