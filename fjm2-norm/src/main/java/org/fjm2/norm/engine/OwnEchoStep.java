package org.fjm2.norm.engine;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormCounters;

/**
 * Drops our own datagrams looped back by multicast loopback (a process hears its own sends), by source_id: the
 * kernel does it already where the transport attached a socket filter.
 */
final class OwnEchoStep implements InboundStep {

    private final int nodeId;
    private final NormCounters counters;

    OwnEchoStep(int nodeId, NormCounters counters) {
        this.nodeId = nodeId;
        this.counters = counters;
    }

    @Override
    public boolean pass(ByteBuf datagram, InetSocketAddress from) {
        if (datagram.getInt(datagram.readerIndex() + 4) != nodeId) {
            return true;
        }
        counters.increment(Counter.OWN_PACKETS_IGNORED);
        return false;
    }
}
