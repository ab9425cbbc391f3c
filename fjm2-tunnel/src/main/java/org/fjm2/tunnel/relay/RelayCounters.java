package org.fjm2.tunnel.relay;

import org.fjm2.norm.util.EnumCounters;

/**
 * The daemon's counters (per-peer ones are in {@link PeerCounters}; threading in fjm2-norm's {@link EnumCounters}). Every
 * drop has its counter: nothing is lost in silence.
 */
public final class RelayCounters extends EnumCounters<RelayCounters.Counter> {

    /** What is counted. */
    public enum Counter {
        /** NORM packets heard on the LAN (group or unicast feedback), and their bytes. */
        LAN_PACKETS_IN, LAN_BYTES_IN,
        /** NORM packets re-emitted on the LAN, and their bytes. */
        LAN_PACKETS_OUT, LAN_BYTES_OUT,
        /** Our own re-emissions heard back through multicast loopback (recognised by source address and port). */
        OWN_ECHOES,
        /** Packets already handled (a loop in the mesh, or a second path): dropped. */
        DUPLICATES,
        /** LAN packets and opened tunnel payloads that are not well-formed NORM: dropped. */
        MALFORMED,
        /** Tunnel datagrams that failed: too short, wrong version, bad MAC, sealed payload that did not open. */
        AUTH_TRUNCATED, AUTH_BAD_VERSION, AUTH_BAD_MAC, AUTH_BAD_SEAL,
        /** Authentic tunnel datagrams refused as replays: outside the clock window, or counter already seen. */
        REPLAY_STALE, REPLAY_SEEN,
        /** Authentic datagrams from a daemon that is not a peer (with unlisted peers refused). */
        UNKNOWN_PEER,
        /** Datagrams on the WAN port that are no tunnel traffic and no valid admin advertisement. */
        FOREIGN_DATAGRAMS,
        /** Feedback for a sender on our own LAN: left to the sender (not forwarded). */
        FEEDBACK_LOCAL,
        /** Feedback that could not be routed towards its sender (transit off): dropped. */
        FEEDBACK_UNROUTABLE,
        /** NACKs answered completely from the repair cache (not forwarded), or partly (forwarded rewritten). */
        NACKS_ANSWERED, NACKS_REWRITTEN,
        /** NORM data served from the repair cache, to the LAN or to peers. */
        REPAIRS_SERVED,
        /** Packets lost because a socket write failed. */
        SEND_ERRORS,
        /**
         * NORM packets whose tunnel frame would not fit one UDP datagram (a LAN segment size larger than the tunnel
         * carries): dropped. Give the LAN's senders a smaller segment size.
         */
        OVERSIZE
    }

    RelayCounters() {
        super(Counter.class);
    }

    /** Sum of the authentication and replay drops. */
    public long rejected() {
        return get(Counter.AUTH_TRUNCATED) + get(Counter.AUTH_BAD_VERSION) + get(Counter.AUTH_BAD_MAC)
                + get(Counter.AUTH_BAD_SEAL) + get(Counter.REPLAY_STALE) + get(Counter.REPLAY_SEEN)
                + get(Counter.UNKNOWN_PEER);
    }
}
