package org.fjm2.jms.transport.norm;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.ObjectTransportFactory;
import org.fjm2.jms.transport.ParameterValues;
import org.fjm2.jms.transport.TransportParameter;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.security.GroupKey;
import org.fjm2.norm.security.PacketProtection;
import org.fjm2.norm.transport.DatagramTransport;
import org.fjm2.norm.transport.LossInjector;
import org.fjm2.norm.transport.LossyTransport;
import org.fjm2.util.Quantities;

/**
 * {@code norm://GROUP:PORT?interface=IF&...}: JMS over NORM reliable multicast (fjm2-norm). Every NORM setting is
 * a URL parameter with the engine's documented default; a bad value is reported naming the parameter.
 */
public final class NormTransportFactory implements ObjectTransportFactory {

    public static final String SCHEME = "norm";

    /** Largest JMS batch or message object, the default of {@code maxObjectSize}. */
    public static final int DEFAULT_MAX_OBJECT_SIZE = 16 * 1024 * 1024;
    /**
     * Sender cache of a JMS connection: smaller than the engine's default, because it is also the most data a
     * publisher has in flight unacknowledged, which a backed-up consumer must absorb before back-pressure bites
     * (see consumerBackPressure); 8 MiB still covers 100 MB/s over an 80 ms acknowledgement round.
     */
    public static final long DEFAULT_CACHE_BYTES = 8L << 20;

    /**
     * How long close() waits at most (30 s) for what was sent to be delivered: it returns as soon as every subscriber
     * heard from within the receiver timeout acknowledged the last message, so it waits long only for subscribers
     * alive and still catching up. 5 s left a subscriber without a publisher's last message in the three-LAN mesh
     * test: on a starved 2-core host the publisher's round trip estimate had grown to 1.5 s, and repairs with it.
     */
    public static final Duration DEFAULT_CLOSE_LINGER = Duration.ofSeconds(30);
    /**
     * Rate ceiling when the URL gives none: with rateControl=auto the publisher finds the speed of the machine and
     * its subscribers below it (slow start, receiver-paced flow control), so a user who sets nothing gets it.
     */
    public static final String DEFAULT_RATE = "10g";

    private static final List<TransportParameter> PARAMETERS = List.of(
            p("interface", "", "Network interface to send and join on (e.g. lo, eth0); empty: the system's choice."),
            p("nodeId", "", "This node's NORM id, 1..4294967294; empty: random."),
            p("ttl", NormConfig.DEFAULT_TTL, "Multicast TTL (1 keeps traffic on the LAN; FJM2D carries it further)."),
            p("loopback", NormConfig.DEFAULT_LOOPBACK, "Deliver to subscribers on this host (multicast loopback)."),
            p("tos", NormConfig.DEFAULT_TOS, "IP TOS byte of every packet (DSCP << 2)."),
            p("rate", DEFAULT_RATE, "Transmit rate in bit/s (k, m, g suffixes): the ceiling with rateControl=auto or adaptive, the rate itself with fixed. Lower it to what a WAN path carries when no NORM-CC is in use."),
            p("rateControl", "auto", "auto: slow start from 20 Mbit/s up to rate, doubling every round trip while subscribers keep up, lowered when they NACK (needs no rate to be known); fixed: always send at rate; adaptive: start at rate, lowered on NACKs and raised while acknowledgements come back clean; cc: NORM-CC congestion control (RFC 5740, TCP-friendly, as NRL NORM's) from 1 Mbit/s up to rate, for links shared with other traffic."),
            p("flowControl", NormConfig.DEFAULT_RECEIVER_FLOW_CONTROL, "Receiver-paced flow control: subscribers report how much their socket buffer holds and the publisher never has more in flight than the fullest one holds, whatever net.core.rmem_max is (a slow subscriber slows the publisher instead of losing datagrams)."),
            p("segmentSize", "auto", "Payload bytes per NORM_DATA datagram, 64..65000; auto: what fills one packet of the interface's MTU (1408 on Ethernet, 65000 on loopback; 1400 without an interface)."),
            p("blockSize", NormConfig.DEFAULT_BLOCK_SIZE, "Source segments per FEC block (1..255)."),
            p("parity", NormConfig.DEFAULT_PARITY, "Reed-Solomon parity segments per block available for repair."),
            p("autoParity", NormConfig.DEFAULT_AUTO_PARITY, "Parity segments sent with every block before any NACK."),
            p("cacheBytes", DEFAULT_CACHE_BYTES, "Sender repair cache bound in bytes (send blocks when full): the most data in flight unacknowledged, so it also bounds what a backed-up consumer must absorb."),
            p("cacheBytesMax", NormConfig.DEFAULT_TX_CACHE_BYTES_MAX, "Most bytes the sender cache may grow to on a long path (it then covers 8 of the subscribers' least round trips at the publisher's pace); 0: no growth. For WAN paths of 100 ms and more (e.g. 32m)."),
            p("cacheObjects", NormConfig.DEFAULT_TX_CACHE_OBJECTS, "Sender repair cache bound in objects."),
            p("maxObjectSize", DEFAULT_MAX_OBJECT_SIZE, "Largest object (message or batch) sent or reassembled."),
            p("receiveBufferBytes", NormConfig.DEFAULT_RECEIVE_BUFFER_BYTES, "Bytes of incomplete objects held for all remote senders together (allocated as data arrives; beyond it the objects that made no progress for longest are given up and reported lost)."),
            p("maxRemoteSenders", NormConfig.DEFAULT_MAX_REMOTE_SENDERS, "Remote senders kept; a new one beyond it replaces the one heard from least recently."),
            p("maxReceivers", NormConfig.DEFAULT_MAX_RECEIVERS, "Receivers a sender tracks for flow control; a new one beyond it replaces the one heard from least recently."),
            p("grtt", seconds(NormConfig.DEFAULT_GRTT_INITIAL), "Initial group round-trip time estimate, seconds."),
            p("backoff", NormConfig.DEFAULT_BACKOFF_FACTOR, "NACK back-off factor (0..15)."),
            p("smallGroupBackoff", NormConfig.DEFAULT_SMALL_GROUP_BACKOFF_FACTOR, "NACK back-off factor a sender "
                    + "advertises while it tracks 1 to " + NormConfig.SMALL_GROUP_RECEIVERS + " receivers (few NACKs to "
                    + "suppress; a long path no longer waits backoff GRTTs per loss); -1: backoff for every group."),
            p("groupSize", NormConfig.DEFAULT_GROUP_SIZE, "Group size estimate advertised to receivers."),
            p("unicastNacks", NormConfig.DEFAULT_UNICAST_NACKS, "Send NACKs to the sender only (no suppression)."),
            p("senderTimeout", seconds(NormConfig.DEFAULT_SENDER_TIMEOUT), "Seconds of silence after which a remote sender is gone."),
            p("receiverTimeout", seconds(NormConfig.DEFAULT_RECEIVER_TIMEOUT), "Seconds of silence after which a subscriber's node is no longer waited for (flow control)."),
            p("windowSilence", seconds(NormConfig.DEFAULT_WINDOW_SILENCE), "Seconds a subscriber's node whose receive window is full may say nothing before the publisher stops pacing for it (flowControl): what a subscriber killed without a word costs the others in delivery gap; a starved one catches up by repairs."),
            p("flowDelay", seconds(NormConfig.DEFAULT_FLOW_DELAY), "Seconds of reading the publisher keeps queued for a subscriber beyond its round trip (flowControl): bounds the queue a large socket buffer would otherwise hold for a slow subscriber, and with it latency and repair times."),
            p("receiverSilence", seconds(NormConfig.DEFAULT_RECEIVER_SILENCE), "Seconds a subscriber's node that answers every acknowledgement round may say nothing before the publisher stops waiting for it (until it is heard again): what a subscriber killed without a word costs the others."),
            p("maxHold", seconds(NormConfig.DEFAULT_MAX_HOLD), "Seconds a sent object waits for slow receivers' acknowledgements."),
            p("receiveBuffer", NormConfig.DEFAULT_RECEIVE_BUFFER, "SO_RCVBUF bytes."),
            p("sendBuffer", NormConfig.DEFAULT_SEND_BUFFER, "SO_SNDBUF bytes."),
            p("netTransport", "auto", "Netty transport: auto (native epoll when it loads), epoll or nio."),
            p("closeLinger", seconds(DEFAULT_CLOSE_LINGER), "Seconds close() waits at most for subscribers heard "
                    + "within the receiver timeout to acknowledge the last message (it returns as soon as they have)."),
            p("security", "none", "Group security of every datagram: none, authenticate (HMAC) or seal (AES-GCM)."),
            p("keyFile", "", "File with the group key (>= 32 bytes, raw or hex; owner-only permissions)."),
            p("rxLoss", "0", "Testing aid: loss of received datagrams (5% or 0.05), seeded by lossSeed."),
            p("txLoss", "0", "Testing aid: loss of sent datagrams (5% or 0.05), seeded by lossSeed."),
            p("lossSeed", "1", "Seed of the injected loss."));

    private static TransportParameter p(String name, Object dflt, String description) {
        return new TransportParameter(name, String.valueOf(dflt), description);
    }

    private static String seconds(Duration d) {
        return String.valueOf(d.toMillis() / 1000.0);
    }

    @Override
    public String scheme() {
        return SCHEME;
    }

    @Override
    public List<TransportParameter> parameters() {
        return PARAMETERS;
    }

    @Override
    public void validate(URI uri, Map<String, String> parameters) {
        config(uri, parameters);
    }

    @Override
    public ObjectTransport create(URI uri, Map<String, String> parameters) throws IOException {
        Settings settings = config(uri, parameters);
        return new NormObjectTransport(settings.config(), settings.transports(), settings.closeLinger());
    }

    /** The engine configuration and transport settings a URL describes. */
    record Settings(NormConfig config, DatagramTransport.Factory transports, Duration closeLinger) {
    }

    static Settings config(URI uri, Map<String, String> p) {
        String host = uri.getHost();
        int port = uri.getPort();
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("group: the URL needs a multicast group, as in norm://239.255.0.1:6003");
        }
        if (port <= 0) {
            throw new IllegalArgumentException("port: the URL needs a port, as in norm://239.255.0.1:6003");
        }
        NormConfig.Builder b = NormConfig.builder(host, port);
        String nif = p.get("interface");
        if (nif != null && !nif.isEmpty()) {
            b.interfaceName(nif);
        }
        String node = p.get("nodeId");
        if (node != null && !node.isEmpty()) {
            b.nodeId((int) ParameterValues.longValue(p, "nodeId", 0, 1, 0xFFFFFFFEL));
        }
        b.ttl(ParameterValues.intValue(p, "ttl", NormConfig.DEFAULT_TTL, 0, 255));
        b.loopback(ParameterValues.booleanValue(p, "loopback", NormConfig.DEFAULT_LOOPBACK));
        b.tos(ParameterValues.intValue(p, "tos", NormConfig.DEFAULT_TOS, 0, 255));
        b.txRate(rate(p.getOrDefault("rate", DEFAULT_RATE)));
        b.rateControl(ParameterValues.enumValue(p, "rateControl", NormConfig.RateControl.class,
                NormConfig.RateControl.AUTO));
        b.receiverFlowControl(ParameterValues.booleanValue(p, "flowControl", NormConfig.DEFAULT_RECEIVER_FLOW_CONTROL));
        String segment = p.getOrDefault("segmentSize", "auto");
        boolean autoSegment = segment.equalsIgnoreCase("auto");
        if (!autoSegment) {
            b.segmentSize((int) ParameterValues.bytesValue(p, "segmentSize", NormConfig.DEFAULT_SEGMENT_SIZE, 64,
                    NormConfig.MAX_SEGMENT_SIZE));
        }
        b.blockSize(ParameterValues.intValue(p, "blockSize", NormConfig.DEFAULT_BLOCK_SIZE, 1, 255));
        b.parity(ParameterValues.intValue(p, "parity", NormConfig.DEFAULT_PARITY, 0, 254));
        b.autoParity(ParameterValues.intValue(p, "autoParity", NormConfig.DEFAULT_AUTO_PARITY, 0, 254));
        b.txCacheBytes(ParameterValues.bytesValue(p, "cacheBytes", DEFAULT_CACHE_BYTES, 1 << 20,
                Long.MAX_VALUE));
        b.txCacheBytesMax(ParameterValues.bytesValue(p, "cacheBytesMax", NormConfig.DEFAULT_TX_CACHE_BYTES_MAX, 0,
                Long.MAX_VALUE));
        b.txCacheObjects(ParameterValues.intValue(p, "cacheObjects", NormConfig.DEFAULT_TX_CACHE_OBJECTS, 1, 16384));
        int maxObject = (int) ParameterValues.bytesValue(p, "maxObjectSize", DEFAULT_MAX_OBJECT_SIZE, 1024,
                Integer.MAX_VALUE - 64);
        b.maxObjectSize(maxObject);
        b.receiveBufferBytes(ParameterValues.bytesValue(p, "receiveBufferBytes", Math.max(
                NormConfig.DEFAULT_RECEIVE_BUFFER_BYTES, maxObject), maxObject, Long.MAX_VALUE));
        b.maxRemoteSenders(ParameterValues.intValue(p, "maxRemoteSenders", NormConfig.DEFAULT_MAX_REMOTE_SENDERS, 1,
                Integer.MAX_VALUE));
        b.maxReceivers(ParameterValues.intValue(p, "maxReceivers", NormConfig.DEFAULT_MAX_RECEIVERS, 1,
                Integer.MAX_VALUE));
        Duration grtt = duration(p, "grtt", NormConfig.DEFAULT_GRTT_INITIAL);
        b.grttInitial(grtt);
        if (grtt.compareTo(NormConfig.DEFAULT_GRTT_MIN) < 0) {
            b.grttMin(grtt);
        }
        b.backoffFactor(ParameterValues.intValue(p, "backoff", NormConfig.DEFAULT_BACKOFF_FACTOR, 0, 15));
        b.smallGroupBackoffFactor(ParameterValues.intValue(p, "smallGroupBackoff",
                NormConfig.DEFAULT_SMALL_GROUP_BACKOFF_FACTOR, -1, 15));
        b.groupSize(ParameterValues.intValue(p, "groupSize", NormConfig.DEFAULT_GROUP_SIZE, 1, Integer.MAX_VALUE));
        b.unicastNacks(ParameterValues.booleanValue(p, "unicastNacks", NormConfig.DEFAULT_UNICAST_NACKS));
        b.senderTimeout(duration(p, "senderTimeout", NormConfig.DEFAULT_SENDER_TIMEOUT));
        b.receiverTimeout(duration(p, "receiverTimeout", NormConfig.DEFAULT_RECEIVER_TIMEOUT));
        b.maxHold(duration(p, "maxHold", NormConfig.DEFAULT_MAX_HOLD));
        b.receiverSilence(duration(p, "receiverSilence", NormConfig.DEFAULT_RECEIVER_SILENCE));
        b.windowSilence(duration(p, "windowSilence", NormConfig.DEFAULT_WINDOW_SILENCE));
        b.flowDelay(duration(p, "flowDelay", NormConfig.DEFAULT_FLOW_DELAY));
        b.receiveBuffer(ParameterValues.intValue(p, "receiveBuffer", NormConfig.DEFAULT_RECEIVE_BUFFER, 1, Integer.MAX_VALUE));
        b.sendBuffer(ParameterValues.intValue(p, "sendBuffer", NormConfig.DEFAULT_SEND_BUFFER, 1, Integer.MAX_VALUE));
        b.transport(p.getOrDefault("netTransport", "auto"));
        long seed = ParameterValues.longValue(p, "lossSeed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        double rxLoss = Quantities.loss("rxLoss", p.getOrDefault("rxLoss", "0"));
        double txLoss = Quantities.loss("txLoss", p.getOrDefault("txLoss", "0"));
        DatagramTransport.Factory transports = LossyTransport.around(
                rxLoss > 0 ? LossInjector.random(rxLoss, seed) : LossInjector.NONE,
                txLoss > 0 ? LossInjector.random(txLoss, seed ^ 0x5DEECE66DL) : LossInjector.NONE);
        String security = p.getOrDefault("security", "none").toLowerCase(Locale.ROOT);
        String keyFile = p.get("keyFile");
        if (!security.equals("none")) {
            PacketProtection.Mode mode;
            if (security.equals("authenticate")) {
                mode = PacketProtection.Mode.AUTHENTICATE;
            } else if (security.equals("seal")) {
                mode = PacketProtection.Mode.SEAL;
            } else {
                throw new IllegalArgumentException("security must be none, authenticate or seal, got '" + security + "'");
            }
            if (keyFile == null || keyFile.isEmpty()) {
                throw new IllegalArgumentException("keyFile: security=" + security + " needs a keyFile");
            }
            try {
                b.protection(mode, GroupKey.fromFile(java.nio.file.Path.of(keyFile)));
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException("keyFile: cannot read " + keyFile + ": " + e.getMessage());
            }
        } else if (keyFile != null && !keyFile.isEmpty()) {
            throw new IllegalArgumentException("keyFile: set security=authenticate or seal to use a key");
        }
        if (autoSegment) {
            b.segmentSize(NormConfig.segmentSizeForInterface(nif, PacketProtection.overhead(b.protectionMode())));
        }
        Duration linger = duration(p, "closeLinger", DEFAULT_CLOSE_LINGER);
        return new Settings(b.build(), transports, linger);
    }

    /** A duration parameter in the common grammar (500ms, 10s; a bare number is seconds), 0..1 day. */
    private static Duration duration(Map<String, String> p, String name, Duration dflt) {
        String text = p.get(name);
        if (text == null || text.isEmpty()) {
            return dflt;
        }
        Duration d = Quantities.duration(name, text);
        if (d.compareTo(Duration.ofDays(1)) > 0) {
            throw new IllegalArgumentException(name + ": must be at most a day, got '" + text + "'");
        }
        return d;
    }

    /** A rate in bit/s in the common grammar (100m, 100mbit, 1g), 8 kbit/s..1 Tbit/s. */
    static long rate(String text) {
        long rate = Quantities.rate("rate", text);
        if (rate < 8000 || rate > 1_000_000_000_000L) {
            throw new IllegalArgumentException("rate: must be 8k..1000g bit/s, got '" + text + "'");
        }
        return rate;
    }
}
