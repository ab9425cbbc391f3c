package org.fjm2.norm.transport;

import java.io.IOException;
import java.net.InetSocketAddress;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import org.fjm2.norm.api.NormConfig;

/**
 * A test layer around a transport: {@link LossInjector}s pretend to lose datagrams on the way in (before the
 * session sees them) and on the way out (instead of sending them), so that tests and tools exercise every repair
 * path deterministically, like Aeron's loss generators or JGroups' DISCARD. The session hears of each through
 * {@link Handler#onInjectedLoss}. Everything else passes through.
 */
public final class LossyTransport implements DatagramTransport {

    private final DatagramTransport inner;
    private final LossInjector sendLoss;
    private final Handler handler;

    private LossyTransport(DatagramTransport.Factory inner, NormConfig config, Handler handler, String threadName,
                           LossInjector receiveLoss, LossInjector sendLoss) {
        this.handler = handler;
        this.sendLoss = sendLoss;
        this.inner = inner.create(config, new Handler() {
            @Override
            public void onDatagram(ByteBuf datagram, InetSocketAddress sender) {
                if (receiveLoss.drop(datagram)) {
                    handler.onInjectedLoss(true);
                } else {
                    handler.onDatagram(datagram, sender);
                }
            }

            @Override
            public void onReadComplete() {
                handler.onReadComplete();
            }

            @Override
            public void onWritable() {
                handler.onWritable();
            }
        }, threadName);
    }

    /**
     * Transports of {@code inner} with seeded loss on either side ({@link LossInjector#NONE}: none); {@code inner}
     * itself when there is none at all.
     */
    public static DatagramTransport.Factory around(DatagramTransport.Factory inner, LossInjector receiveLoss,
                                                   LossInjector sendLoss) {
        LossInjector rx = receiveLoss == null ? LossInjector.NONE : receiveLoss;
        LossInjector tx = sendLoss == null ? LossInjector.NONE : sendLoss;
        if (rx == LossInjector.NONE && tx == LossInjector.NONE) {
            return inner;
        }
        return (config, handler, threadName) -> new LossyTransport(inner, config, handler, threadName, rx, tx);
    }

    /** Socket transports with seeded loss on either side. */
    public static DatagramTransport.Factory around(LossInjector receiveLoss, LossInjector sendLoss) {
        return around(DatagramTransport.Factory.SOCKETS, receiveLoss, sendLoss);
    }

    private boolean dropOutgoing(ByteBuf datagram) {
        if (!sendLoss.drop(datagram)) {
            return false;
        }
        datagram.release();
        handler.onInjectedLoss(false);
        return true;
    }

    @Override
    public void writeToGroup(ByteBuf datagram) {
        if (!dropOutgoing(datagram)) {
            inner.writeToGroup(datagram);
        }
    }

    @Override
    public void writeTo(ByteBuf datagram, InetSocketAddress destination) {
        if (!dropOutgoing(datagram)) {
            inner.writeTo(datagram, destination);
        }
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
