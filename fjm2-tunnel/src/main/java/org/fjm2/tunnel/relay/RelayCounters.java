package org.fjm2.tunnel.relay;

import java.util.List;
import org.fjm2.norm.util.EnumCounters;

/**
 * The daemon's counters (per-peer ones are in {@link PeerCounters}; threading in fjm2-norm's {@link EnumCounters}).
 * Every drop has its counter: nothing is lost in silence.
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
        /** Authentic frames addressed to another daemon (a frame replayed from elsewhere): refused. */
        WRONG_DESTINATION,
        /** Authentic frames that claim this daemon's own node id: another daemon has the same id. Refused. */
        NODE_ID_CLASH,
        /** Answers to a hello we did not send to that address (late, or replayed from elsewhere): refused. */
        UNEXPECTED_REPLY,
        /** Authentic frames of an unknown type, or hellos and answers without their challenge: refused. */
        BAD_CONTROL,
        /** Authentic datagrams from a daemon that is not a peer (with unlisted peers refused, or too many). */
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

    /** The refusals of tunnel datagrams, each with its reason (their sum is {@link #rejected()}). */
    public static final List<Counter> REFUSALS = List.of(Counter.AUTH_TRUNCATED, Counter.AUTH_BAD_VERSION,
            Counter.AUTH_BAD_MAC, Counter.AUTH_BAD_SEAL, Counter.REPLAY_STALE, Counter.REPLAY_SEEN,
            Counter.WRONG_DESTINATION, Counter.NODE_ID_CLASH, Counter.UNEXPECTED_REPLY, Counter.BAD_CONTROL,
            Counter.UNKNOWN_PEER);

    RelayCounters() {
        super(Counter.class);
    }

    /** Sum of the refused tunnel datagrams (authentication, replay, destination, identity, control, unknown peer). */
    public long rejected() {
        long sum = 0;
        for (Counter c : REFUSALS) {
            sum += get(c);
        }
        return sum;
    }

    /** The non-zero refusals, {@code reason n, ...}; empty when there are none. */
    public String refusals() {
        StringBuilder sb = new StringBuilder();
        for (Counter c : REFUSALS) {
            long v = get(c);
            if (v != 0) {
                sb.append(sb.length() == 0 ? "" : ", ").append(c.name().toLowerCase(java.util.Locale.ROOT)).append(' ')
                        .append(v);
            }
        }
        return sb.toString();
    }
}
