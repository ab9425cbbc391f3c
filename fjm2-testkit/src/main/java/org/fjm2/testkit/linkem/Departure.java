package org.fjm2.testkit.linkem;

import io.netty.buffer.ByteBuf;

import java.net.InetSocketAddress;

/** A packet waiting in the delay line for its departure time; entries are pooled by {@link DepartureQueue}. */
final class Departure {
    long due;
    long sequence;
    /** The packet, or null for a TCP end-of-stream marker. */
    ByteBuf payload;
    PacketSink sink;
    InetSocketAddress recipient;
    DirectionCounters counters;

    void clear() {
        payload = null;
        sink = null;
        recipient = null;
        counters = null;
    }
}
