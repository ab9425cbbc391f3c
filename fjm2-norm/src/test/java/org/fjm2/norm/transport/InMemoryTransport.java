package org.fjm2.norm.transport;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.EventLoop;
import org.fjm2.norm.api.NormConfig;

/**
 * A transport without sockets: its own single-thread event loop, heap buffers, and whatever the session sends handed
 * to a sink (which takes ownership). Tests inject datagrams by calling {@link #handler()} on {@link #eventLoop()}.
 *
 * <p>Buffers are unpooled heap buffers so that every byte the session allocates for network input shows up in its
 * thread's allocation counter (fuzz targets bound it), and no leak detector samples stack traces.
 */
public final class InMemoryTransport implements DatagramTransport {

    /** The UDP source port the session believes it sends from. */
    public static final int TRANSMIT_PORT = 5740;

    /** Where datagrams to the group are addressed (for the sink). */
    public static final InetSocketAddress GROUP = new InetSocketAddress("239.255.57.40", 5740);

    private final Handler handler;
    private final DefaultEventLoop loop;
    private final ByteBufAllocator allocator = new UnpooledByteBufAllocator(false, true);
    private final BiConsumer<ByteBuf, InetSocketAddress> sink;
    private volatile boolean closed;

    public InMemoryTransport(Handler handler, String threadName, BiConsumer<ByteBuf, InetSocketAddress> sink) {
        this.handler = handler;
        this.sink = sink;
        this.loop = new DefaultEventLoop((java.util.concurrent.ThreadFactory) r -> new Thread(r, threadName));
    }

    /** A factory for {@link org.fjm2.norm.NormSession#open}; {@code created} learns each transport made. */
    public static Factory factory(BiConsumer<ByteBuf, InetSocketAddress> sink,
                                  java.util.function.Consumer<InMemoryTransport> created) {
        return (NormConfig config, Handler handler, String threadName) -> {
            InMemoryTransport transport = new InMemoryTransport(handler, threadName, sink);
            created.accept(transport);
            return transport;
        };
    }

    /** A sink that drops (releases) everything the session sends. */
    public static void discard(ByteBuf datagram, InetSocketAddress destination) {
        datagram.release();
    }

    /** The session's handler: call it on {@link #eventLoop()} only. */
    public Handler handler() {
        return handler;
    }

    @Override
    public String kind() {
        return "memory";
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
    public void start() {
    }

    @Override
    public int transmitPort() {
        return TRANSMIT_PORT;
    }

    @Override
    public ByteBuf allocate(int capacity) {
        return allocator.heapBuffer(capacity);
    }

    @Override
    public void writeToGroup(ByteBuf datagram) {
        sink.accept(datagram, GROUP);
    }

    @Override
    public void writeTo(ByteBuf datagram, InetSocketAddress destination) {
        sink.accept(datagram, destination);
    }

    @Override
    public void flush() {
    }

    @Override
    public boolean isWritable() {
        return !closed;
    }

    @Override
    public void close() {
        closed = true;
        loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
