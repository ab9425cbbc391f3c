package org.fjm2.norm.tool;

import java.time.Duration;

import org.fjm2.norm.session.NormConfig;
import org.fjm2.norm.transport.LossInjector;
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
    int segment;

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

    @Option(names = "--loss", paramLabel = "PCT",
            description = "Inject this percentage of random packet loss (testing repair). Default: none.")
    Double lossPercent;

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the injected loss. Default: ${DEFAULT-VALUE}.",
            defaultValue = "1")
    long seed;

    @Option(names = "--grtt", paramLabel = "SECONDS",
            description = "Initial group round-trip time estimate. Default: ${DEFAULT-VALUE}.", defaultValue = "0.01")
    double grtt;

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

    /** A config builder from the options; {@code sending} decides which side the loss applies to. */
    NormConfig.Builder builder(boolean sending) {
        NormConfig.Builder b = NormConfig.builder(host(), port())
                .interfaceName(interfaceName)
                .ttl(ttl)
                .segmentSize(segment)
                .blockSize(block)
                .parity(parity)
                .autoParity(autoParity)
                .unicastNacks(unicastNacks)
                .grttInitial(Duration.ofNanos((long) (grtt * 1e9)));
        if (grtt * 1e9 < NormConfig.DEFAULT_GRTT_MIN.toNanos()) {
            b.grttMin(Duration.ofNanos((long) (grtt * 1e9)));
        }
        if (nodeId != null) {
            if (nodeId < 1 || nodeId > 0xFFFFFFFEL) {
                throw new IllegalArgumentException("--node-id: must be 1..4294967294, got " + nodeId);
            }
            b.nodeId((int) (long) nodeId);
        }
        if (lossPercent != null) {
            if (lossPercent < 0 || lossPercent > 100) {
                throw new IllegalArgumentException("--loss: must be 0..100, got " + lossPercent);
            }
            LossInjector loss = LossInjector.random(lossPercent / 100.0, seed);
            if (sending) {
                b.txLoss(loss);
            } else {
                b.rxLoss(loss);
            }
        }
        return b;
    }

    /** Parses a rate such as 64k, 100m, 1.5g or 250000 (bits per second). */
    static long parseRate(String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        double factor = 1;
        if (t.endsWith("bps")) {
            t = t.substring(0, t.length() - 3);
        } else if (t.endsWith("bit")) {
            t = t.substring(0, t.length() - 3);
        }
        if (t.endsWith("k")) {
            factor = 1e3;
        } else if (t.endsWith("m")) {
            factor = 1e6;
        } else if (t.endsWith("g")) {
            factor = 1e9;
        }
        if (factor != 1) {
            t = t.substring(0, t.length() - 1);
        }
        try {
            double value = Double.parseDouble(t) * factor;
            if (!(value >= 8000)) {
                throw new IllegalArgumentException("--rate: must be at least 8k bit/s, got '" + text + "'");
            }
            return (long) value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--rate: not a rate: '" + text + "' (examples: 64k, 100m, 1g)");
        }
    }
}
