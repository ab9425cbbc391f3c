package org.fjm2.norm.transport;

import java.io.IOException;
import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;

/**
 * A transport that hands every call to another one: the base of test layers that change one thing about a transport
 * (what is lost, {@link LossyTransport}; how fast and late datagrams arrive) and pass everything else through.
 */
public abstract class ForwardingTransport implements DatagramTransport {

    private final DatagramTransport inner;

    protected ForwardingTransport(DatagramTransport inner) {
        this.inner = inner;
    }

    /** The transport underneath. */
    protected final DatagramTransport inner() {
        return inner;
    }

    @Override
    public void writeToGroup(ByteBuf datagram) {
        inner.writeToGroup(datagram);
    }

    @Override
    public void writeTo(ByteBuf datagram, InetSocketAddress destination) {
        inner.writeTo(datagram, destination);
    }

    @Override
    public String kind() {
        return inner.kind();
    }

    @Override
    public EventLoop eventLoop() {
        return inner.eventLoop();
    }

    @Override
    public ByteBufAllocator allocator() {
        return inner.allocator();
    }

    @Override
    public void start() throws IOException {
        inner.start();
    }

    @Override
    public int transmitPort() {
        return inner.transmitPort();
    }

    @Override
    public int receiveBufferBytes() {
        return inner.receiveBufferBytes();
    }

    @Override
    public ByteBuf allocate(int capacity) {
        return inner.allocate(capacity);
    }

    @Override
    public boolean gathersWrites() {
        return inner.gathersWrites();
    }

    @Override
    public void flush() {
        inner.flush();
    }

    @Override
    public boolean isWritable() {
        return inner.isWritable();
    }

    @Override
    public void close() {
        inner.close();
    }
}
