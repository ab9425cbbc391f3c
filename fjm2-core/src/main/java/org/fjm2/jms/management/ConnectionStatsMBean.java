package org.fjm2.jms.management;

import javax.management.openmbean.CompositeData;

/**
 * The counters of one FJM2 connection, as a JMX MBean named
 * {@code org.fjm2:type=Connection,clientId=...,node=...,instance=...}. All counters are monotonic since the
 * connection opened. Message counters come from the JMS layer, object/NACK/repair counters from the transport,
 * {@link #getNormCounters()} from the NORM engine. Read them without JMX through
 * {@code Fjm2Connection.statistics()}.
 */
public interface ConnectionStatsMBean {
    String getClientId();

    /** The transport node id (NORM source id) of the connection. */
    long getNodeId();

    String getUrl();

    long getMessagesSent();

    long getMessageBytesSent();

    long getBatchesSent();

    long getMessagesDroppedAtSend();

    long getMessagesReceived();

    long getMessagesDelivered();

    long getMessagesLost();

    long getDuplicatesDiscarded();

    long getMalformedBatches();

    long getMalformedMessages();

    /** Messages dropped because their sequence number jumped implausibly far (forged, corrupted, or a restart). */
    long getImplausibleSequences();

    /** Remote senders and producer streams forgotten because the receive path's state reached a cap. */
    long getStateEvictions();

    long getMessagesExpired();

    long getConsumerOverflowDrops();

    long getRedeliveryDrops();

    long getObjectsSent();

    long getBytesSent();

    long getObjectsReceived();

    long getBytesReceived();

    long getNacksSent();

    long getNacksReceived();

    long getRepairsSent();

    long getObjectsLost();

    /** Objects accepted by the transport and not yet transmitted. */
    int getPendingObjects();

    /**
     * Every counter of the NORM engine ({@link org.fjm2.norm.api.NormCounters.Counter}), by its lower-case name
     * ({@code nacks_sent}, {@code receivers_evicted}...); all zero over a transport without NORM ({@code inmem}).
     */
    CompositeData getNormCounters();
}
