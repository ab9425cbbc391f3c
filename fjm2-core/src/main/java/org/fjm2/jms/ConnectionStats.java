package org.fjm2.jms;

import org.fjm2.jms.management.ConnectionStatistics;
import org.fjm2.jms.management.ConnectionStatsMBean;
import org.fjm2.jms.management.NormCountersData;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransportCounters;
import org.fjm2.norm.api.NormCounters;

import javax.management.openmbean.CompositeData;

/** One connection's counters, for JMX and the application (see {@link ConnectionStatsMBean}). */
final class ConnectionStats implements ConnectionStatistics {

    private final ClientIdentity clientIdentity;
    private final String url;
    private final ConnectionCounters counters;
    private final ObjectTransport transport;

    ConnectionStats(ClientIdentity clientIdentity, String url, ConnectionCounters counters,
                    ObjectTransport transport) {
        this.clientIdentity = clientIdentity;
        this.url = url;
        this.counters = counters;
        this.transport = transport;
    }

    private TransportCounters transport() {
        return transport.counters();
    }

    @Override
    public String getClientId() {
        return clientIdentity.idOrNull();
    }

    @Override
    public long getNodeId() {
        return Integer.toUnsignedLong(transport.localNodeId());
    }

    @Override
    public String getUrl() {
        return url;
    }

    @Override
    public long getMessagesSent() {
        return counters.messagesSent.sum();
    }

    @Override
    public long getMessageBytesSent() {
        return counters.messageBytesSent.sum();
    }

    @Override
    public long getBatchesSent() {
        return counters.batchesSent.sum();
    }

    @Override
    public long getMessagesDroppedAtSend() {
        return counters.messagesDroppedAtSend.sum();
    }

    @Override
    public long getMessagesReceived() {
        return counters.messagesReceived.sum();
    }

    @Override
    public long getMessagesDelivered() {
        return counters.messagesDelivered.sum();
    }

    @Override
    public long getMessagesLost() {
        return counters.messagesLost.sum();
    }

    @Override
    public long getDuplicatesDiscarded() {
        return counters.duplicatesDiscarded.sum();
    }

    @Override
    public long getMalformedBatches() {
        return counters.malformedBatches.sum();
    }

    @Override
    public long getMalformedMessages() {
        return counters.malformedMessages.sum();
    }

    @Override
    public long getImplausibleSequences() {
        return counters.implausibleSequences.sum();
    }

    @Override
    public long getStateEvictions() {
        return counters.stateEvictions.sum();
    }

    @Override
    public long getMessagesExpired() {
        return counters.messagesExpired.sum();
    }

    @Override
    public long getConsumerOverflowDrops() {
        return counters.consumerOverflowDrops.sum();
    }

    @Override
    public long getRedeliveryDrops() {
        return counters.redeliveryDrops.sum();
    }

    @Override
    public long getObjectsSent() {
        return transport().objectsSent();
    }

    @Override
    public long getBytesSent() {
        return transport().bytesSent();
    }

    @Override
    public long getObjectsReceived() {
        return transport().objectsReceived();
    }

    @Override
    public long getBytesReceived() {
        return transport().bytesReceived();
    }

    @Override
    public long getNacksSent() {
        return transport().nacksSent();
    }

    @Override
    public long getNacksReceived() {
        return transport().nacksReceived();
    }

    @Override
    public long getRepairsSent() {
        return transport().repairsSent();
    }

    @Override
    public long getObjectsLost() {
        return transport().objectsLost();
    }

    @Override
    public int getPendingObjects() {
        return transport.pendingObjects();
    }

    @Override
    public long normCounter(NormCounters.Counter counter) {
        NormCounters c = transport.normCounters();
        return c == null ? 0 : c.get(counter);
    }

    @Override
    public CompositeData getNormCounters() {
        return NormCountersData.of(this::normCounter);
    }
}
