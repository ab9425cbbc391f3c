package org.fjm2.testkit.linkem;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.AttributeKey;
import org.fjm2.util.Quantities;

/**
 * UDP relay mode: datagrams a client sends to the listen address go to the target from a forwarding socket of
 * that client's own (or from one shared socket), and what the target sends back to that socket returns to the
 * client from the listen address. Put one between two FJM2D tunnels to give them a WAN.
 *
 * <p>Forwarding sockets are connected to the target, so the kernel delivers to them only the target's replies.
 * A client silent for {@link #DEFAULT_CLIENT_IDLE_TIMEOUT} loses its forwarding socket (a later datagram opens a
 * new one, from a new port).
 */
public final class UdpRelay extends LinkEmulator {

    /** Most clients with a forwarding socket at once; datagrams from more are ignored and counted. */
    public static final int DEFAULT_MAX_CLIENTS = 1024;
    /** A client's forwarding socket closes after this long without traffic either way. */
    public static final Duration DEFAULT_CLIENT_IDLE_TIMEOUT = Duration.ofSeconds(60);
    /** Datagrams that may wait for a new client's forwarding socket to be bound. */
    static final int PENDING_LIMIT = 4096;
    private static final AttributeKey<ClientFlow> FLOW = AttributeKey.valueOf("linkem.flow");

    private final InetSocketAddress listen;
    private final InetSocketAddress target;
    private final boolean socketPerClient;
    private final int maxClients;
    private final long idleTimeoutNanos;
    private final InetAddress forwardingAddress;

    private Channel listenChannel;
    private Bootstrap forwarding;
    private final ReplySink replies = new ReplySink();
    private final Map<InetSocketAddress, ClientFlow> flows = new HashMap<>();
    private ClientFlow sharedFlow;
    private volatile int openFlows;
    private boolean clientLimitWarned;

    private UdpRelay(Builder b) {
        super(b);
        this.listen = b.listen;
        this.target = b.target;
        this.socketPerClient = b.socketPerClient;
        this.maxClients = b.maxClients;
        this.idleTimeoutNanos = b.clientIdleTimeout.toNanos();
        this.forwardingAddress = b.forwardingAddress;
    }

    /** The address clients send to (with the actual port when the listen port was 0). */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) listenChannel.localAddress();
    }

    @Override
    public String mode() {
        return "udp";
    }

    @Override
    String endpoints() {
        return Endpoints.format(listenChannel != null ? localAddress() : listen) + " -> " + Endpoints.format(target)
                + (socketPerClient ? " (socket per client)" : " (one shared socket)");
    }

    @Override
    int flowCount() {
        return openFlows;
    }

    @Override
    void open() throws IOException {
        forwarding = datagramBootstrap().handler(new ReplyHandler());
        Bootstrap listener = datagramBootstrap().handler(new ListenHandler());
        listenChannel = awaitChannel(listener.bind(listen), "cannot listen on UDP " + Endpoints.format(listen));
    }

    private Bootstrap datagramBootstrap() {
        return new Bootstrap().group(group).channelFactory(NettyTransport.datagramChannels())
                .option(ChannelOption.SO_RCVBUF, DEFAULT_SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_SNDBUF, DEFAULT_SOCKET_BUFFER_BYTES)
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM_BYTES));
    }

    @Override
    void closeChannels() {
        if (listenChannel != null) {
            listenChannel.close();
        }
        for (ClientFlow flow : new ArrayList<>(flows.values())) {
            flow.close();
        }
        if (sharedFlow != null) {
            sharedFlow.close();
        }
    }

    @Override
    List<Channel> receivingSockets() {
        List<Channel> sockets = new ArrayList<>();
        sockets.add(listenChannel);
        flows.values().forEach(flow -> sockets.add(flow.channel));
        if (sharedFlow != null) {
            sockets.add(sharedFlow.channel);
        }
        return sockets;
    }

    @Override
    void housekeeping() {
        long now = System.nanoTime();
        List<ClientFlow> idle = new ArrayList<>();
        for (ClientFlow flow : flows.values()) {
            if (now - flow.lastActiveNanos > idleTimeoutNanos) {
                idle.add(flow);
            }
        }
        for (ClientFlow flow : idle) {
            log.info("linkem {}: client {} idle for {}, closing its forwarding socket", name,
                    Endpoints.format(flow.client), Quantities.formatDuration(Duration.ofNanos(idleTimeoutNanos)));
            flow.close();
        }
    }

    /** The flow of a client, opening its forwarding socket on first sight; null when over the client limit. */
    private ClientFlow flowFor(InetSocketAddress client) {
        if (!socketPerClient) {
            if (sharedFlow == null) {
                sharedFlow = new ClientFlow(client);
            }
            sharedFlow.client = client;
            return sharedFlow;
        }
        ClientFlow flow = flows.get(client);
        if (flow == null) {
            if (flows.size() >= maxClients) {
                if (!clientLimitWarned) {
                    clientLimitWarned = true;
                    log.warn("linkem {}: {} clients already; ignoring datagrams from new ones such as {}", name,
                            maxClients, Endpoints.format(client));
                }
                return null;
            }
            flow = new ClientFlow(client);
            flows.put(client, flow);
        }
        return flow;
    }

    /** Client datagrams arriving on the listen socket: the forward direction. */
    private final class ListenHandler extends DatagramHandler {
        @Override
        void onDatagram(ChannelHandlerContext ctx, InetSocketAddress sender, ByteBuf content) {
            ClientFlow flow = flowFor(sender);
            if (flow == null) {
                countIgnored();
                return;
            }
            flow.lastActiveNanos = System.nanoTime();
            relayDatagram(forward, compactCopy(ctx.alloc(), content), flow, null);
        }
    }

    /** The target's replies arriving on a forwarding socket: the reverse direction. */
    private final class ReplyHandler extends DatagramHandler {
        @Override
        void onDatagram(ChannelHandlerContext ctx, InetSocketAddress sender, ByteBuf content) {
            ClientFlow flow = ctx.channel().attr(FLOW).get();
            if (flow == null || flow.closed) {
                countIgnored();
                return;
            }
            flow.lastActiveNanos = System.nanoTime();
            relayDatagram(reverse, compactCopy(ctx.alloc(), content), replies, flow.client);
        }
    }

    /** Sends replies to clients from the listen socket. */
    private final class ReplySink extends PacketSink {
        @Override
        void send(ByteBuf payload, InetSocketAddress recipient) {
            listenChannel.write(new DatagramPacket(payload, recipient), listenChannel.voidPromise());
        }

        @Override
        void flush() {
            listenChannel.flush();
        }
    }

    /** One client's forwarding socket, connected to the target, and where its replies go. */
    private final class ClientFlow extends PacketSink {
        InetSocketAddress client;
        long lastActiveNanos = System.nanoTime();
        boolean closed;
        private final Channel channel;
        private final ArrayDeque<ByteBuf> pending = new ArrayDeque<>();
        private boolean ready;

        ClientFlow(InetSocketAddress client) {
            this.client = client;
            InetSocketAddress local = new InetSocketAddress(forwardingAddress, 0);
            ChannelFuture connect = forwarding.connect(target, local);
            channel = connect.channel();
            channel.attr(FLOW).set(this);
            openFlows++;
            connect.addListener(f -> onConnected(f.isSuccess(), f.cause()));
        }

        private void onConnected(boolean success, Throwable cause) {
            if (!success) {
                log.warn("linkem {}: cannot open a forwarding socket for client {} towards {}: {}", name,
                        Endpoints.format(client), Endpoints.format(target), cause.toString());
                close();
                return;
            }
            log.debug("linkem {}: client {} forwards from {}", name, Endpoints.format(client), channel.localAddress());
            ready = true;
            ByteBuf waiting;
            while ((waiting = pending.pollFirst()) != null) {
                channel.write(waiting, channel.voidPromise());
            }
            channel.flush();
        }

        @Override
        void send(ByteBuf payload, InetSocketAddress recipient) {
            if (ready) {
                channel.write(payload, channel.voidPromise());
            } else if (!closed && pending.size() < PENDING_LIMIT) {
                pending.addLast(payload);
            } else {
                payload.release();
                countSendError(new IOException("forwarding socket of client " + Endpoints.format(client) + " not open"));
            }
        }

        @Override
        void flush() {
            if (ready) {
                channel.flush();
            }
        }

        void close() {
            if (closed) {
                return;
            }
            closed = true;
            ready = false;
            openFlows--;
            if (this == sharedFlow) {
                sharedFlow = null;
            } else {
                flows.remove(client);
            }
            ByteBuf waiting;
            while ((waiting = pending.pollFirst()) != null) {
                waiting.release();
            }
            channel.close();
        }
    }

    /** Builds a {@link UdpRelay}. */
    public static final class Builder extends LinkEmulator.Builder<Builder, UdpRelay> {
        private final InetSocketAddress listen;
        private final InetSocketAddress target;
        private boolean socketPerClient = true;
        private int maxClients = DEFAULT_MAX_CLIENTS;
        private Duration clientIdleTimeout = DEFAULT_CLIENT_IDLE_TIMEOUT;
        private InetAddress forwardingAddress;

        Builder(InetSocketAddress listen, InetSocketAddress target) {
            this.listen = listen;
            this.target = target;
        }

        /**
         * True (default): each client gets its own forwarding socket, so the target tells clients apart. False:
         * one socket forwards for every client and the target's replies go to the client heard from last.
         */
        public Builder socketPerClient(boolean perClient) {
            this.socketPerClient = perClient;
            return this;
        }

        /** Default {@link #DEFAULT_MAX_CLIENTS}. */
        public Builder maxClients(int max) {
            this.maxClients = max;
            return this;
        }

        /** Default {@link #DEFAULT_CLIENT_IDLE_TIMEOUT}. */
        public Builder clientIdleTimeout(Duration timeout) {
            this.clientIdleTimeout = timeout;
            return this;
        }

        /** Local address the forwarding sockets bind to; default: any. */
        public Builder forwardingAddress(InetAddress address) {
            this.forwardingAddress = address;
            return this;
        }

        @Override
        public UdpRelay build() {
            if (listen == null || target == null) {
                throw new IllegalArgumentException("a UDP relay needs a listen address and a target");
            }
            if (target.isUnresolved() || target.getAddress().isAnyLocalAddress() || target.getPort() == 0) {
                throw new IllegalArgumentException("UDP relay target must be a reachable HOST:PORT, got " + target);
            }
            if (maxClients < 1) {
                throw new IllegalArgumentException("max clients must be >= 1, got " + maxClients);
            }
            return new UdpRelay(this);
        }
    }
}
