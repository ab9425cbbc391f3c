package org.fjm2.jms;

import jakarta.jms.JMSException;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.util.Failures;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.NoRouteToHostException;
import java.util.function.Function;

/**
 * A connection's transport and the two message paths over it: the batcher ({@link Outbound}, on application
 * threads and the timer) with delivery to the connection's own consumers ({@link LocalDelivery}), and the receive
 * path ({@link Inbound}, on the transport's receive thread). Wires them to the transport — what is received to the
 * receive path, the transmit queue's drained signal to the batcher, the consumers' backlog to the transport's
 * acknowledgements — and reports what the batcher could not send.
 */
final class MessagePaths {

    private static final Logger LOG = LoggerFactory.getLogger(MessagePaths.class);
    /** Most often a unicast address typed for a group, or a group without a route or interface=... */
    static final String NO_ROUTE_HINT = " (check the address: a publish/subscribe group is a multicast address such"
            + " as 239.255.0.1, sent through interface=NAME or the route for 224.0.0.0/4; a unicast address needs a"
            + " route to that host)";

    private final ObjectTransport transport;
    private final ExceptionReports reports;
    private final Outbound outbound;
    private final Inbound inbound;

    /** Opens the transport the settings name (a bad address or interface fails here). */
    static ObjectTransport openTransport(ConnectionSettings settings) throws JMSException {
        try {
            return settings.transportFactory().create(settings.uri(), settings.transportParameters());
        } catch (IOException | RuntimeException e) {
            JMSException jms = new JMSException("cannot open transport " + settings.url() + ": "
                    + Failures.describe(e) + (e instanceof NoRouteToHostException ? NO_ROUTE_HINT : ""));
            jms.setLinkedException(e);
            jms.initCause(e);
            throw jms;
        }
    }

    /**
     * Builds both paths and starts the transport: from here on objects are received.
     *
     * @param epoch           the connection's epoch (in every batch it sends)
     * @param startMillis     when the connection started (wall clock), for the receive path's loss accounting
     * @param temporaryTopics the connection's own temporary topic of a name, or a stand-in for another's
     * @param storeQuorum     hears the stores' acknowledgements of PERSISTENT messages
     * @param lateJoins       the consumers waiting for a store's answer to their late join
     * @param durables        the durable subscriptions waiting for a store's answer
     * @param shared          the shared subscriptions of this connection's consumers
     */
    MessagePaths(ObjectTransport transport, ConnectionSettings settings, long epoch, long startMillis,
                 ConnectionThreads threads, ConnectionCounters counters, SubscriptionTable subscriptions,
                 DeliveryBacklog backlog, Function<String, Fjm2Topic> temporaryTopics, ExceptionReports reports,
                 StoreQuorum storeQuorum, LateJoins lateJoins, DurableSubscriptions durables,
                 SharedSubscriptions shared) {
        this.transport = transport;
        this.reports = reports;
        LocalDelivery localDelivery = new LocalDelivery(subscriptions,
                () -> new MessageDecoder(settings.allowList(), temporaryTopics), epoch);
        this.outbound = new Outbound(transport, epoch, settings, threads.timer(), threads.flush(), counters,
                localDelivery, this::batchDropped);
        this.inbound = new Inbound(subscriptions, counters, new MessageDecoder(settings.allowList(), temporaryTopics),
                reports::report, startMillis, settings.clockSkewMillis());
        inbound.storeAcknowledgements(storeQuorum::onAck);
        inbound.lateJoins(lateJoins, epoch);
        inbound.durableSubscriptions(durables);
        inbound.sharedSubscriptions(shared);
        if (settings.consumerBackPressure()) {
            transport.holdAcknowledgementsWhile(backlog::isBackedUp);
        }
        transport.transmitListener(outbound::transmitIdle);
        transport.start(inbound);
    }

    /** Messages whose send() had returned but whose batch the transport refused or timed out on. */
    private void batchDropped(int priority, int messages, String reason) {
        LOG.error("{} message(s) of priority {} could not be sent: {}", messages, priority, reason);
        reports.report(new MessagesLostException(null, transport.localNodeId(), 0, priority, messages,
                "not sent by this connection: " + reason));
    }

    ObjectTransport transport() {
        return transport;
    }

    Outbound outbound() {
        return outbound;
    }

    Inbound inbound() {
        return inbound;
    }

    /** Sends what is still batched (waiting for room, as a producer would), then closes the transport. */
    void close() {
        outbound.close();
        transport.close();
    }
}
