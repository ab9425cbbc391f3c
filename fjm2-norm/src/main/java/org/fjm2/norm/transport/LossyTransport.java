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
public final class LossyTransport extends ForwardingTransport {

    private final LossInjector sendLoss;
    private final Handler handler;

    private LossyTransport(DatagramTransport.Factory inner, NormConfig config, Handler handler, String threadName,
                           LossInjector receiveLoss, LossInjector sendLoss) {
        super(inner.create(config, new Handler() {
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
        }, threadName));
        this.handler = handler;
        this.sendLoss = sendLoss;
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
            super.writeToGroup(datagram);
        }
    }

    @Override
    public void writeTo(ByteBuf datagram, InetSocketAddress destination) {
        if (!dropOutgoing(datagram)) {
            super.writeTo(datagram, destination);
        }
    }
}
