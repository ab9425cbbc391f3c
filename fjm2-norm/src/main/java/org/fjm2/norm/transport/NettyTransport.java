package org.fjm2.norm.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.util.concurrent.ThreadFactory;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioChannelOption;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.fjm2.norm.api.NormConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The datagram sockets of one NORM session, on one Netty event loop (native epoll with batched reads when it
 * loads, NIO otherwise). Three IPv4 channels:
 * <ul>
 *   <li><b>group</b>: bound to group:port (a multicast group) and joined on the chosen interface, so it receives
 *       what is sent to the group and nothing sent to the port by unicast (IP_MULTICAST_ALL off as well);</li>
 *   <li><b>transmit</b>: connected to group:port, so datagrams are written as plain buffers (no envelope per
 *       packet); carries TTL, loopback, TOS and the multicast interface;</li>
 *   <li><b>feedback</b>: bound to the transmit channel's own port, unconnected: it receives the unicast NACKs and
 *       ACKs receivers send to our source address, and sends our unicast feedback.</li>
 * </ul>
 * Everything runs on {@link #eventLoop()}; received datagrams go to the {@link Handler}. The receiving channels
 * start reading only once all three are open, so a datagram that arrives while the transport starts waits in the
 * socket instead of reaching a session that cannot answer yet.
 */
public final class NettyTransport implements DatagramTransport {

    private static final Logger LOG = LoggerFactory.getLogger(NettyTransport.class);

    /**
     * Largest datagram accepted: any UDP payload, since every sender of the group chooses its own segment size (up
     * to {@link NormConfig#MAX_SEGMENT_SIZE}) whatever ours is.
     */
    public static final int MAX_DATAGRAM = 65_535;
    /** Datagrams read per recvmmsg call with native epoll (each read takes a pooled buffer of 16 maximal slots). */
    public static final int READ_BATCH = 16;
    /** Outbound buffer above which the transmitter pauses (the socket is full). */
    public static final int WRITE_HIGH_WATER = 1024 * 1024;
    public static final int WRITE_LOW_WATER = 256 * 1024;

    private final NormConfig config;
    private final DatagramTransport.Handler handler;
    private final boolean epoll;
    private final EventLoopGroup group;
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final InetSocketAddress groupAddress;
    private Channel groupChannel;
    private Channel transmitChannel;
    private Channel feedbackChannel;
    private NetworkInterface networkInterface;

    public NettyTransport(NormConfig config, Handler handler, String threadName) {
        this.config = config;
        this.handler = handler;
        this.epoll = useEpoll(config.transport());
        ThreadFactory threads = new DefaultThreadFactory(threadName, true);
        this.group = new MultiThreadIoEventLoopGroup(1, threads,
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        this.groupAddress = new InetSocketAddress(config.group(), config.port());
    }

    private static boolean useEpoll(String choice) {
        switch (choice) {
            case "nio":
                return false;
            case "epoll":
                if (!Epoll.isAvailable()) {
                    throw new IllegalArgumentException("transport: native epoll is not available: "
                            + Epoll.unavailabilityCause());
                }
                return true;
            default:
                return Epoll.isAvailable();
        }
    }

    @Override
    public String kind() {
        return epoll ? "epoll" : "nio";
    }

    @Override
    public EventLoop eventLoop() {
        return group.next();
    }

    public boolean isEpoll() {
        return epoll;
    }

    @Override
    public ByteBufAllocator allocator() {
        return allocator;
    }

    /** Opens and binds the channels and joins the group. */
    @Override
    public void start() throws IOException {
        networkInterface = resolveInterface(config.interfaceName());
        boolean ownPacketsFiltered;
        try {
            InetSocketAddress groupBind = config.group().isMulticastAddress()
                    ? new InetSocketAddress(config.group(), config.port()) : new InetSocketAddress(config.port());
            groupChannel = bootstrap(true).bind(groupBind).sync().channel();
            // Protection may change where the source id sits; the session then discards its own packets itself.
            ownPacketsFiltered = epoll && config.protection() == null
                    && OwnPacketFilter.attach(groupChannel, config.nodeId());
            if (config.group().isMulticastAddress()) {
                join(groupChannel);
            }
            transmitChannel = bootstrap(false).bind(new InetSocketAddress(0)).sync().channel();
            int transmitPort = ((InetSocketAddress) transmitChannel.localAddress()).getPort();
            feedbackChannel = bootstrap(true).bind(new InetSocketAddress(transmitPort)).sync().channel();
            transmitChannel.connect(groupAddress).sync();
            groupChannel.config().setAutoRead(true);
            feedbackChannel.config().setAutoRead(true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IOException("interrupted while opening the transport", e);
        } catch (RuntimeException | IOException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new IOException("cannot open NORM transport on " + groupAddress + ": " + e.getMessage(), e);
        }
        LOG.info("NORM transport {} on {} interface {} (source port {}{})", epoll ? "epoll" : "nio", groupAddress,
                networkInterface == null ? "default" : networkInterface.getName(), transmitPort(),
                ownPacketsFiltered ? ", own packets dropped in the kernel" : "");
    }

    private void join(Channel channel) throws Exception {
        io.netty.channel.socket.DatagramChannel dc = (io.netty.channel.socket.DatagramChannel) channel;
        if (networkInterface != null) {
            dc.joinGroup(groupAddress, networkInterface).sync();
        } else {
            dc.joinGroup(config.group()).sync();
        }
    }

    private Bootstrap bootstrap(boolean receives) {
        Bootstrap b = new Bootstrap().group(group);
        if (epoll) {
            b.channelFactory(() -> new EpollDatagramChannel(SocketProtocolFamily.INET));
            b.option(EpollChannelOption.SO_REUSEPORT, true);
            b.option(EpollChannelOption.IP_MULTICAST_ALL, false);
            if (receives) {
                b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, MAX_DATAGRAM);
            }
        } else {
            b.channelFactory(() -> new NioDatagramChannel(SocketProtocolFamily.INET));
            b.option(NioChannelOption.of(StandardSocketOptions.SO_REUSEPORT), true);
        }
        b.option(ChannelOption.SO_REUSEADDR, true);
        b.option(ChannelOption.SO_RCVBUF, config.receiveBuffer());
        b.option(ChannelOption.SO_SNDBUF, config.sendBuffer());
        b.option(ChannelOption.IP_MULTICAST_TTL, config.ttl());
        b.option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, !config.loopback());
        b.option(ChannelOption.IP_TOS, config.tos());
        b.option(ChannelOption.ALLOCATOR, allocator);
        b.option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(WRITE_LOW_WATER, WRITE_HIGH_WATER));
        b.option(ChannelOption.RCVBUF_ALLOCATOR,
                new FixedRecvByteBufAllocator(epoll && receives ? MAX_DATAGRAM * READ_BATCH : MAX_DATAGRAM));
        if (networkInterface != null) {
            b.option(ChannelOption.IP_MULTICAST_IF, networkInterface);
        }
        b.handler(receives ? new Reader() : new WritabilityWatcher());
        if (receives) {
            b.option(ChannelOption.AUTO_READ, false);
        }
        return b;
    }

    private static NetworkInterface resolveInterface(String name) throws SocketException {
        if (name == null || name.isEmpty()) {
            return null;
        }
        NetworkInterface nif = NetworkInterface.getByName(name);
        if (nif == null) {
            try {
                nif = NetworkInterface.getByInetAddress(InetAddress.getByName(name));
            } catch (IOException ignored) {
                // fall through to the error below
            }
        }
        if (nif == null) {
            throw new IllegalArgumentException("interface: no network interface named '" + name + "'");
        }
        if (!nif.isUp()) {
            throw new IllegalArgumentException("interface: '" + name + "' is down");
        }
        return nif;
    }

    /** The source port of our datagrams. */
    @Override
    public int receiveBufferBytes() {
        Channel channel = groupChannel;
        if (channel == null) {
            return -1;
        }
        Integer granted = channel.config().getOption(ChannelOption.SO_RCVBUF);
        return granted == null ? -1 : granted;
    }

    @Override
    public int transmitPort() {
        return ((InetSocketAddress) transmitChannel.localAddress()).getPort();
    }

    @Override
    public ByteBuf allocate(int capacity) {
        return allocator.directBuffer(capacity);
    }

    /** Epoll sends a composite of direct buffers as one iovec array (sendmsg / sendmmsg); NIO would merge it. */
    @Override
    public boolean gathersWrites() {
        return epoll;
    }

    /** Queues a datagram to the group; {@link #flush()} sends the queued batch. */
    @Override
    public void writeToGroup(ByteBuf datagram) {
        transmitChannel.write(datagram, transmitChannel.voidPromise());
    }

    /** Queues a unicast datagram. */
    @Override
    public void writeTo(ByteBuf datagram, InetSocketAddress destination) {
        feedbackChannel.write(new DatagramPacket(datagram, destination), feedbackChannel.voidPromise());
    }

    @Override
    public void flush() {
        transmitChannel.flush();
        feedbackChannel.flush();
    }

    /** False while the transmit socket is full: the transmitter waits for {@link Handler#onWritable()}. */
    @Override
    public boolean isWritable() {
        return transmitChannel.isWritable();
    }

    /** Closes the channels (on the event loop) and shuts the event loop down. */
    @Override
    public void close() {
        for (Channel c : new Channel[] {groupChannel, transmitChannel, feedbackChannel}) {
            if (c != null) {
                try {
                    c.close().await(2000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        group.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Waits for the event loop thread to end (after {@link #close()}). */
    public void awaitTermination(long millis) throws InterruptedException {
        group.awaitTermination(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Reads datagrams and hands them to the session; never lets an exception out of the read loop. */
    private final class Reader extends ChannelInboundHandlerAdapter {
        private final org.fjm2.norm.util.LogLimiter failureLog =
                new org.fjm2.norm.util.LogLimiter(org.fjm2.norm.util.LogLimiter.DEFAULT_INTERVAL_NANOS);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                handler.onDatagram(packet.content(), packet.sender());
            } catch (RuntimeException e) {
                if (failureLog.allow()) {
                    LOG.error("datagram from {} dropped: handler failed ({} more since the last line)",
                            packet.sender(), failureLog.takeSuppressed(), e);
                }
            } finally {
                packet.release();
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            handler.onReadComplete();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (failureLog.allow()) {
                LOG.warn("receive error on {}: {} ({} more since the last line)", ctx.channel().localAddress(),
                        cause.toString(), failureLog.takeSuppressed());
            }
        }
    }

    private final class WritabilityWatcher extends ChannelInboundHandlerAdapter {
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                handler.onWritable();
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            io.netty.util.ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("transmit error: {}", cause.toString());
        }
    }
}
