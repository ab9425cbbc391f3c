package org.fjm2.testkit.linkem;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannel;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;

/**
 * TCP relay mode: each connection accepted on the listen address is relayed to the target, and the bytes of
 * each direction pass through that direction's profile as chunks (one per socket read) with departure times.
 * Put an ActiveMQ Artemis broker's port behind it to give the broker the same bad link as FJM2.
 *
 * <p>TCP cannot lose bytes, so the impairments are mapped onto what a TCP user sees:
 * <ul>
 *   <li>rate: chunks leave at the profile's rate; delay and jitter: each chunk arrives late, order always kept
 *       (jitter never reorders a stream; reordering and duplication do not apply and are ignored);</li>
 *   <li>loss (random or burst): a chunk hit by a loss draw is delayed by one retransmission timeout
 *       ({@link #DEFAULT_RETRANSMIT_TIMEOUT}), and the chunks behind it wait too, as with TCP's in-order delivery
 *       after a retransmission; counted as {@linkplain DirectionStats#delayedByLoss() delayed by loss};</li>
 *   <li>down periods: bytes arriving while the link is down are held, not lost, and leave when it is up again
 *       (counted as {@linkplain DirectionStats#heldWhileDown() held}); connections stay open;</li>
 *   <li>queue: instead of dropping, the relay stops reading from the sender once a direction holds more than
 *       its queue limit plus the bandwidth-delay product (or {@link #DEFAULT_UNLIMITED_RATE_WINDOW_BYTES} at an
 *       unlimited rate), so the sender's own TCP flow control pushes back.</li>
 * </ul>
 * A FIN travels through the delay line behind the data; a reset closes both sides at once.
 */
public final class TcpRelay extends LinkEmulator {

    /** The extra delay of a chunk hit by a loss draw: Linux's minimum TCP retransmission timeout. */
    public static final Duration DEFAULT_RETRANSMIT_TIMEOUT = Duration.ofMillis(200);
    /** Bytes in flight per direction before reading pauses, when the rate is unlimited (plus the queue limit). */
    public static final int DEFAULT_UNLIMITED_RATE_WINDOW_BYTES = 4 << 20;
    /** Largest chunk read from a socket at once: the granularity of the stream's departure times. */
    public static final int MAX_CHUNK_BYTES = 16 * 1024;
    /** How long a connection to the target may take. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

    private final InetSocketAddress listen;
    private final InetSocketAddress target;
    private final long retransmitTimeoutNanos;
    private Channel server;
    private final Set<Connection> connections = new HashSet<>();
    private volatile int openConnections;

    private TcpRelay(Builder b) {
        super(b);
        this.listen = b.listen;
        this.target = b.target;
        this.retransmitTimeoutNanos = b.retransmitTimeout.toNanos();
    }

    /** The address clients connect to (with the actual port when the listen port was 0). */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public String mode() {
        return "tcp";
    }

    @Override
    String endpoints() {
        return Endpoints.format(server != null ? localAddress() : listen) + " -> " + Endpoints.format(target);
    }

    @Override
    int flowCount() {
        return openConnections;
    }

    @Override
    long retransmitTimeoutNanos() {
        return retransmitTimeoutNanos;
    }

    @Override
    void open() throws IOException {
        ServerBootstrap b = new ServerBootstrap().group(group).channelFactory(NettyTransport.serverChannels())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.RECVBUF_ALLOCATOR, chunkAllocator())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        new Connection(ch);
                    }
                });
        server = awaitChannel(b.bind(listen), "cannot listen on TCP " + Endpoints.format(listen));
    }

    private static AdaptiveRecvByteBufAllocator chunkAllocator() {
        return new AdaptiveRecvByteBufAllocator(512, 4096, MAX_CHUNK_BYTES);
    }

    @Override
    void closeChannels() {
        if (server != null) {
            server.close();
        }
        for (Connection c : new ArrayList<>(connections)) {
            c.close();
        }
    }

    private long windowBytes(LinkProfile profile) {
        if (profile.rateBitsPerSecond() == 0) {
            return profile.queueLimitBytes() + (long) DEFAULT_UNLIMITED_RATE_WINDOW_BYTES;
        }
        long latencyNanos = profile.delay().toNanos() + profile.jitter().toNanos();
        return profile.queueLimitBytes() + profile.rateBitsPerSecond() / 8 * latencyNanos / 1_000_000_000L;
    }

    /** One relayed connection: the accepted socket, the socket to the target, and a pump each way. */
    private final class Connection {
        private final SocketChannel inbound;
        private final SocketChannel outbound;
        private final StreamPump toTarget;
        private final StreamPump toClient;
        private boolean connected;
        private boolean closed;

        Connection(SocketChannel inbound) {
            this.inbound = inbound;
            connections.add(this);
            openConnections++;
            Bootstrap b = new Bootstrap().group(inbound.eventLoop()).channelFactory(NettyTransport.socketChannels())
                    .option(ChannelOption.AUTO_READ, false)
                    .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.RECVBUF_ALLOCATOR, chunkAllocator())
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) CONNECT_TIMEOUT.toMillis())
                    .handler(new SideHandler(this, false));
            ChannelFuture connect = b.connect(target);
            this.outbound = (SocketChannel) connect.channel();
            this.toTarget = new StreamPump(this, inbound, outbound, forward);
            this.toClient = new StreamPump(this, outbound, inbound, reverse);
            inbound.pipeline().addLast(new SideHandler(this, true));
            connect.addListener(f -> onConnected(f.isSuccess(), f.cause()));
        }

        private void onConnected(boolean success, Throwable cause) {
            if (!success) {
                log.warn("linkem {}: cannot connect to {} for client {}: {}", name, Endpoints.format(target),
                        inbound.remoteAddress(), cause.toString());
                close();
                return;
            }
            connected = true;
            log.debug("linkem {}: relaying {} -> {}", name, inbound.remoteAddress(), Endpoints.format(target));
            toTarget.updateReading();
            toClient.updateReading();
        }

        void endOfStreamDelivered() {
            if (toTarget.endDelivered && toClient.endDelivered) {
                close();
            }
        }

        void close() {
            if (closed) {
                return;
            }
            closed = true;
            connections.remove(this);
            openConnections--;
            inbound.close();
            outbound.close();
        }
    }

    /** Bytes read from one socket, delayed through one direction, written to the other socket. */
    private final class StreamPump extends PacketSink {
        private final Connection connection;
        private final SocketChannel source;
        private final SocketChannel destination;
        private final LinkDirection direction;
        private final long windowBytes;
        private long pendingBytes;
        private boolean sourceEnded;
        boolean endDelivered;

        StreamPump(Connection connection, SocketChannel source, SocketChannel destination, LinkDirection direction) {
            this.connection = connection;
            this.source = source;
            this.destination = destination;
            this.direction = direction;
            this.windowBytes = windowBytes(direction.profile());
        }

        void onRead(ByteBuf chunk) {
            if (connection.closed) {
                chunk.release();
                return;
            }
            int bytes = chunk.readableBytes();
            pendingBytes += bytes;
            schedule(direction.admitChunk(System.nanoTime(), bytes), chunk, this, null, direction);
            updateReading();
        }

        void onSourceEnded() {
            if (!sourceEnded) {
                sourceEnded = true;
                schedule(direction.admitEndOfStream(System.nanoTime()), null, this, null, direction);
                updateReading();
            }
        }

        @Override
        void send(ByteBuf payload, InetSocketAddress recipient) {
            pendingBytes -= payload.readableBytes();
            if (connection.closed) {
                payload.release();
                return;
            }
            destination.write(payload, destination.voidPromise());
        }

        @Override
        void flush() {
            if (!connection.closed) {
                destination.flush();
                updateReading();
            }
        }

        @Override
        void endOfStream() {
            endDelivered = true;
            if (!connection.closed) {
                // Half-close only once every byte before the FIN is written: shutdownOutput fails pending writes.
                destination.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> {
                    destination.shutdownOutput();
                    connection.endOfStreamDelivered();
                });
            }
        }

        /** Reads while the direction has room and the destination takes writes: TCP back-pressure end to end. */
        void updateReading() {
            boolean read = connection.connected && !connection.closed && !sourceEnded
                    && pendingBytes < windowBytes && destination.isWritable();
            if (source.config().isAutoRead() != read) {
                source.config().setAutoRead(read);
            }
        }
    }

    /** Events of one socket of a connection, handed to the pump reading it or the pump writing to it. */
    private final class SideHandler extends ChannelInboundHandlerAdapter {
        private final Connection connection;
        private final boolean clientSide;

        SideHandler(Connection connection, boolean clientSide) {
            this.connection = connection;
            this.clientSide = clientSide;
        }

        private StreamPump reading() {
            return clientSide ? connection.toTarget : connection.toClient;
        }

        private StreamPump writing() {
            return clientSide ? connection.toClient : connection.toTarget;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            reading().onRead((ByteBuf) msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            drainDue();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                reading().onSourceEnded();
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            writing().updateReading();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            connection.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            log.debug("linkem {}: connection error, closing both sides: {}", name, cause.toString());
            connection.close();
        }
    }

    /** Builds a {@link TcpRelay}. */
    public static final class Builder extends LinkEmulator.Builder<Builder, TcpRelay> {
        private final InetSocketAddress listen;
        private final InetSocketAddress target;
        private Duration retransmitTimeout = DEFAULT_RETRANSMIT_TIMEOUT;

        Builder(InetSocketAddress listen, InetSocketAddress target) {
            this.listen = listen;
            this.target = target;
        }

        /** Extra delay of a chunk hit by a loss draw; default {@link #DEFAULT_RETRANSMIT_TIMEOUT}. */
        public Builder retransmitTimeout(Duration timeout) {
            this.retransmitTimeout = timeout;
            return this;
        }

        @Override
        public TcpRelay build() {
            if (listen == null || target == null) {
                throw new IllegalArgumentException("a TCP relay needs a listen address and a target");
            }
            if (target.isUnresolved() || target.getAddress().isAnyLocalAddress() || target.getPort() == 0) {
                throw new IllegalArgumentException("TCP relay target must be a reachable HOST:PORT, got " + target);
            }
            if (retransmitTimeout.isNegative()) {
                throw new IllegalArgumentException("retransmission timeout must be >= 0, got " + retransmitTimeout);
            }
            return new TcpRelay(this);
        }
    }
}
