package org.fjm2.norm.api;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;


/**
 * Every setting of a NORM session, each a documented constant with its default. Immutable; built with
 * {@link #builder(String, int)}. Sizes are bytes, rates bits per second, times {@link Duration}s.
 */
public final class NormConfig {

    // ---- network -------------------------------------------------------------------------------------------------
    /** Multicast TTL: 1 keeps traffic on the LAN (FJM2D carries it further). */
    public static final int DEFAULT_TTL = 1;
    /** Hear our own group on this host, so publishers and subscribers can share a machine. */
    public static final boolean DEFAULT_LOOPBACK = true;
    /** IP TOS byte (DSCP << 2); 0 leaves packets unmarked. */
    public static final int DEFAULT_TOS = 0;
    /** SO_RCVBUF: bursts at line rate overflow the OS default. */
    public static final int DEFAULT_RECEIVE_BUFFER = 8 * 1024 * 1024;
    /** SO_SNDBUF. */
    public static final int DEFAULT_SEND_BUFFER = 2 * 1024 * 1024;
    /** Receivers multicast their NACKs so that others can suppress theirs; unicast only talks to the sender. */
    public static final boolean DEFAULT_UNICAST_NACKS = false;

    // ---- sender --------------------------------------------------------------------------------------------------
    /** Payload bytes per NORM_DATA: 1400 + headers stays under a 1500-byte Ethernet MTU. */
    public static final int DEFAULT_SEGMENT_SIZE = 1400;
    /**
     * Largest segment size: the NORM headers, group security and the segment must fit one UDP datagram (65,507
     * bytes over IPv4). Only worth it where the path's MTU is that large (loopback) or with jumbo frames.
     */
    public static final int MAX_SEGMENT_SIZE = 65_000;
    /** Room a sender keeps for the NORM_DATA headers (common, FEC payload id, FTI extension) around a segment. */
    public static final int DATAGRAM_HEADER_ROOM = 64;
    /** IPv4 and UDP header bytes. */
    static final int IP_UDP_HEADERS = 28;
    /** Source segments per FEC block (B, at most 255 for RS8). */
    public static final int DEFAULT_BLOCK_SIZE = 64;
    /** Parity segments per block available for repair (0 = repair by retransmission only). */
    public static final int DEFAULT_PARITY = 0;
    /** Parity segments sent proactively after each block, before any NACK. */
    public static final int DEFAULT_AUTO_PARITY = 0;
    /** Paced transmit rate. Set it to what the path carries: unpaced bursts are lost at the first bottleneck. */
    public static final long DEFAULT_TX_RATE = 100_000_000L;
    /** How the sender's rate is controlled. */
    public enum RateControl {
        /** Always the configured rate. */
        FIXED,
        /**
         * The configured rate is a ceiling: the rate drops when receivers NACK and climbs back while watermark rounds
         * come back clean (flow control against receiver overrun; see {@code AdaptiveRateController}).
         */
        ADAPTIVE,
        /**
         * The configured rate is a ceiling reached by slow start: the rate begins low and doubles every round trip
         * while the receivers keep up, drops when they NACK, then climbs additively (see
         * {@code AutoRateController}). With receiver-paced flow control this gets a machine's speed without knowing
         * it in advance.
         */
        AUTO,
        /**
         * NORM-CC congestion control (RFC 5740 section 5.5, interoperable with NRL NORM's): slow start, then the
         * TCP-friendly rate of the limiting receiver, computed from the loss and round trip receivers report; the
         * configured rate is the ceiling, {@code CcRateController.MIN_BITS_PER_SECOND} the floor, and receiver-paced
         * flow control still applies below it (see {@code CcRateController}). For links shared with TCP and lossy
         * WAN paths.
         */
        CC
    }
    /**
     * Receiver-paced flow control: the sender offers it in its probes, FJM2 receivers report how much their socket
     * buffer holds, and the sender never has more of its messages in flight than the fullest receiver can hold —
     * whatever the kernel's socket buffer cap — so a slow receiver slows the sender instead of dropping datagrams.
     * Receivers that do not report (NRL NORM) are not waited for this way.
     */
    public static final boolean DEFAULT_RECEIVER_FLOW_CONTROL = true;
    /** Fixed: the configured rate is what the sender sends at, as NORM without congestion control does. */
    public static final RateControl DEFAULT_RATE_CONTROL = RateControl.FIXED;
    /**
     * Repair cache bound in bytes: data the sender keeps for repairs (and queued, not yet sent). Half the receivers'
     * {@link #DEFAULT_RECEIVE_BUFFER_BYTES}: what a receiver holds incomplete lies within the sender's cache (it
     * holds everything from the oldest object some receiver lacks), so a cache below the receive budget means a
     * receiver waiting for repairs is never forced to give up objects while the sender runs ahead (with equal
     * bounds, three receivers losing 10% each gave up objects once flow control let the sender keep its cache full).
     */
    public static final long DEFAULT_TX_CACHE_BYTES = 32L * 1024 * 1024;
    /**
     * Most bytes the repair cache may grow to on a long path (the sender's byte bound then covers 8 of its receivers'
     * least round trips at its pace: see {@code PathCache}); 0 (the default), or anything at or below the cache
     * bound: no growth. Opt-in: on a loaded 2-core host the least round trip measured to a loopback receiver reached
     * tens of milliseconds, which grew a LAN sender's cache past the bound an application set for its memory.
     */
    public static final long DEFAULT_TX_CACHE_BYTES_MAX = 0;
    /** Repair cache bound in objects (object ids are 16 bits, so it stays well below 32768). */
    public static final int DEFAULT_TX_CACHE_OBJECTS = 4096;
    /**
     * An object leaves the repair cache only after this many receiver repair cycles (each (3 x backoff + 3) x GRTT)
     * without NACK or transmission, so receivers get their repair rounds: with a full cache, {@code enqueue} then
     * blocks instead of evicting.
     */
    public static final double DEFAULT_HOLD_FACTOR = 3.0;
    /**
     * Lower bound of that hold time: receivers that lag (busy CPU, deep socket queues) NACK late, and the GRTT
     * estimate catches up with their lag only at the next probe.
     */
    public static final Duration DEFAULT_HOLD_MIN = Duration.ofMillis(500);
    /**
     * Longest a sent object is kept for a receiver that has not acknowledged it, while the application waits for
     * room: a receiver that cannot keep up (or hears nothing) then loses the object, and is told so, instead of
     * stalling every other receiver for ever.
     */
    public static final Duration DEFAULT_MAX_HOLD = Duration.ofSeconds(10);
    /** FLUSH repetitions at the end of transmission (RFC 5740 robust factor). */
    public static final int DEFAULT_ROBUST_FACTOR = 20;
    /** Largest object a sender accepts and a receiver reassembles. */
    public static final int DEFAULT_MAX_OBJECT_SIZE = 64 * 1024 * 1024;

    // ---- timing --------------------------------------------------------------------------------------------------
    /** Group round-trip time assumed before any measurement (LAN-sized; probes correct it within a second). */
    public static final Duration DEFAULT_GRTT_INITIAL = Duration.ofMillis(10);
    /** Lower bound of the advertised GRTT. */
    public static final Duration DEFAULT_GRTT_MIN = Duration.ofMillis(1);
    /** Upper bound of the advertised GRTT. */
    public static final Duration DEFAULT_GRTT_MAX = Duration.ofSeconds(10);
    /** NACK back-off factor (RFC 5740 recommends 4 for multicast). */
    public static final int DEFAULT_BACKOFF_FACTOR = 4;
    /**
     * NACK back-off factor a sender advertises instead of {@link #backoffFactor} while it tracks between 1 and
     * {@link #SMALL_GROUP_RECEIVERS} receivers; -1 (the default): none, the backoff factor applies to every group.
     * Spreading NACKs over several GRTTs lets one of many receivers suppress the rest; a few receivers have little to
     * suppress, and on a long path every loss waits that long for nothing (100 Mbit/s, 200 ms round trip, 5% loss:
     * 1.44 MB/s with 4, 4.15 MB/s with 0). Not the default yet: with 0, two runs of the tunnel suite each lost
     * objects in a mesh or tunnel test, a cause not traced.
     */
    public static final int DEFAULT_SMALL_GROUP_BACKOFF_FACTOR = -1;
    /** The most receivers a sender tracks for which it advertises {@link #smallGroupBackoffFactor}. */
    public static final int SMALL_GROUP_RECEIVERS = 4;
    /** Group size estimate advertised to receivers, which scales their NACK back-off distribution. */
    public static final int DEFAULT_GROUP_SIZE = 1000;
    /** First interval between GRTT probes (NORM_CMD(CC)); it grows by half each probe up to the maximum. */
    public static final Duration DEFAULT_PROBE_INTERVAL_MIN = Duration.ofMillis(500);
    public static final Duration DEFAULT_PROBE_INTERVAL_MAX = Duration.ofSeconds(5);

    // ---- receiver ------------------------------------------------------------------------------------------------
    /**
     * Bytes a session's receivers hold for incomplete objects of all remote senders together (data, parity,
     * bookkeeping, all allocated as datagrams arrive): beyond it the objects that made no progress for longest are
     * given up, and reported lost (RECEIVER_OVERRUN). It bounds what any sender, honest or forged, can make a
     * receiver hold; keep it at least {@link #DEFAULT_MAX_OBJECT_SIZE}.
     */
    public static final long DEFAULT_RECEIVE_BUFFER_BYTES = 64L * 1024 * 1024;
    /**
     * Most bytes a receiver holds for one remote sender's stream (NORM_OBJECT_STREAM) between the bytes it delivered
     * and the newest it heard: the window of stream blocks it keeps for reordering, repair and FEC decoding is the
     * sender's announced stream buffer, capped to this. A sender that runs further ahead makes the receiver skip
     * (a gap). Charged to the receive buffer ({@link #DEFAULT_RECEIVE_BUFFER_BYTES}) too, and never more than it.
     */
    public static final long DEFAULT_STREAM_BUFFER_BYTES = 16L * 1024 * 1024;
    /**
     * Remote senders a session keeps state for; a new one beyond it replaces the one heard from least recently
     * (senders that stop are forgotten after {@link #DEFAULT_SENDER_TIMEOUT} anyway).
     */
    public static final int DEFAULT_MAX_REMOTE_SENDERS = 1024;
    /**
     * Receivers a sender tracks for acknowledgement-based flow control; a new one beyond it replaces the one heard
     * from least recently.
     */
    public static final int DEFAULT_MAX_RECEIVERS = 1024;
    /**
     * Objects per remote sender a receiver tracks ahead of its oldest incomplete one; keep it above the senders'
     * cache size in objects, or a receiver gives up objects the sender could still repair.
     */
    public static final int DEFAULT_RX_WINDOW_OBJECTS = 8192;
    /** A remote sender silent this long is gone: its incomplete objects are reported lost and its state freed. */
    public static final Duration DEFAULT_SENDER_TIMEOUT = Duration.ofSeconds(10);
    /**
     * A receiver the sender tracks (it was heard from) and that has said nothing for this long, while two
     * acknowledgement rounds asked it, is no longer waited for: a receiver that died without a word then stalls
     * publishers once, for at most this long. Keep it above the longest pause a live receiver may have (GC, an
     * outage of the link) — and above the probe interval maximum, since a receiver holding its acknowledgements
     * (a backed-up application) still answers probes.
     */
    public static final Duration DEFAULT_RECEIVER_TIMEOUT = Duration.ofSeconds(6);
    /**
     * A tracked FJM2 receiver that says nothing at all for this long (and for at least
     * {@link #RECEIVER_SILENCE_GRTTS} GRTTs) while an acknowledgement round waits for it is no longer waited for,
     * until it is heard again: a receiver that died (kill -9) then holds the others back for this long, not for the
     * receiver timeout. A live FJM2 receiver answers a round within a GRTT or two: it acknowledges, or, when data is
     * missing or its application is behind, says every 20 ms that it is alive (so it keeps its back-pressure). NRL
     * NORM receivers say nothing until they can acknowledge, so they are left to the receiver timeout. The default
     * leaves room for a receiver descheduled on a loaded host (a receiver suspended while alive may miss objects the
     * sender could not keep for it); on dedicated hosts 200 ms is safe.
     */
    public static final Duration DEFAULT_RECEIVER_SILENCE = Duration.ofSeconds(1);
    /**
     * A receiver that reports its window (receiver-paced flow control), whose window is full and that says nothing
     * for this long (or 8 of its usual gaps between reports, or twice its longest recent pause, when longer) is no
     * longer paced for until it reports again: a live FJM2 receiver reports every few milliseconds while data reaches
     * it, so this silence means it died (the living then see this much of a gap, not the receiver silence) or is
     * starved of CPU (it then catches up by repairs: the cache still keeps what it has not acknowledged until the
     * receiver silence).
     */
    public static final Duration DEFAULT_WINDOW_SILENCE = Duration.ofMillis(150);
    /**
     * Receiver-paced flow control keeps at most about this much queued for a receiver beyond its path's round trip:
     * its window is bounded by what it reads in its least round-trip time plus this delay (at least 512 KiB). A
     * socket buffer of many megabytes filled for a receiver that reads slowly would otherwise be a queue of seconds
     * that every probe, NACK and repair waits in. Longer lets a receiver starved of CPU for longer moments keep its
     * pace; shorter keeps latency and repair times lower.
     */
    public static final Duration DEFAULT_FLOW_DELAY = Duration.ofMillis(25);
    /** The least silence, in GRTTs, that suspends a receiver (a WAN's round trip is longer than the default). */
    public static final int RECEIVER_SILENCE_GRTTS = 8;

    /**
     * The segment size that fills one IP packet of an interface without fragmentation: its MTU less the IP and UDP
     * headers, the NORM header room and {@code protectionOverhead}, within 64..{@link #MAX_SEGMENT_SIZE};
     * {@link #DEFAULT_SEGMENT_SIZE} when the interface is not named or its MTU cannot be read.
     */
    public static int segmentSizeForInterface(String interfaceName, int protectionOverhead) {
        if (interfaceName == null || interfaceName.isEmpty()) {
            return DEFAULT_SEGMENT_SIZE;
        }
        try {
            java.net.NetworkInterface nif = java.net.NetworkInterface.getByName(interfaceName);
            if (nif == null) {
                nif = java.net.NetworkInterface.getByInetAddress(InetAddress.getByName(interfaceName));
            }
            int mtu = nif == null ? -1 : nif.getMTU();
            if (mtu <= 0) {
                return DEFAULT_SEGMENT_SIZE;
            }
            int segment = mtu - IP_UDP_HEADERS - DATAGRAM_HEADER_ROOM - protectionOverhead;
            return Math.max(64, Math.min(MAX_SEGMENT_SIZE, segment));
        } catch (java.io.IOException e) {
            return DEFAULT_SEGMENT_SIZE;
        }
    }

    private final InetAddress group;
    private final int port;
    private final String interfaceName;
    private final int nodeId;
    private final int ttl;
    private final boolean loopback;
    private final int tos;
    private final int receiveBuffer;
    private final int sendBuffer;
    private final boolean unicastNacks;
    private final String transport;
    private final int segmentSize;
    private final int blockSize;
    private final int parity;
    private final int autoParity;
    private final long txRate;
    private final long txCacheBytes;
    private final long txCacheBytesMax;
    private final int txCacheObjects;
    private final double holdFactor;
    private final Duration holdMin;
    private final Duration maxHold;
    private final int robustFactor;
    private final int maxObjectSize;
    private final Duration grttInitial;
    private final Duration grttMin;
    private final Duration grttMax;
    private final int backoffFactor;
    private final int smallGroupBackoffFactor;
    private final int groupSize;
    private final Duration probeIntervalMin;
    private final Duration probeIntervalMax;
    private final long receiveBufferBytes;
    private final int maxRemoteSenders;
    private final int maxReceivers;
    private final int rxWindowObjects;
    private final Duration senderTimeout;
    private final Duration receiverTimeout;
    private final Duration receiverSilence;
    private final boolean receiverFlowControl;
    private final Duration windowSilence;
    private final Duration flowDelay;
    private final RateControl rateControl;
    private final boolean silentReceiver;
    private final org.fjm2.norm.security.PacketProtection.Mode protection;
    private final org.fjm2.norm.security.GroupKey groupKey;
    private final long streamBufferBytes;

    private NormConfig(Builder b) {
        this.group = b.group;
        this.port = b.port;
        this.interfaceName = b.interfaceName;
        this.nodeId = b.nodeId;
        this.ttl = b.ttl;
        this.loopback = b.loopback;
        this.tos = b.tos;
        this.receiveBuffer = b.receiveBuffer;
        this.sendBuffer = b.sendBuffer;
        this.unicastNacks = b.unicastNacks;
        this.transport = b.transport;
        this.segmentSize = b.segmentSize;
        this.blockSize = b.blockSize;
        this.parity = b.parity;
        this.autoParity = b.autoParity;
        this.txRate = b.txRate;
        this.txCacheBytes = b.txCacheBytes;
        this.txCacheBytesMax = b.txCacheBytesMax;
        this.txCacheObjects = b.txCacheObjects;
        this.holdFactor = b.holdFactor;
        this.holdMin = b.holdMin;
        this.maxHold = b.maxHold;
        this.robustFactor = b.robustFactor;
        this.maxObjectSize = b.maxObjectSize;
        this.grttInitial = b.grttInitial;
        this.grttMin = b.grttMin;
        this.grttMax = b.grttMax;
        this.backoffFactor = b.backoffFactor;
        this.smallGroupBackoffFactor = b.smallGroupBackoffFactor;
        this.groupSize = b.groupSize;
        this.probeIntervalMin = b.probeIntervalMin;
        this.probeIntervalMax = b.probeIntervalMax;
        this.receiveBufferBytes = b.receiveBufferBytes;
        this.maxRemoteSenders = b.maxRemoteSenders;
        this.maxReceivers = b.maxReceivers;
        this.rxWindowObjects = b.rxWindowObjects;
        this.senderTimeout = b.senderTimeout;
        this.receiverTimeout = b.receiverTimeout;
        this.receiverSilence = b.receiverSilence;
        this.receiverFlowControl = b.receiverFlowControl;
        this.windowSilence = b.windowSilence;
        this.flowDelay = b.flowDelay;
        this.rateControl = b.rateControl;
        this.silentReceiver = b.silentReceiver;
        this.protection = b.protection;
        this.groupKey = b.groupKey;
        this.streamBufferBytes = b.streamBufferBytes;
    }

    /** A builder for group:port (IPv4 multicast or, for point-to-point use, unicast) with every default. */
    public static Builder builder(String group, int port) {
        return new Builder(group, port);
    }

    public Builder toBuilder() {
        Builder b = new Builder(group, port);
        b.interfaceName = interfaceName;
        b.nodeId = nodeId;
        b.ttl = ttl;
        b.loopback = loopback;
        b.tos = tos;
        b.receiveBuffer = receiveBuffer;
        b.sendBuffer = sendBuffer;
        b.unicastNacks = unicastNacks;
        b.transport = transport;
        b.segmentSize = segmentSize;
        b.blockSize = blockSize;
        b.parity = parity;
        b.autoParity = autoParity;
        b.txRate = txRate;
        b.txCacheBytes = txCacheBytes;
        b.txCacheBytesMax = txCacheBytesMax;
        b.txCacheObjects = txCacheObjects;
        b.holdFactor = holdFactor;
        b.holdMin = holdMin;
        b.maxHold = maxHold;
        b.robustFactor = robustFactor;
        b.maxObjectSize = maxObjectSize;
        b.grttInitial = grttInitial;
        b.grttMin = grttMin;
        b.grttMax = grttMax;
        b.backoffFactor = backoffFactor;
        b.smallGroupBackoffFactor = smallGroupBackoffFactor;
        b.groupSize = groupSize;
        b.probeIntervalMin = probeIntervalMin;
        b.probeIntervalMax = probeIntervalMax;
        b.receiveBufferBytes = receiveBufferBytes;
        b.maxRemoteSenders = maxRemoteSenders;
        b.maxReceivers = maxReceivers;
        b.rxWindowObjects = rxWindowObjects;
        b.senderTimeout = senderTimeout;
        b.receiverTimeout = receiverTimeout;
        b.receiverSilence = receiverSilence;
        b.receiverFlowControl = receiverFlowControl;
        b.windowSilence = windowSilence;
        b.flowDelay = flowDelay;
        b.rateControl = rateControl;
        b.silentReceiver = silentReceiver;
        b.protection = protection;
        b.groupKey = groupKey;
        b.streamBufferBytes = streamBufferBytes;
        return b;
    }

    public InetAddress group() { return group; }
    public int port() { return port; }
    /** Network interface name (e.g. "lo", "eth0"), or null for the system's default. */
    public String interfaceName() { return interfaceName; }
    /** This node's NORM source_id. */
    public int nodeId() { return nodeId; }
    public int ttl() { return ttl; }
    public boolean loopback() { return loopback; }
    public int tos() { return tos; }
    public int receiveBuffer() { return receiveBuffer; }
    public int sendBuffer() { return sendBuffer; }
    public boolean unicastNacks() { return unicastNacks; }
    /**
     * "auto" (native epoll with batched reads when it loads, else NIO), "epoll", "nio", or "jdk" (JDK channels on a
     * Netty NIO loop: no allocation per datagram, one system call per datagram).
     */
    public String transport() { return transport; }
    public int segmentSize() { return segmentSize; }
    public int blockSize() { return blockSize; }
    public int parity() { return parity; }
    public int autoParity() { return autoParity; }
    /** Transmit rate in bits per second. */
    public long txRate() { return txRate; }
    public long txCacheBytes() { return txCacheBytes; }
    /** Most bytes the cache may grow to on a long path; at or below {@link #txCacheBytes()}: no growth. */
    public long txCacheBytesMax() { return txCacheBytesMax; }
    public int txCacheObjects() { return txCacheObjects; }
    public double holdFactor() { return holdFactor; }
    public Duration holdMin() { return holdMin; }
    public Duration maxHold() { return maxHold; }
    public int robustFactor() { return robustFactor; }
    public int maxObjectSize() { return maxObjectSize; }
    public Duration grttInitial() { return grttInitial; }
    public Duration grttMin() { return grttMin; }
    public Duration grttMax() { return grttMax; }
    public int backoffFactor() { return backoffFactor; }
    public int smallGroupBackoffFactor() { return smallGroupBackoffFactor; }
    public int groupSize() { return groupSize; }
    public Duration probeIntervalMin() { return probeIntervalMin; }
    public Duration probeIntervalMax() { return probeIntervalMax; }
    /** Bytes of incomplete objects the session's receivers hold at most, all remote senders together. */
    public long receiveBufferBytes() { return receiveBufferBytes; }
    public int maxRemoteSenders() { return maxRemoteSenders; }
    public int maxReceivers() { return maxReceivers; }
    public int rxWindowObjects() { return rxWindowObjects; }
    public Duration senderTimeout() { return senderTimeout; }
    public Duration receiverTimeout() { return receiverTimeout; }
    /** Silence after which a receiver an acknowledgement round waits for is suspended (no longer waited for). */
    public Duration receiverSilence() { return receiverSilence; }
    /** Whether the sender offers receiver-paced flow control and receivers report their windows. */
    public boolean receiverFlowControl() { return receiverFlowControl; }
    /** How long a receiver with a full window may say nothing before the sender stops pacing for it. */
    public Duration windowSilence() { return windowSilence; }
    public Duration flowDelay() { return flowDelay; }
    public RateControl rateControl() { return rateControl; }
    /** A silent receiver never sends NACKs or ACKs (it takes what FEC and others' repairs give it). */
    public boolean silentReceiver() { return silentReceiver; }
    /** Group security of every datagram (null: none, the RFC 5740 wire format as is). */
    public org.fjm2.norm.security.PacketProtection.Mode protection() { return protection; }
    public org.fjm2.norm.security.GroupKey groupKey() { return groupKey; }
    public long streamBufferBytes() { return streamBufferBytes; }

    @Override
    public String toString() {
        return "NormConfig[" + group.getHostAddress() + ":" + port + " if=" + interfaceName
                + " node=" + Integer.toUnsignedString(nodeId) + " rate=" + txRate + " " + rateControl.name().toLowerCase()
                + (receiverFlowControl ? " flow" : "") + " E=" + segmentSize
                + " B=" + blockSize + " parity=" + parity + "/" + autoParity + "]";
    }

    /** Builder with validation: {@link #build()} throws IllegalArgumentException naming the bad setting. */
    public static final class Builder {
        private InetAddress group;
        private final int port;
        private String interfaceName;
        private int nodeId = randomNodeId();
        private int ttl = DEFAULT_TTL;
        private boolean loopback = DEFAULT_LOOPBACK;
        private int tos = DEFAULT_TOS;
        private int receiveBuffer = DEFAULT_RECEIVE_BUFFER;
        private int sendBuffer = DEFAULT_SEND_BUFFER;
        private boolean unicastNacks = DEFAULT_UNICAST_NACKS;
        private String transport = "auto";
        private int segmentSize = DEFAULT_SEGMENT_SIZE;
        private int blockSize = DEFAULT_BLOCK_SIZE;
        private int parity = DEFAULT_PARITY;
        private int autoParity = DEFAULT_AUTO_PARITY;
        private long txRate = DEFAULT_TX_RATE;
        private long txCacheBytes = DEFAULT_TX_CACHE_BYTES;
        private long txCacheBytesMax = DEFAULT_TX_CACHE_BYTES_MAX;
        private int txCacheObjects = DEFAULT_TX_CACHE_OBJECTS;
        private double holdFactor = DEFAULT_HOLD_FACTOR;
        private Duration holdMin = DEFAULT_HOLD_MIN;
        private Duration maxHold = DEFAULT_MAX_HOLD;
        private int robustFactor = DEFAULT_ROBUST_FACTOR;
        private int maxObjectSize = DEFAULT_MAX_OBJECT_SIZE;
        private Duration grttInitial = DEFAULT_GRTT_INITIAL;
        private Duration grttMin = DEFAULT_GRTT_MIN;
        private Duration grttMax = DEFAULT_GRTT_MAX;
        private int backoffFactor = DEFAULT_BACKOFF_FACTOR;
        private int smallGroupBackoffFactor = DEFAULT_SMALL_GROUP_BACKOFF_FACTOR;
        private int groupSize = DEFAULT_GROUP_SIZE;
        private Duration probeIntervalMin = DEFAULT_PROBE_INTERVAL_MIN;
        private Duration probeIntervalMax = DEFAULT_PROBE_INTERVAL_MAX;
        private long receiveBufferBytes = DEFAULT_RECEIVE_BUFFER_BYTES;
        private int maxRemoteSenders = DEFAULT_MAX_REMOTE_SENDERS;
        private int maxReceivers = DEFAULT_MAX_RECEIVERS;
        private int rxWindowObjects = DEFAULT_RX_WINDOW_OBJECTS;
        private Duration senderTimeout = DEFAULT_SENDER_TIMEOUT;
        private Duration receiverTimeout = DEFAULT_RECEIVER_TIMEOUT;
        private Duration receiverSilence = DEFAULT_RECEIVER_SILENCE;
        private boolean receiverFlowControl = DEFAULT_RECEIVER_FLOW_CONTROL;
        private Duration windowSilence = DEFAULT_WINDOW_SILENCE;
        private Duration flowDelay = DEFAULT_FLOW_DELAY;
        private RateControl rateControl = DEFAULT_RATE_CONTROL;
        private boolean silentReceiver;
        private org.fjm2.norm.security.PacketProtection.Mode protection;
        private org.fjm2.norm.security.GroupKey groupKey;
        private long streamBufferBytes = DEFAULT_STREAM_BUFFER_BYTES;
        private final String groupText;

        private Builder(String group, int port) {
            this.groupText = group;
            this.port = port;
        }

        private Builder(InetAddress group, int port) {
            this.group = group;
            this.groupText = group.getHostAddress();
            this.port = port;
        }

        public Builder interfaceName(String v) { this.interfaceName = v; return this; }
        public Builder nodeId(int v) { this.nodeId = v; return this; }
        public Builder ttl(int v) { this.ttl = v; return this; }
        public Builder loopback(boolean v) { this.loopback = v; return this; }
        public Builder tos(int v) { this.tos = v; return this; }
        public Builder receiveBuffer(int v) { this.receiveBuffer = v; return this; }
        public Builder sendBuffer(int v) { this.sendBuffer = v; return this; }
        public Builder unicastNacks(boolean v) { this.unicastNacks = v; return this; }
        public Builder transport(String v) { this.transport = v; return this; }
        public Builder segmentSize(int v) { this.segmentSize = v; return this; }
        public Builder blockSize(int v) { this.blockSize = v; return this; }
        public Builder parity(int v) { this.parity = v; return this; }
        public Builder autoParity(int v) { this.autoParity = v; return this; }
        public Builder txRate(long bitsPerSecond) { this.txRate = bitsPerSecond; return this; }
        public Builder txCacheBytes(long v) { this.txCacheBytes = v; return this; }
        public Builder txCacheBytesMax(long v) { this.txCacheBytesMax = v; return this; }
        public Builder txCacheObjects(int v) { this.txCacheObjects = v; return this; }
        public Builder holdFactor(double v) { this.holdFactor = v; return this; }
        public Builder holdMin(Duration v) { this.holdMin = v; return this; }
        public Builder maxHold(Duration v) { this.maxHold = v; return this; }
        public Builder robustFactor(int v) { this.robustFactor = v; return this; }
        public Builder maxObjectSize(int v) { this.maxObjectSize = v; return this; }
        public Builder grttInitial(Duration v) { this.grttInitial = v; return this; }
        public Builder grttMin(Duration v) { this.grttMin = v; return this; }
        public Builder grttMax(Duration v) { this.grttMax = v; return this; }
        public Builder backoffFactor(int v) { this.backoffFactor = v; return this; }
        public Builder smallGroupBackoffFactor(int v) { this.smallGroupBackoffFactor = v; return this; }
        public Builder groupSize(int v) { this.groupSize = v; return this; }
        public Builder probeIntervalMin(Duration v) { this.probeIntervalMin = v; return this; }
        public Builder probeIntervalMax(Duration v) { this.probeIntervalMax = v; return this; }
        public Builder receiveBufferBytes(long v) { this.receiveBufferBytes = v; return this; }
        public Builder maxRemoteSenders(int v) { this.maxRemoteSenders = v; return this; }
        public Builder maxReceivers(int v) { this.maxReceivers = v; return this; }
        public Builder rxWindowObjects(int v) { this.rxWindowObjects = v; return this; }
        public Builder senderTimeout(Duration v) { this.senderTimeout = v; return this; }
        public Builder receiverTimeout(Duration v) { this.receiverTimeout = v; return this; }
        public Builder receiverSilence(Duration v) { this.receiverSilence = v; return this; }
        public Builder receiverFlowControl(boolean v) { this.receiverFlowControl = v; return this; }
        public Builder windowSilence(Duration v) { this.windowSilence = v; return this; }
        public Builder flowDelay(Duration v) { this.flowDelay = v; return this; }
        public Builder rateControl(RateControl v) { this.rateControl = v; return this; }
        public Builder silentReceiver(boolean v) { this.silentReceiver = v; return this; }
        public Builder streamBufferBytes(long v) { this.streamBufferBytes = v; return this; }
        /** Authenticates or seals every datagram under the group key (mode null: off). */
        /** The protection mode set so far (null: none). */
        public org.fjm2.norm.security.PacketProtection.Mode protectionMode() { return protection; }

        public Builder protection(org.fjm2.norm.security.PacketProtection.Mode mode,
                                  org.fjm2.norm.security.GroupKey key) {
            this.protection = mode;
            this.groupKey = key;
            return this;
        }

        public NormConfig build() {
            if (group == null) {
                try {
                    group = InetAddress.getByName(groupText);
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException("group: unknown host '" + groupText + "'");
                }
            }
            if (!(group instanceof java.net.Inet4Address)) {
                throw new IllegalArgumentException("group: only IPv4 is supported, got " + groupText);
            }
            require(port > 0 && port <= 65535, "port", "must be 1..65535, got " + port);
            require(nodeId != 0 && nodeId != -1, "nodeId", "must not be 0 or 0xFFFFFFFF");
            require(ttl >= 0 && ttl <= 255, "ttl", "must be 0..255, got " + ttl);
            require(tos >= 0 && tos <= 255, "tos", "must be 0..255, got " + tos);
            require(receiveBuffer > 0 && sendBuffer > 0, "receiveBuffer/sendBuffer", "must be positive");
            require(transport.equals("auto") || transport.equals("epoll") || transport.equals("nio")
                    || transport.equals("jdk"), "transport", "must be auto, epoll, nio or jdk, got " + transport);
            require(segmentSize >= 64 && segmentSize <= MAX_SEGMENT_SIZE, "segmentSize",
                    "must be 64.." + MAX_SEGMENT_SIZE + ", got " + segmentSize);
            require(blockSize >= 1 && blockSize <= 255, "blockSize", "must be 1..255, got " + blockSize);
            require(parity >= 0 && blockSize + parity <= 255, "parity", "block + parity must be at most 255");
            require(autoParity >= 0 && autoParity <= parity, "autoParity", "must be 0..parity (" + parity + ")");
            require(txRate >= 8_000, "txRate", "must be at least 8000 bit/s, got " + txRate);
            require(txCacheObjects >= 1 && txCacheObjects <= 16384, "txCacheObjects", "must be 1..16384");
            require(maxObjectSize >= 1, "maxObjectSize", "must be positive");
            require(txCacheBytes >= maxObjectSize || txCacheBytes >= 1024 * 1024, "txCacheBytes",
                    "must hold at least one maximum-size object or 1 MiB");
            require(txCacheBytesMax >= 0, "txCacheBytesMax", "must be >= 0 (0: no growth)");
            require(holdFactor >= 0, "holdFactor", "must be >= 0");
            require(!holdMin.isNegative(), "holdMin", "must be >= 0");
            require(maxHold.compareTo(holdMin) >= 0, "maxHold", "must be >= holdMin");
            require(robustFactor >= 1, "robustFactor", "must be >= 1");
            require(!grttMin.isNegative() && grttMin.compareTo(grttMax) <= 0, "grttMin", "must be <= grttMax");
            require(grttInitial.compareTo(grttMin) >= 0 && grttInitial.compareTo(grttMax) <= 0,
                    "grttInitial", "must lie between grttMin and grttMax");
            require(backoffFactor >= 0 && backoffFactor <= 15, "backoffFactor", "must be 0..15");
            require(smallGroupBackoffFactor >= -1 && smallGroupBackoffFactor <= 15, "smallGroupBackoffFactor",
                    "must be -1 (none) or 0..15");
            require(groupSize >= 1, "groupSize", "must be >= 1");
            require(probeIntervalMin.toMillis() > 0 && probeIntervalMin.compareTo(probeIntervalMax) <= 0,
                    "probeIntervalMin", "must be positive and <= probeIntervalMax");
            require(receiveBufferBytes >= maxObjectSize, "receiveBufferBytes", "must be >= maxObjectSize ("
                    + maxObjectSize + ")");
            require(maxRemoteSenders >= 1, "maxRemoteSenders", "must be >= 1");
            require(maxReceivers >= 1, "maxReceivers", "must be >= 1");
            require(rxWindowObjects >= 2 && rxWindowObjects <= 16384, "rxWindowObjects", "must be 2..16384");
            require(senderTimeout.toMillis() > 0, "senderTimeout", "must be positive");
            require(receiverTimeout.toMillis() > 0, "receiverTimeout", "must be positive");
            require(receiverSilence.toMillis() > 0, "receiverSilence", "must be positive");
            require(windowSilence.toMillis() > 0, "windowSilence", "must be positive");
            require(flowDelay.toMillis() > 0, "flowDelay", "must be positive");
            require(rateControl != null, "rateControl", "must be fixed, adaptive or auto");
            require(protection == null || groupKey != null, "keyFile", "group security needs a key");
            require(streamBufferBytes >= 64 * 1024 && streamBufferBytes <= (1L << 30), "streamBufferBytes",
                    "must be 64 KiB..1 GiB, got " + streamBufferBytes);
            return new NormConfig(this);
        }

        private static void require(boolean ok, String name, String why) {
            if (!ok) {
                throw new IllegalArgumentException(name + ": " + why);
            }
        }

        private static int randomNodeId() {
            int id;
            do {
                id = ThreadLocalRandom.current().nextInt();
            } while (id == 0 || id == -1);
            return id;
        }
    }
}
