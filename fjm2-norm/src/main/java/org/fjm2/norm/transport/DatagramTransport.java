package org.fjm2.norm.transport;

import java.io.IOException;
import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import org.fjm2.norm.api.NormConfig;

/**
 * The sockets of one NORM session on one event loop: the group socket (everything sent to group:port), the
 * transmit socket (connected to the group) and the feedback socket (unicast NACKs/ACKs to our source port).
 * Everything but construction and {@link #close()} runs on {@link #eventLoop()}.
 */
public interface DatagramTransport extends AutoCloseable {

    /** What the session does with datagrams and transport events (called on the event loop). */
    interface Handler {
        /** A datagram (readable bytes); valid only during the call. */
        void onDatagram(ByteBuf datagram, InetSocketAddress sender);

        /** A batch of reads ended: a good moment to run timers, transmit and flush. */
        void onReadComplete();

        /** The transmit socket can take writes again after being full. */
        void onWritable();

        /** A test layer ({@link LossyTransport}) pretended to lose a datagram on the way in or out. */
        default void onInjectedLoss(boolean receiving) {
        }
    }

    /** Which implementation: "epoll" / "nio" (Netty datagram channels) or "jdk" (allocation-free JDK channels). */
    String kind();

    EventLoop eventLoop();

    ByteBufAllocator allocator();

    void start() throws IOException;

    int transmitPort();

    /**
     * The group socket's receive buffer as the kernel granted it (Linux reports twice the bytes asked for, capped at
     * twice {@code net.core.rmem_max}, because it counts its own bookkeeping per datagram too); -1 when unknown.
     * Receivers size the window they advertise to flow-controlled senders from it.
     */
    default int receiveBufferBytes() {
        return -1;
    }

    ByteBuf allocate(int capacity);

    /** Queues a datagram to the group (takes ownership); {@link #flush()} sends what is queued. */
    void writeToGroup(ByteBuf datagram);

    /**
     * Whether a composite datagram (header + payload slice) leaves in one system call without being copied into
     * one buffer first (a gathering write).
     */
    default boolean gathersWrites() {
        return false;
    }

    /** Queues a unicast datagram (takes ownership). */
    void writeTo(ByteBuf datagram, InetSocketAddress destination);

    void flush();

    /** False while the transmit socket is full: the transmitter waits for {@link Handler#onWritable()}. */
    boolean isWritable();

    @Override
    void close();

    /**
     * Makes a session's transport: the sockets by default; tests plug in an in-memory transport or a wrapper
     * (loss injection, fuzzing) here.
     */
    @FunctionalInterface
    interface Factory {
        /** The transport the configuration asks for. */
        Factory SOCKETS = DatagramTransport::create;

        DatagramTransport create(NormConfig config, Handler handler, String threadName);
    }

    /** Opens the transport the configuration asks for ("auto": native epoll when it loads, else NIO). */
    static DatagramTransport create(NormConfig config, Handler handler, String threadName) {
        if ("jdk".equals(config.transport())) {
            return new JdkChannelTransport(config, handler, threadName);
        }
        return new NettyTransport(config, handler, threadName);
    }
}
