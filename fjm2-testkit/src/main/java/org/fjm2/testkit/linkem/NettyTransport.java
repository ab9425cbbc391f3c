package org.fjm2.testkit.linkem;

import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.SocketProtocolFamily;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.nio.channels.spi.SelectorProvider;

/**
 * Picks Netty's native epoll transport where it loads (its timers have microsecond resolution, NIO's only
 * milliseconds) and NIO elsewhere, and opens every channel as IPv4 explicitly: an IPv6 socket would ignore
 * IP_MULTICAST_IF for IPv4 groups.
 */
final class NettyTransport {

    static final boolean EPOLL = Epoll.isAvailable();

    private NettyTransport() {
    }

    /** One event-loop thread, daemon so that a test that forgets {@code close()} cannot hang the JVM. */
    static EventLoopGroup newSingleThreadGroup(String threadName) {
        IoHandlerFactory io = EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory(threadName, true), io);
    }

    static ChannelFactory<DatagramChannel> datagramChannels() {
        return EPOLL ? () -> new EpollDatagramChannel(SocketProtocolFamily.INET)
                : () -> new NioDatagramChannel(SocketProtocolFamily.INET);
    }

    static ChannelFactory<ServerSocketChannel> serverChannels() {
        return EPOLL ? () -> new EpollServerSocketChannel(SocketProtocolFamily.INET)
                : () -> new NioServerSocketChannel(SelectorProvider.provider(), SocketProtocolFamily.INET);
    }

    static ChannelFactory<SocketChannel> socketChannels() {
        return EPOLL ? () -> new EpollSocketChannel(SocketProtocolFamily.INET)
                : () -> new NioSocketChannel(SelectorProvider.provider(), SocketProtocolFamily.INET);
    }

    static String name() {
        return EPOLL ? "epoll" : "nio";
    }
}
