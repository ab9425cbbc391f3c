package org.fjm2.tunnel.relay;

import io.netty.buffer.ByteBuf;
import java.net.InetSocketAddress;

/**
 * Another FJM2D daemon: where to send (the address last heard from, so NAT mappings and moves are followed), its
 * sender tag once known, its pacer and its counters. Owned by the relay's event loop.
 */
public final class Peer {

    private final String name;
    private final boolean listed;
    private InetSocketAddress address;
    private int tag;
    private final WanPacer pacer;
    private final PeerCounters counters = new PeerCounters();
    final WanPacer.Sink sink;
    long lastHeardNanos;
    long lastSentNanos;
    private volatile long lastHeardMillis;

    Peer(String name, boolean listed, InetSocketAddress address, int tag, WanPacer pacer, Relay relay) {
        this.name = name;
        this.listed = listed;
        this.address = address;
        this.tag = tag;
        this.pacer = pacer;
        this.sink = frame -> {
            counters.increment(PeerCounters.Counter.PACKETS_OUT);
            counters.add(PeerCounters.Counter.BYTES_OUT, frame.readableBytes());
            if (!relay.output().sendToPeer(frame, this.address)) {
                relay.sendError(name);
            }
        };
    }

    /** The peer's name: its node id in FJM2-Admin, or host:port for a static or learned peer. */
    public String name() {
        return name;
    }

    /** Whether the peer was configured (statically or by the admin), not learned from its traffic. */
    public boolean listed() {
        return listed;
    }

    public InetSocketAddress address() {
        return address;
    }

    void address(InetSocketAddress address) {
        this.address = address;
    }

    /** The sender tag its frames carry; 0 until known. */
    public int tag() {
        return tag;
    }

    void tag(int tag) {
        this.tag = tag;
    }

    WanPacer pacer() {
        return pacer;
    }

    public PeerCounters counters() {
        return counters;
    }

    /** Wall-clock time of the last authentic datagram from the peer (0: never). */
    public long lastHeardMillis() {
        return lastHeardMillis;
    }

    void heard(long nowNanos) {
        lastHeardNanos = nowNanos;
        lastHeardMillis = System.currentTimeMillis();
    }

    /** Queued bytes waiting for the pacer (event loop only; approximate elsewhere). */
    public long queuedBytes() {
        return pacer.queuedBytes();
    }

    boolean offer(ByteBuf frame, boolean urgent) {
        return pacer.offer(frame, urgent);
    }

    @Override
    public String toString() {
        String at = (address.isUnresolved() ? address.getHostString() : address.getAddress().getHostAddress()) + ":"
                + address.getPort();
        return name.equals(at) ? at : name + "@" + at;
    }
}
