package org.fjm2.testkit.linkem;

import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/**
 * Where departing packets of one direction go: a socket, written to by the emulator's event loop. Writes are
 * batched: the scheduler calls {@link #send} for every due packet, then {@link #flush} once per sink.
 */
abstract class PacketSink {

    /** Set while the sink has unflushed writes in the current batch; owned by the scheduler. */
    boolean flushPending;

    /**
     * Writes one packet; ownership of {@code payload} passes to the sink, which releases it if it cannot send.
     *
     * @param recipient where the packet goes when the sink is not connected to one peer, else null
     */
    abstract void send(ByteBuf payload, InetSocketAddress recipient);

    /** Flushes the writes of the current batch. */
    abstract void flush();

    /** A byte stream's end has reached the far side (TCP mode): half-close towards the destination. */
    void endOfStream() {
        throw new UnsupportedOperationException("not a stream sink");
    }
}
