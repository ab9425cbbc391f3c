package org.fjm2.testkit.linkem;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOption;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.DatagramPacket;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * Multicast bridge mode: datagrams arriving on side A's group are re-emitted on side B's group (forward) and
 * vice versa (reverse), each direction through its own profile. It lets FJM2 run end to end over a bad link on
 * one host, e.g. publishers on {@code 239.1.1.1:7001@lo} and subscribers on {@code 239.1.1.1:7002@lo}.
 *
 * <p>Multicast loopback delivers the bridge's own re-emissions back to it. It sends from two sockets of its own
 * bound to ephemeral ports, recognises datagrams whose source is one of them, and drops them (counted as
 * {@linkplain LinkStats#ignored() ignored}), so nothing circulates.
 *
 * <p>Receivers answer a sender by unicast to the source address they saw (NORM's ACKs and FJM2's flow reports), which
 * on the far side is the bridge's sending socket: what arrives there goes through the same direction as the side's
 * multicast, into the other side's group, where the sender it names hears it. Through a routed multicast path it would
 * reach the sender itself; before, the bridge's connected sockets dropped it, and a sender across the bridge never
 * heard a flow report and hardly an acknowledgement.
 */
public final class MulticastBridge extends LinkEmulator {

    /** TTL of re-emitted datagrams: 1 keeps them on the side's link. */
    public static final int DEFAULT_TTL = 1;

    private final MulticastSide sideA;
    private final MulticastSide sideB;
    private final int ttl;
    private Channel receiveA;
    private Channel receiveB;
    private Channel sendA;
    private Channel sendB;
    private volatile InetSocketAddress ownSourceA;
    private volatile InetSocketAddress ownSourceB;

    private MulticastBridge(Builder b) {
        super(b);
        this.sideA = b.sideA;
        this.sideB = b.sideB;
        this.ttl = b.ttl;
    }

    @Override
    public String mode() {
        return "mcast";
    }

    @Override
    String endpoints() {
        return sideA + " <-> " + sideB;
    }

    /** The source address of re-emissions into side A (what receivers on A see as the sender). */
    public InetSocketAddress sourceAddressOnA() {
        return ownSourceA;
    }

    /** The source address of re-emissions into side B. */
    public InetSocketAddress sourceAddressOnB() {
        return ownSourceB;
    }

    @Override
    void open() throws IOException {
        SideSink intoA = new SideSink(sideA.group());
        SideSink intoB = new SideSink(sideB.group());
        // Unicast answers to what the bridge re-emitted on B came from B: they cross like B's multicast, and back.
        sendA = openSender(sideA, new SideHandler(forward, intoB));
        sendB = openSender(sideB, new SideHandler(reverse, intoA));
        intoA.channel = sendA;
        intoB.channel = sendB;
        ownSourceA = (InetSocketAddress) sendA.localAddress();
        ownSourceB = (InetSocketAddress) sendB.localAddress();
        receiveA = openReceiver(sideA, new SideHandler(forward, intoB));
        receiveB = openReceiver(sideB, new SideHandler(reverse, intoA));
    }

    private Bootstrap bootstrap() {
        return new Bootstrap().group(group).channelFactory(NettyTransport.datagramChannels())
                .option(ChannelOption.SO_RCVBUF, DEFAULT_SOCKET_BUFFER_BYTES)
                .option(ChannelOption.SO_SNDBUF, DEFAULT_SOCKET_BUFFER_BYTES)
                .option(ChannelOption.RECVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(MAX_DATAGRAM_BYTES));
    }

    /**
     * A socket on its own ephemeral port, sending to the side's group: its port marks the bridge's datagrams, and
     * the side's receivers answer to it by unicast.
     */
    private Channel openSender(MulticastSide side, SideHandler handler) throws IOException {
        Bootstrap b = bootstrap()
                .option(ChannelOption.IP_MULTICAST_IF, side.networkInterface())
                .option(ChannelOption.IP_MULTICAST_TTL, ttl)
                .option(ChannelOption.IP_MULTICAST_LOOP_DISABLED, false)
                .handler(handler);
        InetSocketAddress local = new InetSocketAddress(side.interfaceAddress(), 0);
        return awaitChannel(b.bind(local), "cannot open a socket sending to " + side);
    }

    /**
     * A socket bound to the group address and port (so it hears that group only), shared with other listeners of
     * the same group, joined on the side's interface.
     */
    private Channel openReceiver(MulticastSide side, SideHandler handler) throws IOException {
        Bootstrap b = bootstrap().option(ChannelOption.SO_REUSEADDR, true).handler(handler);
        if (NettyTransport.EPOLL) {
            // Hear the group only where it was joined, not on every interface of the host.
            b.option(EpollChannelOption.IP_MULTICAST_ALL, false);
        }
        DatagramChannel channel = (DatagramChannel) awaitChannel(b.bind(side.group()), "cannot bind to " + side);
        await(channel.joinGroup(side.group(), side.networkInterface()), "cannot join " + side);
        return channel;
    }

    @Override
    List<Channel> receivingSockets() {
        return receiveA == null || receiveB == null ? List.of() : List.of(receiveA, receiveB);
    }

    @Override
    void closeChannels() {
        for (Channel c : new Channel[] {receiveA, receiveB, sendA, sendB}) {
            if (c != null) {
                c.close();
            }
        }
    }

    /**
     * Datagrams heard on one side (its group, or unicast to the bridge's socket there), relayed through one direction
     * into the other side.
     */
    private final class SideHandler extends DatagramHandler {
        private final LinkDirection direction;
        private final SideSink into;

        SideHandler(LinkDirection direction, SideSink into) {
            this.direction = direction;
            this.into = into;
        }

        @Override
        void onDatagram(ChannelHandlerContext ctx, InetSocketAddress sender, ByteBuf content) {
            if (sender.equals(ownSourceA) || sender.equals(ownSourceB)) {
                countIgnored();
                return;
            }
            relayDatagram(direction, compactCopy(ctx.alloc(), content), into, null);
        }
    }

    /** Re-emits into one side's group through the bridge's sending socket for that side. */
    private static final class SideSink extends PacketSink {
        private final InetSocketAddress group;
        /** Set once the socket is open (before anything is relayed). */
        private volatile Channel channel;

        SideSink(InetSocketAddress group) {
            this.group = group;
        }

        @Override
        void send(ByteBuf payload, InetSocketAddress recipient) {
            channel.write(new DatagramPacket(payload, group), channel.voidPromise());
        }

        @Override
        void flush() {
            channel.flush();
        }
    }

    /** Builds a {@link MulticastBridge}. */
    public static final class Builder extends LinkEmulator.Builder<Builder, MulticastBridge> {
        private final MulticastSide sideA;
        private final MulticastSide sideB;
        private int ttl = DEFAULT_TTL;

        Builder(MulticastSide sideA, MulticastSide sideB) {
            this.sideA = sideA;
            this.sideB = sideB;
        }

        /** TTL of re-emitted datagrams; default {@link #DEFAULT_TTL}. */
        public Builder ttl(int ttl) {
            this.ttl = ttl;
            return this;
        }

        @Override
        public MulticastBridge build() {
            if (sideA == null || sideB == null) {
                throw new IllegalArgumentException("a multicast bridge needs two sides");
            }
            if (sideA.group().equals(sideB.group())) {
                if (sideA.networkInterface().equals(sideB.networkInterface())) {
                    throw new IllegalArgumentException("both sides are " + sideA
                            + ": the bridge would hear each side's traffic on the other; use different ports or groups");
                }
                if (!NettyTransport.EPOLL) {
                    throw new IllegalArgumentException("the same group on two interfaces needs IP_MULTICAST_ALL=0,"
                            + " which only the native epoll transport sets; use different ports or groups");
                }
            }
            if (ttl < 0 || ttl > 255) {
                throw new IllegalArgumentException("TTL must be 0-255, got " + ttl);
            }
            return new MulticastBridge(this);
        }
    }
}
