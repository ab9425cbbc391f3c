package org.fjm2.tunnel.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.fjm2.tunnel.TunnelDaemon;
import org.fjm2.tunnel.relay.RelayCounters;

import java.util.Locale;
import java.util.Objects;

/**
 * Micrometer meters of an FJM2D daemon: every relay counter ({@link RelayCounters.Counter}) as a function counter
 * {@code fjm2.tunnel.<counter>} ({@code LAN_PACKETS_IN} is {@code fjm2.tunnel.lan.packets.in}), the number of
 * peers and the repair cache's size as gauges, all tagged {@value #TUNNEL_TAG}={@code <node id>} plus the
 * caller's tags. Per-peer counters stay in the JMX view and the status line: peers come and go, meters would not.
 *
 * Micrometer is an optional dependency of fjm2-tunnel: only this package needs it.
 */
public final class TunnelMetrics implements MeterBinder {

    public static final String TUNNEL_TAG = "tunnel";
    public static final String PREFIX = "fjm2.tunnel.";

    private final TunnelDaemon daemon;
    private final Tags tags;

    public TunnelMetrics(TunnelDaemon daemon, Tag... tags) {
        this.daemon = Objects.requireNonNull(daemon, "daemon");
        this.tags = Tags.of(tags).and(TUNNEL_TAG, daemon.getNodeId());
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (RelayCounters.Counter counter : RelayCounters.Counter.values()) {
            FunctionCounter.builder(meterName(counter), daemon, d -> d.counters().get(counter))
                    .description("FJM2D relay counter " + counter.name().toLowerCase(Locale.ROOT))
                    .tags(tags).register(registry);
        }
        Gauge.builder(PREFIX + "peers", daemon, d -> d.peers().size())
                .description("peers listed and learned").tags(tags).register(registry);
        Gauge.builder(PREFIX + "repair.cache.size", daemon, TunnelDaemon::getRepairCacheBytes)
                .baseUnit(BaseUnits.BYTES).description("bytes in the repair cache").tags(tags).register(registry);
        Gauge.builder(PREFIX + "repair.cache.entries", daemon, TunnelDaemon::getRepairCacheEntries)
                .description("packets in the repair cache").tags(tags).register(registry);
    }

    /** The meter of a relay counter. */
    public static String meterName(RelayCounters.Counter counter) {
        return PREFIX + counter.name().toLowerCase(Locale.ROOT).replace('_', '.');
    }
}
