package org.fjm2.norm.engine;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.protocol.PacketOutput;
import org.fjm2.norm.security.PacketProtection;
import org.fjm2.norm.transport.DatagramTransport;

/**
 * A session's way out: every datagram is counted, protected under the group key when group security is on, and
 * queued on the transport (flushed once per event-loop pass). Buffers come with room for the protection.
 */
final class OutboundPath implements PacketOutput {

    private final DatagramTransport transport;
    private final PacketProtection protection;
    private final int protectionOverhead;
    private final NormCounters counters;

    OutboundPath(DatagramTransport transport, PacketProtection protection, NormCounters counters) {
        this.transport = transport;
        this.protection = protection;
        this.protectionOverhead = protection == null ? 0 : protection.overhead();
        this.counters = counters;
    }

    @Override
    public ByteBuf allocate(int capacity) {
        return transport.allocate(capacity + protectionOverhead);
    }

    @Override
    public ByteBuf allocateHeap(int capacity) {
        return transport.allocator().heapBuffer(capacity);
    }

    @Override
    public ByteBufAllocator allocator() {
        return transport.allocator();
    }

    @Override
    public boolean gathersWrites() {
        // Protection seals the datagram in place.
        return protection == null && transport.gathersWrites();
    }

    @Override
    public ByteBuf gather(ByteBuf header, ByteBuf payload) {
        return transport.allocator().compositeDirectBuffer(2).addComponents(true, header, payload);
    }

    @Override
    public void sendToGroup(ByteBuf datagram) {
        prepare(datagram);
        transport.writeToGroup(datagram);
    }

    @Override
    public void sendTo(ByteBuf datagram, InetSocketAddress destination) {
        prepare(datagram);
        transport.writeTo(datagram, destination);
    }

    @Override
    public void flushNow() {
        transport.flush();
    }

    private void prepare(ByteBuf datagram) {
        counters.increment(Counter.PACKETS_SENT);
        counters.add(Counter.BYTES_SENT, datagram.readableBytes());
        if (protection != null) {
            protection.protect(datagram);
        }
    }
}
