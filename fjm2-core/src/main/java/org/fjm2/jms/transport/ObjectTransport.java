package org.fjm2.jms.transport;

import org.fjm2.norm.api.NormCounters;

import io.netty.buffer.ByteBuf;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One reliable multicast session, as a JMS connection needs it: whole objects (byte strings) sent to every
 * member of a group, reliably and in order per sender and priority. Created per {@code Connection} by an
 * {@link ObjectTransportFactory}.
 */
public interface ObjectTransport extends AutoCloseable {

    /** This endpoint's node id (NORM source_id, 32 bits), unique within the group. */
    int localNodeId();

    /** Largest object {@link #send} accepts, in bytes (a configured limit; receivers enforce the same). */
    int maxObjectSize();

    /** Starts receiving; the listener is called on the transport's own thread. Call at most once. */
    void start(ObjectListener listener);

    /**
     * Sets who hears the sending side's events (the transmit queue drained); call before the first {@link #send}.
     * By default nothing is signalled: a transport that cannot tell when it drained leaves a batcher's open batch to
     * its linger timer.
     */
    default void transmitListener(TransmitListener listener) {
    }

    /**
     * Queues one object for reliable multicast to every member of the group. Takes ownership of
     * {@code object} (released by the transport, also when it returns false or throws). Blocks while the
     * transmit window or repair cache is full (back-pressure) up to the timeout; returns false on timeout.
     * Objects of the same priority reach every receiver in send order, exactly once; an object of higher
     * priority (0..9) may overtake lower-priority objects that are still queued at the sender.
     *
     * @throws IllegalArgumentException when the object is larger than {@link #maxObjectSize()} or the
     *                                  priority is outside 0..9
     * @throws IllegalStateException    when the transport is closed
     */
    boolean send(ByteBuf object, int priority, long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * Queues the object only when that needs no waiting (there is room now); never blocks. True: queued, and the
     * transport owns the object, as after {@link #send}. False: not queued, and the caller still owns the object (to
     * try again, or to hand to a thread that may wait in {@link #send}). By default always false: a transport that
     * cannot tell leaves every such object to a thread that may wait.
     *
     * @throws IllegalArgumentException as {@link #send} (the object is then released)
     * @throws IllegalStateException    as {@link #send} (the object is then released)
     */
    default boolean trySend(ByteBuf object, int priority) {
        return false;
    }

    /**
     * Receive-side back-pressure: while {@code condition} holds, this node asks senders to wait for it (for NORM:
     * it answers no watermark acknowledgement request, so senders with ack-based flow control keep their data and
     * block their publishers once their cache is full). Transports without such feedback ignore it.
     */
    default void holdAcknowledgementsWhile(BooleanSupplier condition) {
    }

    /** Objects accepted by {@link #send} that have not started transmission yet. */
    int pendingObjects();

    /** Counters for JMX: objects/bytes sent and received, repairs, NACKs, objects lost. */
    TransportCounters counters();

    /**
     * The NORM engine's own counters (all of them) when this transport runs a NORM session; null for a transport
     * without one (in-JVM), whose metrics and MBean then show them as zero.
     */
    default NormCounters normCounters() {
        return null;
    }

    /**
     * Lets what send() accepted go out (bounded wait), then stops sending and receiving and releases every buffer
     * the transport still holds. Idempotent.
     */
    @Override
    void close();
}
