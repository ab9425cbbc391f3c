package org.fjm2.jms.transport;

/**
 * A snapshot of a transport's counters, all monotonic since the transport opened.
 *
 * @param objectsSent     objects handed to the network (first transmission)
 * @param bytesSent       payload bytes of those objects
 * @param objectsReceived complete objects delivered to the listener
 * @param bytesReceived   payload bytes of those objects
 * @param nacksSent       NACKs this endpoint sent as a receiver
 * @param nacksReceived   NACKs this endpoint received as a sender
 * @param repairsSent     repair (retransmitted or parity) packets sent
 * @param objectsLost     objects reported through {@link ObjectListener#onObjectsLost}
 */
public record TransportCounters(long objectsSent, long bytesSent, long objectsReceived, long bytesReceived,
                                long nacksSent, long nacksReceived, long repairsSent, long objectsLost) {

    /** All zero: for a transport that counts nothing yet. */
    public static final TransportCounters ZERO = new TransportCounters(0, 0, 0, 0, 0, 0, 0, 0);
}
