package org.fjm2.jms.management;

import org.fjm2.norm.api.NormCounters.Counter;

import javax.management.openmbean.CompositeData;
import javax.management.openmbean.CompositeDataSupport;
import javax.management.openmbean.CompositeType;
import javax.management.openmbean.OpenDataException;
import javax.management.openmbean.OpenType;
import javax.management.openmbean.SimpleType;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * Every NORM engine counter as one JMX composite value: a monitoring tool reads them all in one attribute
 * ({@code NormCounters}) and each by name ({@code NormCounters.nacks_sent}), and a counter added to the engine
 * shows up without a new getter.
 */
public final class NormCountersData {

    private static final Counter[] COUNTERS = Counter.values();
    private static final String[] NAMES = new String[COUNTERS.length];
    private static final CompositeType TYPE;

    static {
        OpenType<?>[] types = new OpenType<?>[COUNTERS.length];
        for (int i = 0; i < COUNTERS.length; i++) {
            NAMES[i] = name(COUNTERS[i]);
            types[i] = SimpleType.LONG;
        }
        try {
            TYPE = new CompositeType("NormCounters", "the NORM engine's counters", NAMES, NAMES, types);
        } catch (OpenDataException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private NormCountersData() {
    }

    /** The JMX (and metrics) name of a counter: its constant in lower case. */
    public static String name(Counter counter) {
        return counter.name().toLowerCase(Locale.ROOT);
    }

    /** Every counter's current value, as {@code getNormCounters()} returns them. */
    public static CompositeData of(ToLongFunction<Counter> values) {
        Object[] v = new Object[COUNTERS.length];
        for (int i = 0; i < COUNTERS.length; i++) {
            v[i] = values.applyAsLong(COUNTERS[i]);
        }
        try {
            return new CompositeDataSupport(TYPE, NAMES, v);
        } catch (OpenDataException e) {
            throw new IllegalStateException(e);
        }
    }
}
