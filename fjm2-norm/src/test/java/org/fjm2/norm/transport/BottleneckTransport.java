package org.fjm2.norm.transport;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.EventLoop;
import org.fjm2.norm.api.NormConfig;

/**
 * A test layer that puts a bottleneck link in front of a session's receive side: seeded random loss
 * ({@link LossInjector}) first, then a FIFO queue drained at {@code bitsPerSecond} (IP and UDP headers counted),
 * tail drop when a datagram would wait longer than {@code queueNanos}, and a fixed one-way delay. What a tbf qdisc
 * plus a propagation delay does to a flow, inside one JVM: NORM-CC sees queueing delay grow and losses come when it
 * overruns the link. Datagrams are copied (the transport's are valid only during the call) and handed to the
 * session on its own event loop when they leave the queue.
 */
public final class BottleneckTransport extends ForwardingTransport {

    private static final int IP_UDP_OVERHEAD = 28;

    private BottleneckTransport(NormConfig config, String threadName, Queue queue) {
        super(DatagramTransport.Factory.SOCKETS.create(config, queue, threadName));
        queue.loop = inner().eventLoop();
    }

    /** Socket transports whose receive side goes through such a bottleneck. */
    public static DatagramTransport.Factory of(long bitsPerSecond, long queueNanos, long delayNanos,
                                               LossInjector randomLoss, Probe probe) {
        return (config, handler, threadName) -> new BottleneckTransport(config, threadName,
                new Queue(handler, bitsPerSecond, queueNanos, delayNanos, randomLoss, probe));
    }

    /** What the bottleneck did, readable from any thread. */
    public static final class Probe {
        private final AtomicLong dropped = new AtomicLong();

        /** Datagrams the queue dropped (tail drop). */
        public long dropped() {
            return dropped.get();
        }
    }

    /** The link: between the socket and the session's handler. */
    private static final class Queue implements Handler {
        private final Handler handler;
        private final long bitsPerSecond;
        private final long queueNanos;
        private final long delayNanos;
        private final LossInjector randomLoss;
        private final Probe probe;
        private EventLoop loop;
        private long lastDeparture;

        Queue(Handler handler, long bitsPerSecond, long queueNanos, long delayNanos, LossInjector randomLoss,
              Probe probe) {
            this.handler = handler;
            this.bitsPerSecond = bitsPerSecond;
            this.queueNanos = queueNanos;
            this.delayNanos = delayNanos;
            this.randomLoss = randomLoss;
            this.probe = probe;
        }

        @Override
        public void onDatagram(ByteBuf datagram, InetSocketAddress sender) {
            if (randomLoss.drop(datagram)) {
                handler.onInjectedLoss(true);
                return;
            }
            long now = System.nanoTime();
            long start = Math.max(now, lastDeparture);
            if (start - now > queueNanos) {
                probe.dropped.incrementAndGet();
                handler.onInjectedLoss(true);
                return;
            }
            long departure = start
                    + (datagram.readableBytes() + IP_UDP_OVERHEAD) * 8L * 1_000_000_000L / bitsPerSecond;
            lastDeparture = departure;
            ByteBuf copy = Unpooled.copiedBuffer(datagram);
            loop.schedule(() -> {
                try {
                    handler.onDatagram(copy, sender);
                } finally {
                    copy.release();
                }
                handler.onReadComplete();
            }, departure + delayNanos - now, TimeUnit.NANOSECONDS);
        }

        @Override
        public void onReadComplete() {
            handler.onReadComplete();
        }

        @Override
        public void onWritable() {
            handler.onWritable();
        }
    }
}
