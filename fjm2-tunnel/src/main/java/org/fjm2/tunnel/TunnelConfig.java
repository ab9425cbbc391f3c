package org.fjm2.tunnel;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.fjm2.tunnel.admin.AdminClient;
import org.fjm2.tunnel.relay.RecentPacketFilter;
import org.fjm2.tunnel.relay.RelaySettings;
import org.fjm2.tunnel.repair.RepairCache;
import org.fjm2.tunnel.security.ReplayProtection;
import org.fjm2.tunnel.security.TunnelKey;

/**
 * Every setting of an FJM2D daemon, each a documented constant with its default. Immutable; built with
 * {@link #builder(String, int)}, whose {@link Builder#build()} names the bad setting in its exception.
 */
public final class TunnelConfig {

    /** UDP port the daemon listens on for its peers. */
    public static final int DEFAULT_LISTEN_PORT = 6004;
    /** Pacing rate of each peer's WAN leg, bit/s, IP and UDP headers counted: set it to the uplink's rate. */
    public static final long DEFAULT_PEER_RATE = 100_000_000L;
    /** Bytes a peer's pacer may send back to back above its rate. */
    public static final int DEFAULT_PEER_BURST_BYTES = 16 * 1024;
    /** Bytes that may wait in a peer's pacer; more are dropped and counted (NORM repair recovers them). */
    public static final long DEFAULT_PEER_QUEUE_BYTES = 512 * 1024;
    /** Answer NACKs from the repair cache (hop-by-hop repair) instead of relaying them all to the sender. */
    public static final boolean DEFAULT_HOP_BY_HOP = true;
    /**
     * A symbol served to one side is not served to it again within this time: the first repair is still on its way.
     * Shorter than any WAN round trip worth a tunnel, longer than a burst of NACKs from one LAN.
     */
    public static final Duration DEFAULT_REPAIR_HOLDOFF = Duration.ofMillis(15);
    /** Relay between peers (for rings, chains and stars; a full mesh does not need it). */
    public static final boolean DEFAULT_TRANSIT = false;
    /** Accept authentic traffic from daemons that are not listed peers (a hub that NATed daemons call). */
    public static final boolean DEFAULT_ACCEPT_UNLISTED = false;
    /**
     * A hello (with a fresh challenge, which the peer answers) goes to each answering peer this often: it keeps NAT
     * mappings open and shows the peer that we are alive.
     */
    public static final Duration DEFAULT_KEEPALIVE = Duration.ofSeconds(10);
    /**
     * A hello goes this often to a peer that has not answered yet, or has not been heard for a keepalive period: data
     * flows only to peers that answered, so the first answer should not wait long.
     */
    public static final Duration DEFAULT_HELLO_RETRY = Duration.ofSeconds(1);
    /**
     * A peer not heard for this long (no frame, no answer to three hellos) gets no more data until it answers again;
     * hellos go on at the keepalive period. Three keepalive periods: a peer with nothing to send still answers hellos.
     */
    public static final Duration DEFAULT_PEER_SILENCE = Duration.ofSeconds(30);
    /** A learned (unlisted) peer silent this long is forgotten. */
    public static final Duration DEFAULT_PEER_TIMEOUT = Duration.ofSeconds(60);
    /** Period of the one-line status log; zero turns it off. */
    public static final Duration DEFAULT_STATUS_INTERVAL = Duration.ofSeconds(10);
    /** TTL of re-emitted multicast: 1 keeps it on the LAN. */
    public static final int DEFAULT_TTL = 1;
    /** Hosts on the daemon's own machine hear the re-emitted traffic (the daemon recognises and drops its own). */
    public static final boolean DEFAULT_LOOPBACK = true;
    /** SO_RCVBUF of every socket: bursts at line rate overflow the OS default. */
    public static final int DEFAULT_RECEIVE_BUFFER = 8 * 1024 * 1024;
    /** SO_SNDBUF of every socket. */
    public static final int DEFAULT_SEND_BUFFER = 4 * 1024 * 1024;
    /** Re-register with FJM2-Admin this often (a third of its default expiry). */
    public static final Duration DEFAULT_ADMIN_KEEPALIVE = Duration.ofSeconds(30);

    private final InetAddress group;
    private final int port;
    private final String interfaceName;
    private final InetSocketAddress listen;
    private final String nodeId;
    private final List<InetSocketAddress> peers;
    private final TunnelKey key;
    private final boolean seal;
    private final long peerRate;
    private final int peerBurstBytes;
    private final long peerQueueBytes;
    private final boolean hopByHop;
    private final long repairCacheBytes;
    private final int repairCacheEntries;
    private final Duration repairHoldoff;
    private final boolean transit;
    private final boolean acceptUnlisted;
    private final int filterCapacity;
    private final Duration keepalive;
    private final Duration helloRetry;
    private final Duration peerSilence;
    private final Duration peerTimeout;
    private final Path stateDir;
    private final Duration statusInterval;
    private final int ttl;
    private final boolean loopback;
    private final int receiveBuffer;
    private final int sendBuffer;
    private final long maxClockSkewSeconds;
    private final String transport;
    private final URI admin;
    private final String adminToken;
    private final String advertisedHost;
    private final Duration adminKeepalive;
    private final AdminClient.Options adminOptions;

    private TunnelConfig(Builder b) {
        this.group = b.group;
        this.port = b.port;
        this.interfaceName = b.interfaceName;
        this.listen = b.listen;
        this.nodeId = b.nodeId;
        this.peers = List.copyOf(b.peers);
        this.key = b.key;
        this.seal = b.seal;
        this.peerRate = b.peerRate;
        this.peerBurstBytes = b.peerBurstBytes;
        this.peerQueueBytes = b.peerQueueBytes;
        this.hopByHop = b.hopByHop;
        this.repairCacheBytes = b.repairCacheBytes;
        this.repairCacheEntries = b.repairCacheEntries;
        this.repairHoldoff = b.repairHoldoff;
        this.transit = b.transit;
        this.acceptUnlisted = b.acceptUnlisted;
        this.filterCapacity = b.filterCapacity;
        this.keepalive = b.keepalive;
        this.helloRetry = b.helloRetry;
        this.peerSilence = b.peerSilence;
        this.peerTimeout = b.peerTimeout;
        this.stateDir = b.stateDir;
        this.statusInterval = b.statusInterval;
        this.ttl = b.ttl;
        this.loopback = b.loopback;
        this.receiveBuffer = b.receiveBuffer;
        this.sendBuffer = b.sendBuffer;
        this.maxClockSkewSeconds = b.maxClockSkewSeconds;
        this.transport = b.transport;
        this.admin = b.admin;
        this.adminToken = b.adminToken;
        this.advertisedHost = b.advertisedHost;
        this.adminKeepalive = b.adminKeepalive;
        this.adminOptions = b.adminOptions;
    }

    /** A builder for the LAN's NORM group:port. */
    public static Builder builder(String group, int port) {
        return new Builder(group, port);
    }

    /** Multicast group of the LAN's NORM session. */
    public InetAddress group() { return group; }
    public int port() { return port; }
    /** Interface that joins the group and re-emits (name or address), null for the system's default. */
    public String interfaceName() { return interfaceName; }
    /** Where the daemon listens for its peers. */
    public InetSocketAddress listen() { return listen; }
    /**
     * This daemon's id: its name in FJM2-Admin; its frames carry the {@code FrameCodec.wireId} of it as sender, and
     * frames to it as destination. Unique per daemon: by default drawn at random and kept in {@link #stateDir()}
     * (see {@link NodeIds}).
     */
    public String nodeId() { return nodeId; }
    /** Static peers (unresolved addresses are resolved at start). */
    public List<InetSocketAddress> peers() { return peers; }
    public TunnelKey key() { return key; }
    /** Seal payloads with AES-256-GCM (they are authenticated either way). */
    public boolean seal() { return seal; }
    public long peerRate() { return peerRate; }
    public int peerBurstBytes() { return peerBurstBytes; }
    public long peerQueueBytes() { return peerQueueBytes; }
    public boolean hopByHop() { return hopByHop; }
    public long repairCacheBytes() { return repairCacheBytes; }
    public int repairCacheEntries() { return repairCacheEntries; }
    public Duration repairHoldoff() { return repairHoldoff; }
    public boolean transit() { return transit; }
    public boolean acceptUnlisted() { return acceptUnlisted; }
    public int filterCapacity() { return filterCapacity; }
    public Duration keepalive() { return keepalive; }
    public Duration helloRetry() { return helloRetry; }
    public Duration peerSilence() { return peerSilence; }
    public Duration peerTimeout() { return peerTimeout; }
    /** Where the default node id is kept (see {@link NodeIds}). */
    public Path stateDir() { return stateDir; }
    public Duration statusInterval() { return statusInterval; }
    public int ttl() { return ttl; }
    public boolean loopback() { return loopback; }
    public int receiveBuffer() { return receiveBuffer; }
    public int sendBuffer() { return sendBuffer; }
    public long maxClockSkewSeconds() { return maxClockSkewSeconds; }
    /** "auto" (native epoll when it loads), "epoll" or "nio". */
    public String transport() { return transport; }
    /** FJM2-Admin's base URL, or null for static peers only. */
    public URI admin() { return admin; }
    public String adminToken() { return adminToken; }
    /** Host (name or address) registered with the admin: where peers reach us. */
    public String advertisedHost() { return advertisedHost; }
    public Duration adminKeepalive() { return adminKeepalive; }
    /** The admin client's tunables: polling, peer expiry, the CA of the admin's HTTPS certificate. */
    public AdminClient.Options adminOptions() { return adminOptions; }

    /** The part of the configuration the relay works with. */
    public RelaySettings relaySettings() {
        return new RelaySettings(nodeId, key, seal, peerRate, peerBurstBytes, peerQueueBytes, hopByHop,
                repairCacheBytes, repairCacheEntries, repairHoldoff, transit, acceptUnlisted, filterCapacity, keepalive,
                helloRetry, peerSilence, peerTimeout, maxClockSkewSeconds);
    }

    @Override
    public String toString() {
        return "TunnelConfig[" + group.getHostAddress() + ":" + port + " if=" + interfaceName + " listen=" + listen
                + " node=" + nodeId + " peers=" + peers + " rate=" + peerRate + " hopByHop=" + hopByHop + " seal="
                + seal + " transit=" + transit + " admin=" + admin + "]";
    }

    /** Builder with validation. */
    public static final class Builder {
        private final String groupText;
        private InetAddress group;
        private final int port;
        private String interfaceName;
        private InetSocketAddress listen = new InetSocketAddress(DEFAULT_LISTEN_PORT);
        private String nodeId;
        private final List<InetSocketAddress> peers = new ArrayList<>();
        private TunnelKey key;
        private boolean seal;
        private long peerRate = DEFAULT_PEER_RATE;
        private int peerBurstBytes = DEFAULT_PEER_BURST_BYTES;
        private long peerQueueBytes = DEFAULT_PEER_QUEUE_BYTES;
        private boolean hopByHop = DEFAULT_HOP_BY_HOP;
        private long repairCacheBytes = RepairCache.DEFAULT_MAX_BYTES;
        private int repairCacheEntries = RepairCache.DEFAULT_MAX_ENTRIES;
        private Duration repairHoldoff = DEFAULT_REPAIR_HOLDOFF;
        private boolean transit = DEFAULT_TRANSIT;
        private boolean acceptUnlisted = DEFAULT_ACCEPT_UNLISTED;
        private int filterCapacity = RecentPacketFilter.DEFAULT_CAPACITY;
        private Duration keepalive = DEFAULT_KEEPALIVE;
        private Duration helloRetry = DEFAULT_HELLO_RETRY;
        private Duration peerSilence = DEFAULT_PEER_SILENCE;
        private Duration peerTimeout = DEFAULT_PEER_TIMEOUT;
        private Path stateDir = NodeIds.defaultStateDir();
        private Duration statusInterval = DEFAULT_STATUS_INTERVAL;
        private int ttl = DEFAULT_TTL;
        private boolean loopback = DEFAULT_LOOPBACK;
        private int receiveBuffer = DEFAULT_RECEIVE_BUFFER;
        private int sendBuffer = DEFAULT_SEND_BUFFER;
        private long maxClockSkewSeconds = ReplayProtection.DEFAULT_MAX_SKEW_SECONDS;
        private String transport = "auto";
        private URI admin;
        private String adminToken;
        private String advertisedHost;
        private Duration adminKeepalive = DEFAULT_ADMIN_KEEPALIVE;
        private AdminClient.Options adminOptions = AdminClient.Options.defaults();

        private Builder(String group, int port) {
            this.groupText = Objects.requireNonNull(group, "group");
            this.port = port;
        }

        public Builder interfaceName(String v) { this.interfaceName = v; return this; }
        public Builder listen(InetSocketAddress v) { this.listen = v; return this; }
        public Builder nodeId(String v) { this.nodeId = v; return this; }
        public Builder peer(InetSocketAddress v) { this.peers.add(v); return this; }
        public Builder peers(List<InetSocketAddress> v) { this.peers.addAll(v); return this; }
        public Builder key(TunnelKey v) { this.key = v; return this; }
        public Builder seal(boolean v) { this.seal = v; return this; }
        public Builder peerRate(long bitsPerSecond) { this.peerRate = bitsPerSecond; return this; }
        public Builder peerBurstBytes(int v) { this.peerBurstBytes = v; return this; }
        public Builder peerQueueBytes(long v) { this.peerQueueBytes = v; return this; }
        public Builder hopByHop(boolean v) { this.hopByHop = v; return this; }
        public Builder repairCacheBytes(long v) { this.repairCacheBytes = v; return this; }
        public Builder repairCacheEntries(int v) { this.repairCacheEntries = v; return this; }
        public Builder repairHoldoff(Duration v) { this.repairHoldoff = v; return this; }
        public Builder transit(boolean v) { this.transit = v; return this; }
        public Builder acceptUnlisted(boolean v) { this.acceptUnlisted = v; return this; }
        public Builder filterCapacity(int v) { this.filterCapacity = v; return this; }
        public Builder keepalive(Duration v) { this.keepalive = v; return this; }
        public Builder helloRetry(Duration v) { this.helloRetry = v; return this; }
        public Builder peerSilence(Duration v) { this.peerSilence = v; return this; }
        public Builder peerTimeout(Duration v) { this.peerTimeout = v; return this; }
        public Builder stateDir(Path v) { this.stateDir = v; return this; }
        public Builder statusInterval(Duration v) { this.statusInterval = v; return this; }
        public Builder ttl(int v) { this.ttl = v; return this; }
        public Builder loopback(boolean v) { this.loopback = v; return this; }
        public Builder receiveBuffer(int v) { this.receiveBuffer = v; return this; }
        public Builder sendBuffer(int v) { this.sendBuffer = v; return this; }
        public Builder maxClockSkewSeconds(long v) { this.maxClockSkewSeconds = v; return this; }
        public Builder transport(String v) { this.transport = v; return this; }
        public Builder admin(URI v) { this.admin = v; return this; }
        public Builder adminToken(String v) { this.adminToken = v; return this; }
        public Builder advertisedHost(String v) { this.advertisedHost = v; return this; }
        public Builder adminKeepalive(Duration v) { this.adminKeepalive = v; return this; }
        public Builder adminOptions(AdminClient.Options v) { this.adminOptions = Objects.requireNonNull(v); return this; }

        public TunnelConfig build() {
            try {
                group = InetAddress.getByName(groupText);
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("group: unknown host '" + groupText + "'");
            }
            require(group instanceof java.net.Inet4Address && group.isMulticastAddress(), "group",
                    "must be an IPv4 multicast address, got " + groupText);
            require(port > 0 && port <= 65535, "port", "must be 1..65535, got " + port);
            require(key != null, "key", "a key file is required: FJM2D traffic is always authenticated");
            require(listen != null, "listen", "must be set");
            if (nodeId == null) {
                nodeId = NodeIds.loadOrCreate(stateDir, interfaceName, listen);
            }
            require(!nodeId.isBlank(), "nodeId", "must not be blank");
            require(peerRate >= 0 && (peerRate == 0 || peerRate >= 8_000), "peerRate",
                    "must be 0 (unpaced) or at least 8000 bit/s, got " + peerRate);
            require(peerBurstBytes >= 0, "peerBurstBytes", "must be >= 0");
            require(peerQueueBytes >= 16 * 1024, "peerQueueBytes", "must be at least 16 KiB");
            require(repairCacheEntries >= 1, "repairCacheEntries", "must be >= 1");
            require(repairCacheBytes >= 64 * 1024, "repairCacheBytes", "must be at least 64 KiB");
            require(!repairHoldoff.isNegative(), "repairHoldoff", "must be >= 0");
            require(filterCapacity >= 1024, "filterCapacity", "must be at least 1024");
            require(keepalive.toMillis() > 0, "keepalive", "must be positive");
            require(helloRetry.toMillis() > 0 && helloRetry.compareTo(keepalive) <= 0, "helloRetry",
                    "must be positive and at most the keepalive period");
            require(peerSilence.compareTo(keepalive) > 0, "peerSilence", "must be longer than keepalive");
            require(peerTimeout.compareTo(keepalive) > 0, "peerTimeout", "must be longer than keepalive");
            require(!statusInterval.isNegative(), "statusInterval", "must be >= 0");
            require(ttl >= 0 && ttl <= 255, "ttl", "must be 0..255");
            require(receiveBuffer > 0 && sendBuffer > 0, "receiveBuffer/sendBuffer", "must be positive");
            require(maxClockSkewSeconds > 0, "maxClockSkew", "must be positive");
            require(transport.equals("auto") || transport.equals("epoll") || transport.equals("nio"), "transport",
                    "must be auto, epoll or nio");
            if (admin != null) {
                require(adminToken != null && !adminToken.isBlank(), "adminToken",
                        "a token file is required with an admin URL");
                require(advertisedHost != null && !advertisedHost.isBlank(), "advertisedHost",
                        "required with an admin URL: the address peers reach this daemon at");
                require(adminKeepalive.toMillis() > 0, "adminKeepalive", "must be positive");
            }
            return new TunnelConfig(this);
        }

        private static void require(boolean ok, String name, String why) {
            if (!ok) {
                throw new IllegalArgumentException(name + ": " + why);
            }
        }
    }
}
