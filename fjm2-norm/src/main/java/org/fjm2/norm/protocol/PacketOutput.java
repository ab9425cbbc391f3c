package org.fjm2.norm.protocol;

import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Where the protocol state machines put the datagrams they build. Implemented by the session over its transport:
 * writes are batched and flushed once per event-loop pass (sendmmsg on epoll).
 */
public interface PacketOutput {

    /** A pooled buffer for one datagram of up to {@code capacity} bytes. */
    ByteBuf allocate(int capacity);

    /**
     * A pooled heap buffer for object data (reassembly containers, parity): heap so that FEC works on its array in
     * place and so that receive buffers count against the heap, not the smaller direct-memory budget.
     */
    ByteBuf allocateHeap(int capacity);

    /** The pool both come from (composites of received chunks). */
    ByteBufAllocator allocator();

    /**
     * Whether {@link #gather} can be used: the transport sends a header and a payload slice as one datagram without
     * copying them into one buffer (a gathering write), and nothing rewrites the datagram on its way out.
     */
    boolean gathersWrites();

    /**
     * One datagram of {@code header} followed by {@code payload} (takes ownership of both), for
     * {@link #sendToGroup} when {@link #gathersWrites()}. The payload must not change until the datagram is released.
     */
    ByteBuf gather(ByteBuf header, ByteBuf payload);

    /** Sends a datagram to the session's group (takes ownership of the buffer). */
    void sendToGroup(ByteBuf datagram);

    /** Sends a datagram to one node (takes ownership of the buffer). */
    void sendTo(ByteBuf datagram, InetSocketAddress destination);

    /**
     * Sends what is queued now instead of at the end of the event-loop pass: for the rare datagram a peer waits on
     * while this pass may still take long (a receiver's first flow report, before it works through the read batch).
     */
    void flushNow();
}
