package org.fjm2.tunnel;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.management.ObjectName;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.ScheduledFuture;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.transport.NettyTransport;
import org.fjm2.norm.util.LogLimiter;
import org.fjm2.norm.util.LoopWake;
import org.fjm2.tunnel.admin.AdminClient;
import org.fjm2.tunnel.admin.PeerAddress;
import org.fjm2.tunnel.relay.Peer;
import org.fjm2.tunnel.relay.PeerCounters;
import org.fjm2.tunnel.relay.Relay;
import org.fjm2.tunnel.relay.RelayCounters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * FJM2D: joins a LAN's NORM group and bridges it to other LANs' daemons over UDP unicast. Owns the sockets (the
 * LAN side is fjm2-norm's {@link NettyTransport}: group socket, connected re-emitting socket, unicast feedback
 * socket; plus the WAN socket on the same event loop), the pacing timer, the status line, the JMX bean and the
 * FJM2-Admin client; the forwarding logic is {@link Relay}'s. One event-loop thread does everything.
 *
 * <pre>{@code
 * try (TunnelDaemon d = TunnelDaemon.start(config)) { ... }
 * }</pre>
 */
public final class TunnelDaemon implements AutoCloseable, TunnelMXBean {

    private static final Logger LOG = LoggerFactory.getLogger(TunnelDaemon.class);

    /** Largest datagram read on the WAN port (a frame around the largest NORM message). */
    public static final int MAX_WAN_DATAGRAM = NettyTransport.MAX_DATAGRAM + 128;
    /** Datagrams read per system call on the WAN port with native epoll. */
    public static final int WAN_READ_BATCH = 16;
    /** How often the kernel's drops at the daemon's sockets are checked (a warning when they grew). */
    public static final long KERNEL_DROPS_CHECK_MILLIS = 10_000;

    private final TunnelConfig config;
    private final NettyTransport lan;
    private final EventLoop loop;
    private final Relay relay;
    private final Set<InetAddress> localAddresses;
    private Channel wan;
    private AdminClient admin;
    private ObjectName jmxName;
    private final LoopWake wake;
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);
    private ScheduledFuture<?> status;
    private ScheduledFuture<?> dropsCheck;
    private volatile KernelDrops.Counts kernelDrops = KernelDrops.Counts.UNKNOWN;
    private volatile KernelDrops kernelSockets;
    private volatile List<Relay.PeerSpec> staticPeers = List.of();
    private volatile List<Relay.PeerSpec> adminPeers = List.of();
    private volatile boolean closed;
    private int lanEmitPort;

    private TunnelDaemon(TunnelConfig config) throws SocketException {
        this.config = config;
        NormConfig lanConfig = NormConfig.builder(config.group().getHostAddress(), config.port())
                .interfaceName(config.interfaceName()).ttl(config.ttl()).loopback(config.loopback())
                .receiveBuffer(config.receiveBuffer()).sendBuffer(config.sendBuffer()).transport(config.transport())
                .build();
        this.lan = new NettyTransport(lanConfig, new LanHandler(), "fjm2d-" + config.nodeId());
        this.loop = lan.eventLoop();
        this.wake = new LoopWake(loop, this::pass);
        this.localAddresses = localAddresses();
        this.relay = new Relay(config.relaySettings(), PooledByteBufAllocator.DEFAULT, new Output(), this::isOwnEmission,
                Relay.randomSeed());
    }

    /** Opens the sockets, resolves the static peers, registers with the admin (if any) and starts relaying. */
    public static TunnelDaemon start(TunnelConfig config) throws IOException {
        TunnelDaemon d = new TunnelDaemon(config);
        try {
            d.open();
        } catch (IOException | RuntimeException e) {
            d.close();
            throw e;
        }
        return d;
    }

    private void open() throws IOException {
        List<Relay.PeerSpec> resolved = new ArrayList<>();
        for (InetSocketAddress a : config.peers()) {
            resolved.add(new Relay.PeerSpec(null, resolve(a)));
        }
        staticPeers = List.copyOf(resolved);
        lan.start();
        lanEmitPort = lan.transmitPort();
        try {
            wan = wanBootstrap().bind(resolve(config.listen())).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding " + config.listen(), e);
        } catch (Exception e) {
            throw new IOException("cannot listen on UDP " + config.listen() + ": " + e.getMessage(), e);
        }
        call(() -> {
            relay.setPeers(staticPeers, System.nanoTime());
            pass();
            return null;
        });
        if (config.admin() != null) {
            admin = new AdminClient(config.admin(), config.adminToken(), config.nodeId(), config.advertisedHost(),
                    listenPort(), config.adminKeepalive(), this::onAdminPeers, config.adminOptions());
            AdminClient a = admin;
            call(() -> {
                relay.foreignDatagrams(a::offerAdvertisement);
                return null;
            });
            admin.start();
        }
        long period = config.statusInterval().toMillis();
        if (period > 0) {
            status = loop.scheduleAtFixedRate(() -> LOG.info(getStatusLine()), period, period, TimeUnit.MILLISECONDS);
        }
        kernelSockets = KernelDrops.of(wan);
        dropsCheck = loop.scheduleAtFixedRate(this::checkKernelDrops, KERNEL_DROPS_CHECK_MILLIS,
                KERNEL_DROPS_CHECK_MILLIS, TimeUnit.MILLISECONDS);
        registerJmx();
        LOG.info("FJM2D {} relaying {}:{} on {} <-> UDP {} ({} transport, {} static peer(s), hop-by-hop repair {}, "
                        + "payload sealing {}, transit {})", config.nodeId(), config.group().getHostAddress(),
                config.port(), config.interfaceName() == null ? "the default interface" : config.interfaceName(),
                wan.localAddress(), lan.isEpoll() ? "epoll" : "nio", staticPeers.size(), onOff(config.hopByHop()),
                onOff(config.seal()), onOff(config.transit()));
    }

    /** Warns when the kernel dropped datagrams at our sockets since the last check: they are lost, not counted. */
    private void checkKernelDrops() {
        KernelDrops.Counts before = kernelDrops;
        KernelDrops.Counts now = kernelSockets.read();
        kernelDrops = now;
        if (before.lan() >= 0 && now.lan() >= 0 && (now.lan() > before.lan() || now.wan() > before.wan())) {
            LOG.warn("the kernel dropped {} LAN and {} WAN datagrams at this daemon's full socket buffers in the last "
                    + "{} s: the daemon does not keep up (too little CPU, or LAN senders faster than it relays); NORM "
                    + "repair recovers them, but a full buffer also delays everything behind it, which slows the "
                    + "senders' acknowledgement rounds", now.lan() - before.lan(), now.wan() - before.wan(),
                    KERNEL_DROPS_CHECK_MILLIS / 1000);
        }
    }

    private static String onOff(boolean b) {
        return b ? "on" : "off";
    }

    private Bootstrap wanBootstrap() {
        Bootstrap b = new Bootstrap().group(loop);
        if (lan.isEpoll()) {
            b.channelFactory(() -> new EpollDatagramChannel(SocketProtocolFamily.INET));
            b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_WAN_DATAGRAM);
            b.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_WAN_DATAGRAM * WAN_READ_BATCH));
        } else {
            b.channelFactory(() -> new NioDatagramChannel(SocketProtocolFamily.INET));
            b.option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_WAN_DATAGRAM));
        }
        b.option(ChannelOption.SO_RCVBUF, config.receiveBuffer());
        b.option(ChannelOption.SO_SNDBUF, config.sendBuffer());
        b.option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT);
        b.option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(NettyTransport.WRITE_LOW_WATER,
                NettyTransport.WRITE_HIGH_WATER));
        b.handler(new WanHandler());
        return b;
    }

    private static InetSocketAddress resolve(InetSocketAddress a) throws UnknownHostException {
        if (!a.isUnresolved()) {
            return a;
        }
        InetAddress ip = InetAddress.getByName(a.getHostString());
        return new InetSocketAddress(ip, a.getPort());
    }

    private static Set<InetAddress> localAddresses() throws SocketException {
        Set<InetAddress> set = new HashSet<>();
        for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            set.addAll(Collections.list(nif.getInetAddresses()));
        }
        return Set.copyOf(set);
    }

    private boolean isOwnEmission(InetSocketAddress from) {
        return from.getPort() == lanEmitPort && localAddresses.contains(from.getAddress());
    }

    // ---- peers -------------------------------------------------------------------------------------------------------

    /** Called on the admin client's thread: resolve names there, then hand the list to the event loop. */
    private void onAdminPeers(List<PeerAddress> peers) {
        List<Relay.PeerSpec> specs = new ArrayList<>();
        for (PeerAddress p : peers) {
            try {
                specs.add(new Relay.PeerSpec(p.id(), resolve(p.socketAddress())));
            } catch (UnknownHostException e) {
                LOG.warn("peer {} from FJM2-Admin: cannot resolve host {}; left out until the next list", p.id(),
                        p.host());
            }
        }
        adminPeers = List.copyOf(specs);
        applyPeers();
    }

    /** Replaces the static peers (tests, and tools that learn peers some other way); names are resolved here. */
    public void setStaticPeers(List<InetSocketAddress> peers) throws UnknownHostException {
        List<Relay.PeerSpec> resolved = new ArrayList<>();
        for (InetSocketAddress a : peers) {
            resolved.add(new Relay.PeerSpec(null, resolve(a)));
        }
        staticPeers = List.copyOf(resolved);
        applyPeers();
    }

    private void applyPeers() {
        List<Relay.PeerSpec> all = new ArrayList<>(staticPeers);
        all.addAll(adminPeers);
        if (!closed) {
            loop.execute(() -> {
                relay.setPeers(all, System.nanoTime());
                pass();
            });
        }
    }

    // ---- event loop --------------------------------------------------------------------------------------------------

    /** The duty cycle: send what the pacers allow, greet peers, flush the sockets, and arm the next pass. */
    private void pass() {
        if (closed) {
            return;
        }
        long next = relay.pump(System.nanoTime());
        lan.flush();
        if (wan != null) {
            wan.flush();
        }
        wake.at(next);
    }

    private <T> T call(Supplier<T> task) {
        if (loop.inEventLoop()) {
            return task.get();
        }
        CompletableFuture<T> f = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                f.complete(task.get());
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (Exception e) {
            throw new IllegalStateException("event loop call failed: " + e.getMessage(), e);
        }
    }

    /** A bug, not bad input (that is refused and counted): logged (rate-limited) and survived. */
    private void relayFailed(InetSocketAddress from, RuntimeException e) {
        if (failureLog.allow()) {
            LOG.error("datagram from {} dropped: the relay failed ({} more since the last line)", from,
                    failureLog.takeSuppressed(), e);
        }
    }

    private final class LanHandler implements NettyTransport.Handler {
        @Override
        public void onDatagram(ByteBuf datagram, InetSocketAddress sender) {
            try {
                if (!closed) {
                    relay.onLanDatagram(datagram, sender, System.nanoTime());
                }
            } catch (RuntimeException e) {
                relayFailed(sender, e);
            }
        }

        @Override
        public void onReadComplete() {
            if (!closed) {
                pass();
            }
        }

        @Override
        public void onWritable() {
        }
    }

    private final class WanHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                if (!closed) {
                    relay.onWanDatagram(packet.content(), packet.sender(), System.nanoTime());
                }
            } catch (RuntimeException e) {
                relayFailed(packet.sender(), e);
            } finally {
                packet.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (!closed) {
                pass();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("WAN socket error: {}", cause.toString());
        }
    }

    private final class Output implements Relay.Output {
        @Override
        public boolean emitOnLan(ByteBuf message) {
            if (!lan.isWritable()) {
                message.release();
                return false;
            }
            lan.writeToGroup(message);
            return true;
        }

        @Override
        public boolean sendToPeer(ByteBuf frame, InetSocketAddress to) {
            if (!wan.isWritable()) {
                frame.release();
                return false;
            }
            wan.write(new DatagramPacket(frame, to), wan.voidPromise());
            return true;
        }
    }

    // ---- observation -----------------------------------------------------------------------------------------------

    public TunnelConfig config() {
        return config;
    }

    public RelayCounters counters() {
        return relay.counters();
    }

    /** The peers now (listed and learned). */
    public List<Peer> peers() {
        return relay.peers();
    }

    /** Whether it has peers and every one answered its hello: data flows to all of them. */
    public boolean allPeersAnswering() {
        List<Peer> peers = relay.peers();
        return !peers.isEmpty() && peers.stream().allMatch(p -> p.state() == Peer.State.ANSWERING);
    }

    /** The UDP port peers reach this daemon at. */
    public int listenPort() {
        return ((InetSocketAddress) wan.localAddress()).getPort();
    }

    /** The event loop that owns the sockets and the relay (tests block it to make the kernel drop datagrams). */
    EventLoop eventLoop() {
        return loop;
    }

    /** The source port of the daemon's LAN emissions. */
    public int lanEmitPort() {
        return lanEmitPort;
    }

    @Override
    public String getNodeId() {
        return config.nodeId();
    }

    @Override
    public Map<String, Long> getCounters() {
        Map<String, Long> m = new LinkedHashMap<>();
        relay.counters().snapshot().forEach((k, v) -> m.put(k.name().toLowerCase(Locale.ROOT), v));
        KernelDrops s = kernelSockets;
        KernelDrops.Counts drops = s == null ? KernelDrops.Counts.UNKNOWN : s.read();
        m.put("kernel_drops_lan", drops.lan());
        m.put("kernel_drops_wan", drops.wan());
        return m;
    }

    @Override
    public String[] getPeers() {
        return relay.peers().stream().map(TunnelDaemon::peerLine).toArray(String[]::new);
    }

    @Override
    public long getRepairCacheBytes() {
        return relay.repairCache() == null ? 0 : call(() -> relay.repairCache().bytes());
    }

    @Override
    public int getRepairCacheEntries() {
        return relay.repairCache() == null ? 0 : call(() -> relay.repairCache().size());
    }

    @Override
    public String getStatusLine() {
        RelayCounters c = relay.counters();
        StringBuilder sb = new StringBuilder(256);
        sb.append("fjm2d ").append(config.nodeId()).append(": lan in ")
                .append(c.get(RelayCounters.Counter.LAN_PACKETS_IN)).append('/')
                .append(mb(c.get(RelayCounters.Counter.LAN_BYTES_IN))).append(" out ")
                .append(c.get(RelayCounters.Counter.LAN_PACKETS_OUT)).append('/')
                .append(mb(c.get(RelayCounters.Counter.LAN_BYTES_OUT)))
                .append(", dup ").append(c.get(RelayCounters.Counter.DUPLICATES))
                .append(", malformed ").append(c.get(RelayCounters.Counter.MALFORMED))
                .append(", rejected ").append(c.rejected());
        if (c.rejected() > 0) {
            sb.append(" (").append(c.refusals()).append(')');
        }
        sb
                .append(", repairs served ").append(c.get(RelayCounters.Counter.REPAIRS_SERVED))
                .append(" (nacks answered ").append(c.get(RelayCounters.Counter.NACKS_ANSWERED))
                .append(", rewritten ").append(c.get(RelayCounters.Counter.NACKS_REWRITTEN)).append(')');
        KernelDrops.Counts drops = kernelDrops;
        if (drops.lan() > 0 || drops.wan() > 0) {
            sb.append(", kernel drops lan ").append(drops.lan()).append(" wan ").append(drops.wan());
        }
        String clash = relay.nodeIdClashWith();
        if (clash != null) {
            sb.append(", NODE ID CLASH with ").append(clash).append(" (")
                    .append(c.get(RelayCounters.Counter.NODE_ID_CLASH)).append(" frames refused)");
        }
        for (Peer p : relay.peers()) {
            sb.append(" | ").append(peerLine(p));
        }
        return sb.toString();
    }

    @Override
    public long getNodeIdClashes() {
        return relay.counters().get(RelayCounters.Counter.NODE_ID_CLASH);
    }

    @Override
    public String getNodeIdClashWith() {
        return relay.nodeIdClashWith();
    }

    @Override
    public String getRefusals() {
        return relay.counters().refusals();
    }

    private static String peerLine(Peer p) {
        PeerCounters c = p.counters();
        long heard = p.lastHeardMillis();
        return p + " in " + c.get(PeerCounters.Counter.PACKETS_IN) + "/" + mb(c.get(PeerCounters.Counter.BYTES_IN))
                + " out " + c.get(PeerCounters.Counter.PACKETS_OUT) + "/" + mb(c.get(PeerCounters.Counter.BYTES_OUT))
                + " qdrop " + c.get(PeerCounters.Counter.QUEUE_DROPS) + " repairs "
                + c.get(PeerCounters.Counter.REPAIRS_SERVED) + " " + p.state().name().toLowerCase(Locale.ROOT)
                + " heard "
                + (heard == 0 ? "never" : String.format(Locale.ROOT, "%.1fs ago",
                (System.currentTimeMillis() - heard) / 1000.0));
    }

    private static String mb(long bytes) {
        return String.format(Locale.ROOT, "%.1fMB", bytes / 1e6);
    }

    private void registerJmx() {
        try {
            jmxName = new ObjectName("org.fjm2.tunnel:type=Tunnel,node=" + ObjectName.quote(config.nodeId()));
            ManagementFactory.getPlatformMBeanServer().registerMBean(this, jmxName);
        } catch (Exception e) {
            LOG.warn("JMX bean not registered: {}", e.toString());
            jmxName = null;
        }
    }

    // ---- shutdown ----------------------------------------------------------------------------------------------------

    /** Deregisters from the admin, stops relaying, releases every buffer and logs the final counters. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (admin != null) {
            admin.close();
        }
        if (!loop.isShuttingDown()) {
            try {
                call(() -> {
                    closed = true;
                    if (status != null) {
                        status.cancel(false);
                    }
                    if (dropsCheck != null) {
                        dropsCheck.cancel(false);
                    }
                    wake.cancel();
                    relay.close();
                    return null;
                });
            } catch (RuntimeException e) {
                LOG.warn("error while stopping the relay: {}", e.toString());
            }
        }
        closed = true;
        if (wan != null) {
            try {
                wan.close().await(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        lan.close();
        if (jmxName != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(jmxName);
            } catch (Exception e) {
                LOG.debug("JMX unregister: {}", e.toString());
            }
        }
        LOG.info("FJM2D {} stopped: {}", config.nodeId(), getStatusLine());
    }
}
