package org.fjm2.bench.options;

import java.util.EnumSet;
import java.util.List;
import java.util.Locale;

/** A baseline that {@code bench throughput} and {@code bench latency} measure beside FJM2 ({@code --baselines}). */
public enum Baseline {
    /** An embedded ActiveMQ Artemis broker, JMS over TCP on loopback. */
    ARTEMIS,
    /** Raw UDP multicast datagrams of the same size (and, in latency, a raw UDP ping-pong). */
    UDP,
    /** Aeron over UDP multicast on the same interface, embedded media drivers (org.fjm2.bench.aeron). */
    AERON;

    /** Every baseline, the default of --baselines. */
    public static final String ALL = "artemis,udp,aeron";

    /** The value of --baselines that measures FJM2 alone. */
    public static final String NONE = "none";

    /**
     * The baselines of a --baselines value: names in any case, or {@value #NONE} alone for none; an
     * IllegalArgumentException names what is wrong.
     */
    public static EnumSet<Baseline> parse(List<String> names) {
        EnumSet<Baseline> set = EnumSet.noneOf(Baseline.class);
        if (names.size() == 1 && names.get(0).strip().equalsIgnoreCase(NONE)) {
            return set;
        }
        for (String name : names) {
            try {
                set.add(Baseline.valueOf(name.strip().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--baselines: unknown baseline '" + name + "' (artemis, udp, aeron, "
                        + "or none alone)");
            }
        }
        return set;
    }
}
