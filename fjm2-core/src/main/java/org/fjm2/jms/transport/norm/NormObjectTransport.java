package org.fjm2.jms.transport.norm;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransmitListener;
import org.fjm2.jms.transport.TransportCounters;
import org.fjm2.norm.NormSession;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.transport.DatagramTransport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JMS transport over one NORM session: JMS objects (messages or batches) are NORM data objects, sent with
 * their JMS priority; complete objects of remote senders go to the JMS layer in each sender's order, lost ones are
 * reported as such. The session opens when the transport is created (so a bad interface or port fails the
 * connection at once); events before {@link #start} are not delivered.
 */
final class NormObjectTransport implements ObjectTransport {

    private static final Logger LOG = LoggerFactory.getLogger(NormObjectTransport.class);

    private final NormSession session;
    private final Duration closeLinger;
    private final int maxObjectSize;
    private volatile ObjectListener listener;
    private volatile TransmitListener transmitListener;
    private volatile boolean closed;

    NormObjectTransport(NormConfig config, DatagramTransport.Factory transports, Duration closeLinger)
            throws IOException {
        this.closeLinger = closeLinger;
        this.maxObjectSize = config.maxObjectSize();
        this.session = NormSession.open(config, new Events(), java.util.concurrent.ThreadLocalRandom.current().nextLong(),
                transports);
    }

    @Override
    public int localNodeId() {
        return session.nodeId();
    }

    @Override
    public int maxObjectSize() {
        return maxObjectSize;
    }

    @Override
    public void start(ObjectListener listener) {
        if (this.listener != null) {
            throw new IllegalStateException("already started");
        }
        this.listener = listener;
    }

    @Override
    public void transmitListener(TransmitListener listener) {
        this.transmitListener = listener;
    }

    @Override
    public boolean send(ByteBuf object, int priority, long timeout, TimeUnit unit) throws InterruptedException {
        if (closed) {
            object.release();
            throw new IllegalStateException("transport is closed");
        }
        return session.enqueue(object, null, priority, timeout, unit) >= 0;
    }

    /**
     * An enqueue with no time to wait: the engine admits the object only if its cache has room now. The engine
     * releases an object it does not admit, so the caller's ownership is kept by one extra reference, dropped again
     * once the engine took the object.
     */
    @Override
    public boolean trySend(ByteBuf object, int priority) {
        if (closed) {
            object.release();
            throw new IllegalStateException("transport is closed");
        }
        object.retain();
        boolean queued;
        try {
            queued = session.enqueue(object, null, priority, 0, TimeUnit.NANOSECONDS) >= 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false; // not admitted: the engine dropped its reference, the caller's remains
        } catch (RuntimeException e) {
            object.release();
            throw e;
        }
        if (queued) {
            object.release();
        }
        return queued;
    }

    /**
     * Objects waiting for their first transmission, plus one while a thread waits for cache room: the JMS batcher
     * keeps filling its batch as long as this is not zero, which is what makes objects large under load.
     */
    @Override
    public int pendingObjects() {
        return session.pendingObjects() + (session.hasWaitingProducers() ? 1 : 0);
    }

    @Override
    public TransportCounters counters() {
        NormCounters c = session.counters();
        return new TransportCounters(c.get(Counter.OBJECTS_SENT), c.get(Counter.BYTES_SENT),
                c.get(Counter.OBJECTS_RECEIVED), c.get(Counter.BYTES_RECEIVED), c.get(Counter.NACKS_SENT),
                c.get(Counter.NACKS_RECEIVED), c.get(Counter.REPAIRS_SENT), c.get(Counter.OBJECTS_LOST));
    }

    @Override
    public NormCounters normCounters() {
        return session.counters();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            // Give what send() accepted its first transmission and the receivers their repair rounds.
            if (!session.awaitFlushed(closeLinger)) {
                LOG.warn("NORM node {} closing with data still in flight after {} ms",
                        Integer.toUnsignedString(session.nodeId()), closeLinger.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            session.close();
        }
    }

    @Override
    public void holdAcknowledgementsWhile(BooleanSupplier condition) {
        session.holdAcknowledgementsWhile(condition);
    }

    /**
     * Engine events, on the session's event loop: what was received goes to the JMS layer's receive path once it
     * started, the transmit queue's drain to its batcher.
     */
    private final class Events implements NormListener {
        @Override
        public void onObjectReceived(RemoteSenderInfo sender, int objectId, ByteBuf data, ByteBuf info) {
            ObjectListener l = listener;
            if (l != null) {
                l.onObject(sender.nodeId(), data);
            }
        }

        @Override
        public void onObjectLost(RemoteSenderInfo sender, int objectId, LossReason reason) {
            ObjectListener l = listener;
            if (l != null && reason != LossReason.SESSION_CLOSED) {
                l.onObjectsLost(sender.nodeId(), 1, "NORM object " + objectId + ": " + reason.description());
            }
        }

        @Override
        public void onObjectsLost(RemoteSenderInfo sender, int firstObjectId, int count, LossReason reason) {
            ObjectListener l = listener;
            if (l != null && reason != LossReason.SESSION_CLOSED) {
                l.onObjectsLost(sender.nodeId(), count, "NORM objects " + firstObjectId + ".."
                        + ((firstObjectId + count - 1) & 0xFFFF) + ": " + reason.description());
            }
        }

        @Override
        public void onRemoteSenderGone(RemoteSenderInfo sender) {
            ObjectListener l = listener;
            if (l != null) {
                l.onSenderGone(sender.nodeId());
            }
        }

        @Override
        public void onTransmitIdle() {
            TransmitListener l = transmitListener;
            if (l != null) {
                l.onTransmitIdle();
            }
        }
    }
}
