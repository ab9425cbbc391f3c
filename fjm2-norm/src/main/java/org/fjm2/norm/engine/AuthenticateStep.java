package org.fjm2.norm.engine;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.security.PacketProtection;
import org.fjm2.norm.util.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Group security: strips a datagram's protection, or drops it (forged, replayed, too old), counted and logged. */
final class AuthenticateStep implements InboundStep {

    private static final Logger LOG = LoggerFactory.getLogger(AuthenticateStep.class);

    private final PacketProtection protection;
    private final NormCounters counters;
    private final LogLimiter refusedLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);

    AuthenticateStep(PacketProtection protection, NormCounters counters) {
        this.protection = protection;
        this.counters = counters;
    }

    @Override
    public boolean pass(ByteBuf datagram, InetSocketAddress from) {
        if (protection.unprotect(datagram)) {
            return true;
        }
        PacketProtection.Refusal why = protection.lastRefusal();
        switch (why) {
            case REPLAYED:
                counters.increment(Counter.REPLAYS_DROPPED);
                break;
            case TOO_OLD:
                counters.increment(Counter.STALE_DROPPED);
                break;
            default:
                counters.increment(Counter.UNAUTHENTIC_DROPPED);
                break;
        }
        if (refusedLog.allow()) {
            LOG.warn("dropped a datagram from {}: {} ({} more refused since the last line)", from, describe(why),
                    refusedLog.takeSuppressed());
        }
        return false;
    }

    private static String describe(PacketProtection.Refusal why) {
        switch (why) {
            case TOO_OLD:
                return "authentic but dated more than " + PacketProtection.DEFAULT_MAX_AGE.toMinutes()
                        + " min ago (a replayed capture, or the sender's clock lags ours)";
            case REPLAYED:
                return "a replay";
            default:
                return "not authentic under the group key (" + why.name().toLowerCase().replace('_', ' ') + ")";
        }
    }
}
