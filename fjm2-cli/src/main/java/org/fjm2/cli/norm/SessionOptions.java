package org.fjm2.cli.norm;

import java.time.Duration;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.DatagramTransport;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.fjm2.util.Quantities;
import picocli.CommandLine.Option;

/** Options every {@code fjm2 norm} command shares: where the group is and how the session behaves. */
public final class SessionOptions {

    @Option(names = "--group", required = true, paramLabel = "GROUP:PORT",
            description = "Multicast group and UDP port, e.g. 239.255.0.1:6003.")
    String group;

    @Option(names = "--interface", paramLabel = "IF",
            description = "Network interface to send and join on (e.g. lo, eth0). Default: the system's choice.")
    String interfaceName;

    @Option(names = "--node-id", paramLabel = "ID",
            description = "This node's NORM id (1..4294967294). Default: random.")
    Long nodeId;

    @Option(names = "--ttl", paramLabel = "N", description = "Multicast TTL. Default: ${DEFAULT-VALUE}.",
            defaultValue = "1")
    int ttl;

    @Option(names = "--segment", paramLabel = "BYTES",
            description = "Segment (payload) size per datagram. Default: ${DEFAULT-VALUE}.", defaultValue = "1400")
    String segment;

    @Option(names = "--block", paramLabel = "K", description = "Source segments per FEC block. Default: ${DEFAULT-VALUE}.",
            defaultValue = "64")
    int block;

    @Option(names = "--parity", paramLabel = "N",
            description = "Parity segments per block available for repair (Reed-Solomon). Default: ${DEFAULT-VALUE}.",
            defaultValue = "0")
    int parity;

    @Option(names = "--auto-parity", paramLabel = "N",
            description = "Parity segments sent with every block before any NACK (<= --parity). Default: ${DEFAULT-VALUE}.",
            defaultValue = "0")
    int autoParity;

    @Option(names = "--loss", paramLabel = "LOSS",
            description = "Inject seeded random packet loss, e.g. 10%% or 0.1 (testing repair). Default: none.")
    String loss;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the injected loss. Default: ${DEFAULT-VALUE}.",
            defaultValue = "1")
    long seed;

    @Option(names = "--grtt", paramLabel = "DURATION",
            description = "Initial group round-trip time estimate (10ms; a bare number is seconds). Default:"
                    + " ${DEFAULT-VALUE}.", defaultValue = "10ms")
    String grtt;

    @Option(names = "--unicast-nacks", description = "Send NACKs to the sender only, not to the group.")
    boolean unicastNacks;

    /** Host part of --group. */
    String host() {
        int colon = group.lastIndexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("--group: expected GROUP:PORT, got '" + group + "'");
        }
        return group.substring(0, colon);
    }

    int port() {
        int colon = group.lastIndexOf(':');
        try {
            return Integer.parseInt(group.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--group: bad port in '" + group + "'");
        }
    }

    /** A config builder from the options. */
    NormConfig.Builder builder() {
        long segmentBytes = Quantities.bytes("--segment", segment);
        if (segmentBytes > NormConfig.MAX_SEGMENT_SIZE) {
            throw new IllegalArgumentException("--segment: at most " + NormConfig.MAX_SEGMENT_SIZE + " bytes, got '"
                    + segment + "'");
        }
        Duration grttInitial = Quantities.duration("--grtt", grtt);
        NormConfig.Builder b = NormConfig.builder(host(), port())
                .interfaceName(interfaceName)
                .ttl(ttl)
                .segmentSize((int) segmentBytes)
                .blockSize(block)
                .parity(parity)
                .autoParity(autoParity)
                .unicastNacks(unicastNacks)
                .grttInitial(grttInitial);
        if (grttInitial.compareTo(NormConfig.DEFAULT_GRTT_MIN) < 0) {
            b.grttMin(grttInitial);
        }
        if (nodeId != null) {
            if (nodeId < 1 || nodeId > 0xFFFFFFFEL) {
                throw new IllegalArgumentException("--node-id: must be 1..4294967294, got " + nodeId);
            }
            b.nodeId((int) (long) nodeId);
        }
        return b;
    }

    /** The session's transports: sockets, with the injected loss on the sending or the receiving side. */
    DatagramTransport.Factory transports(boolean sending) {
        if (loss == null) {
            return DatagramTransport.Factory.SOCKETS;
        }
        LossInjector injected = LossInjector.random(Quantities.loss("--loss", loss), seed);
        return sending ? LossyTransport.around(null, injected) : LossyTransport.around(injected, null);
    }

    /** A --timeout: 0 is no limit (Long.MAX_VALUE), else System.nanoTime() at which to give up. */
    static long deadline(String option, String text) {
        Duration timeout = Quantities.duration(option, text);
        return timeout.isZero() ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
    }

    /** Parses a rate in bit/s in the common grammar (64k, 100m, 100mbit, 1g), at least 8 kbit/s. */
    static long parseRate(String text) {
        long rate = Quantities.rate("--rate", text);
        if (rate < 8000) {
            throw new IllegalArgumentException("--rate: must be at least 8k bit/s, got '" + text + "'");
        }
        return rate;
    }
}
