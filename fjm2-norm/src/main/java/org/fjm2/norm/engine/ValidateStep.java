package org.fjm2.norm.engine;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.codec.NormPacketValidator;
import org.fjm2.norm.codec.PacketError;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Drops (and counts) a datagram that is not a well-formed NORM message: every later step reads it unchecked. */
final class ValidateStep implements InboundStep {

    private static final Logger LOG = LoggerFactory.getLogger(ValidateStep.class);

    private final NormCounters counters;

    ValidateStep(NormCounters counters) {
        this.counters = counters;
    }

    @Override
    public boolean pass(ByteBuf datagram, InetSocketAddress from) {
        PacketError error = NormPacketValidator.validate(datagram);
        if (error == null) {
            return true;
        }
        counters.increment(Counter.MALFORMED_DROPPED);
        if (LOG.isDebugEnabled()) {
            LOG.debug("dropped datagram of {} bytes from {}: {}", datagram.readableBytes(), from, error);
        }
        return false;
    }
}
