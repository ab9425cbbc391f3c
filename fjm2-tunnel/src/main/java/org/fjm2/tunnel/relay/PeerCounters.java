package org.fjm2.tunnel.relay;

import org.fjm2.norm.util.EnumCounters;

/**
 * Counters of one peer (see fjm2-norm's {@link EnumCounters} for the threading).
 */
public final class PeerCounters extends EnumCounters<PeerCounters.Counter> {

    /** What is counted per peer. */
    public enum Counter {
        /** Authentic datagrams received from the peer, and their bytes. */
        PACKETS_IN, BYTES_IN,
        /** Datagrams sent to the peer, and their bytes. */
        PACKETS_OUT, BYTES_OUT,
        /** Frames refused by the peer's full pacing queue (NORM repair recovers them). */
        QUEUE_DROPS,
        /** NORM data sent to the peer from the repair cache, answering NACKs that came from it. */
        REPAIRS_SERVED,
        KEEPALIVES_IN, KEEPALIVES_OUT
    }

    PeerCounters() {
        super(Counter.class);
    }
}
