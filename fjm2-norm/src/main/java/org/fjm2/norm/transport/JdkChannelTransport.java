package org.fjm2.norm.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectableChannel;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoEvent;
import io.netty.channel.nio.NioIoHandle;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.nio.NioIoOps;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.fjm2.norm.api.NormConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An allocation-free transport ({@code transport=jdk}): plain JDK {@link DatagramChannel}s registered with a Netty
 * NIO event loop through its {@link NioIoHandle} API. Datagrams are read straight into one reused direct buffer
 * (the JDK caches the sender's address object while the sender stays the same) and written from the pooled
 * packet buffers' own NIO views, so steady-state send and receive allocate nothing, at the cost of one system call
 * per datagram (no recvmmsg/sendmmsg batching, which the native epoll transport has).
 *
 * <p>The group socket is bound to the group address itself (Linux then delivers only that group's datagrams to it,
 * what IP_MULTICAST_ALL=0 does for the epoll transport); an interface is required.
 */
public final class JdkChannelTransport implements DatagramTransport {

    private final org.fjm2.norm.util.LogLimiter failureLog =
            new org.fjm2.norm.util.LogLimiter(org.fjm2.norm.util.LogLimiter.DEFAULT_INTERVAL_NANOS);
    private final org.fjm2.norm.util.LogLimiter errorLog =
            new org.fjm2.norm.util.LogLimiter(org.fjm2.norm.util.LogLimiter.DEFAULT_INTERVAL_NANOS);

    private static final Logger LOG = LoggerFactory.getLogger(JdkChannelTransport.class);

    /** Datagrams read per readiness event before yielding to timers and the transmitter. */
    public static final int READ_BATCH = 64;
    /** Datagrams queued while the transmit socket is full (beyond it the transmitter is paused). */
    public static final int PENDING_LIMIT = 4096;

    private final NormConfig config;
    private final Handler handler;
    private final EventLoopGroup group;
    private final IoEventLoop loop;
    private final ByteBufAllocator allocator = PooledByteBufAllocator.DEFAULT;
    private final InetSocketAddress groupAddress;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(NettyTransport.MAX_DATAGRAM);
    private final ByteBuf readView = Unpooled.wrappedBuffer(readBuffer);
    private final ArrayDeque<ByteBuf> pending = new ArrayDeque<>();
    private DatagramChannel groupChannel;
    private DatagramChannel transmitChannel;
    private DatagramChannel feedbackChannel;
    private IoRegistration transmitRegistration;
    private boolean writable = true;
    private long writeDrops;

    public JdkChannelTransport(NormConfig config, Handler handler, String threadName) {
        this.config = config;
        this.handler = handler;
        this.group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(threadName, true),
                NioIoHandler.newFactory());
        this.loop = (IoEventLoop) group.next();
        this.groupAddress = new InetSocketAddress(config.group(), config.port());
    }

    @Override
    public String kind() {
        return "jdk";
    }

    @Override
    public EventLoop eventLoop() {
        return loop;
    }

    @Override
    public ByteBufAllocator allocator() {
        return allocator;
    }

    @Override
    public void start() throws IOException {
        if (config.interfaceName() == null || config.interfaceName().isEmpty()) {
            throw new IllegalArgumentException("interface: transport=jdk needs an interface name");
        }
        NetworkInterface nif = NetworkInterface.getByName(config.interfaceName());
        if (nif == null) {
            throw new IllegalArgumentException("interface: no network interface named '" + config.interfaceName() + "'");
        }
        try {
            boolean multicast = config.group().isMulticastAddress();
            groupChannel = open();
            groupChannel.setOption(StandardSocketOptions.SO_RCVBUF, config.receiveBuffer());
            groupChannel.bind(new InetSocketAddress(multicast ? config.group() : InetAddress.getByName("0.0.0.0"),
                    config.port()));
            if (multicast) {
                groupChannel.join(config.group(), nif);
            }
            transmitChannel = open();
            transmitChannel.setOption(StandardSocketOptions.SO_SNDBUF, config.sendBuffer());
            transmitChannel.setOption(StandardSocketOptions.IP_MULTICAST_IF, nif);
            transmitChannel.setOption(StandardSocketOptions.IP_MULTICAST_TTL, config.ttl());
            transmitChannel.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, config.loopback());
            transmitChannel.setOption(StandardSocketOptions.IP_TOS, config.tos());
            transmitChannel.bind(new InetSocketAddress(0));
            int port = transmitPort();
            feedbackChannel = open();
            feedbackChannel.setOption(StandardSocketOptions.SO_RCVBUF, config.receiveBuffer());
            feedbackChannel.setOption(StandardSocketOptions.IP_TOS, config.tos());
            feedbackChannel.bind(new InetSocketAddress(port));
            transmitChannel.connect(groupAddress);
            register(groupChannel, true);
            register(feedbackChannel, true);
            transmitRegistration = register(transmitChannel, false);
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("NORM transport jdk on {} interface {} (source port {})", groupAddress, nif.getName(),
                transmitPort());
    }

    private static DatagramChannel open() throws IOException {
        DatagramChannel c = DatagramChannel.open(StandardProtocolFamily.INET);
        c.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        c.setOption(StandardSocketOptions.SO_REUSEPORT, true);
        c.configureBlocking(false);
        return c;
    }

    private IoRegistration register(DatagramChannel channel, boolean reads) throws IOException {
        try {
            IoRegistration registration = loop.register(new Handle(channel, reads)).syncUninterruptibly().getNow();
            if (reads) {
                registration.submit(NioIoOps.READ);
            }
            return registration;
        } catch (RuntimeException e) {
            throw new IOException("cannot register channel: " + e.getMessage(), e);
        }
    }

    @Override
    public int receiveBufferBytes() {
        try {
            return groupChannel == null ? -1 : groupChannel.getOption(StandardSocketOptions.SO_RCVBUF);
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public int transmitPort() {
        try {
            return ((InetSocketAddress) transmitChannel.getLocalAddress()).getPort();
        } catch (IOException e) {
            return -1;
        }
    }

    @Override
    public ByteBuf allocate(int capacity) {
        return allocator.directBuffer(capacity);
    }

    @Override
    public void writeToGroup(ByteBuf datagram) {
        if (!pending.isEmpty()) {
            queue(datagram);
            return;
        }
        try {
            int length = datagram.readableBytes();
            int written = transmitChannel.write(datagram.internalNioBuffer(datagram.readerIndex(), length));
            if (written == 0) {
                queue(datagram);
                return;
            }
        } catch (IOException e) {
            LOG.warn("transmit error: {}", e.toString());
        }
        datagram.release();
    }

    private void queue(ByteBuf datagram) {
        if (pending.size() >= PENDING_LIMIT) {
            writeDrops++;
            datagram.release();
            return;
        }
        pending.addLast(datagram);
        if (writable) {
            writable = false;
            transmitRegistration.submit(NioIoOps.WRITE);
        }
    }

    @Override
    public void writeTo(ByteBuf datagram, InetSocketAddress destination) {
        try {
            feedbackChannel.send(datagram.internalNioBuffer(datagram.readerIndex(), datagram.readableBytes()),
                    destination);
        } catch (IOException e) {
            LOG.warn("feedback send to {} failed: {}", destination, e.toString());
        } finally {
            datagram.release();
        }
    }

    @Override
    public void flush() {
        // Writes go out at once; only a full socket leaves datagrams pending (drained on writability).
    }

    @Override
    public boolean isWritable() {
        return writable;
    }

    /** Datagrams dropped because even the pending queue was full. */
    public long writeDrops() {
        return writeDrops;
    }

    private void drainPending() {
        try {
            while (!pending.isEmpty()) {
                ByteBuf next = pending.peekFirst();
                if (transmitChannel.write(next.internalNioBuffer(next.readerIndex(), next.readableBytes())) == 0) {
                    return;
                }
                pending.pollFirst().release();
            }
        } catch (IOException e) {
            LOG.warn("transmit error: {}", e.toString());
            pending.pollFirst().release();
        }
        writable = true;
        transmitRegistration.submit(NioIoOps.NONE);
        handler.onWritable();
    }

    @Override
    public void close() {
        if (loop.inEventLoop()) {
            closeChannels();
        } else if (!loop.isShuttingDown()) {
            try {
                loop.submit(this::closeChannels).await(2, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS);
    }

    private void closeChannels() {
        for (DatagramChannel c : new DatagramChannel[] {groupChannel, transmitChannel, feedbackChannel}) {
            if (c != null) {
                try {
                    c.close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
        }
        ByteBuf b;
        while ((b = pending.pollFirst()) != null) {
            b.release();
        }
    }

    /** One channel on the event loop: reads a batch of datagrams, or drains pending writes. */
    private final class Handle implements NioIoHandle {
        private final DatagramChannel channel;
        private final boolean reads;

        Handle(DatagramChannel channel, boolean reads) {
            this.channel = channel;
            this.reads = reads;
        }

        @Override
        public SelectableChannel selectableChannel() {
            return channel;
        }

        @Override
        public void handle(IoRegistration registration, IoEvent event) {
            NioIoOps ops = ((NioIoEvent) event).ops();
            if (ops.contains(NioIoOps.WRITE)) {
                drainPending();
            }
            if (reads && ops.contains(NioIoOps.READ)) {
                read();
            }
        }

        private void read() {
            try {
                for (int i = 0; i < READ_BATCH; i++) {
                    readBuffer.clear();
                    SocketAddress from = channel.receive(readBuffer);
                    if (from == null) {
                        break;
                    }
                    readView.setIndex(0, readBuffer.position());
                    try {
                        handler.onDatagram(readView, (InetSocketAddress) from);
                    } catch (RuntimeException e) {
                        if (failureLog.allow()) {
                            LOG.error("datagram from {} dropped: handler failed ({} more since the last line)", from,
                                    failureLog.takeSuppressed(), e);
                        }
                    }
                }
            } catch (IOException e) {
                if (channel.isOpen() && errorLog.allow()) {
                    LOG.warn("receive error: {} ({} more since the last line)", e.toString(), errorLog.takeSuppressed());
                }
            }
            handler.onReadComplete();
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
