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
        /** Datagrams sent to the peer (data, hellos and answers), and their bytes. */
        PACKETS_OUT, BYTES_OUT,
        /** Frames refused by the peer's full pacing queue (NORM repair recovers them). */
        QUEUE_DROPS,
        /** NORM packets not sent to the peer because it has not answered a hello yet, or fell silent. */
        WITHHELD,
        /** NORM data sent to the peer from the repair cache, answering NACKs that came from it. */
        REPAIRS_SERVED,
        /** Hellos (challenges; the keepalive) received from the peer and sent to it. */
        HELLOS_IN, HELLOS_OUT,
        /** Answers to hellos received from the peer (echoing our challenge) and sent to it. */
        REPLIES_IN, REPLIES_OUT
    }

    PeerCounters() {
        super(Counter.class);
    }
}
