package org.fjm2.jms;

import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import org.fjm2.jms.management.ConnectionStatistics;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransportCounters;
import org.fjm2.jms.wire.BatchHeaderFlyweight;

import javax.management.ObjectName;
import java.security.SecureRandom;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A JMS connection: one transport session (one NORM session for {@code norm://}) shared by all its sessions and
 * topics. The JMS face over parts with one job each: {@link MessagePaths} (the transport, the batcher and the receive
 * path), {@link ConnectionThreads} (timer, flush and events threads), {@link ConnectionSessions} (sessions, start and
 * stop), {@link ClientIdentity}, {@link TemporaryTopics}, {@link ExceptionReports} (the ExceptionListener, on the
 * events thread) and {@link ConnectionMBean} (JMX).
 */
public final class Fjm2Connection implements jakarta.jms.Connection, TopicConnection {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final ConnectionSettings settings;
    private final ConnectionCounters counters = new ConnectionCounters();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final DeliveryBacklog deliveryBacklog = new DeliveryBacklog();
    private final ClientIdentity clientIdentity = new ClientIdentity();
    private final ConnectionSessions sessions = new ConnectionSessions();
    private final long epoch;
    private final ConnectionIds ids;
    private final ConnectionThreads threads;
    private final ExceptionReports exceptionReports;
    private final TemporaryTopics temporaryTopics;
    private final MessagePaths paths;
    private final StoreQuorum storeQuorum;
    private final LateJoins lateJoins;
    private final DurableSubscriptions durableSubscriptions;
    private final SharedSubscriptions sharedSubscriptions;
    private final ConnectionStats statistics;
    private final ConnectionMBean mbean;
    private volatile boolean closed;

    Fjm2Connection(ConnectionSettings settings) throws JMSException {
        this.settings = settings;
        if (settings.clientId() != null) {
            clientIdentity.claimAdministrative(settings.clientId());
        }
        ObjectTransport transport;
        try {
            transport = MessagePaths.openTransport(settings);
        } catch (JMSException e) {
            clientIdentity.release();
            throw e;
        }
        // wall clock, in the epoch: a receiver hears a sender that started well after it from its first message
        long startMillis = System.currentTimeMillis();
        this.epoch = BatchHeaderFlyweight.epochOf(startMillis, RANDOM.nextLong());
        String node = Integer.toUnsignedString(transport.localNodeId());
        this.ids = new ConnectionIds(epoch);
        this.threads = new ConnectionThreads(node);
        this.exceptionReports = new ExceptionReports(threads.events());
        this.temporaryTopics = new TemporaryTopics(node, epoch, subscriptions);
        this.storeQuorum = new StoreQuorum(settings.storeQuorum(), transport.localNodeId(), epoch);
        this.lateJoins = new LateJoins(settings.lateJoin(), transport.localNodeId(), ids.newProducerState());
        this.durableSubscriptions = new DurableSubscriptions(clientIdentity::idOrNull, transport.localNodeId(),
                ids.newProducerState(), lateJoins, this::outbound, threads.timer());
        this.sharedSubscriptions = new SharedSubscriptions(ids.newProducerState(), this::outbound, threads.timer());
        this.paths = new MessagePaths(transport, settings, epoch, startMillis, threads, counters, subscriptions,
                deliveryBacklog, temporaryTopics::resolve, exceptionReports, storeQuorum, lateJoins,
                durableSubscriptions, sharedSubscriptions);
        this.statistics = new ConnectionStats(clientIdentity, settings.url(), counters, transport);
        this.mbean = new ConnectionMBean(settings.jmx(), node, statistics);
        mbean.register(clientIdentity.idOrNull());
    }

    // ------------------------------------------------------------------ internals used by sessions

    ConnectionSettings settings() {
        return settings;
    }

    /** Marked by consumers whose queue is backed up; the transport then holds back its acknowledgements. */
    DeliveryBacklog deliveryBacklog() {
        return deliveryBacklog;
    }

    ConnectionCounters counters() {
        return counters;
    }

    Outbound outbound() {
        return paths.outbound();
    }

    /** Which consumers listen to which topic (tests build a receive path of their own over it). */
    SubscriptionTable subscriptions() {
        return subscriptions;
    }

    /** The receive path (tests feed it crafted objects). */
    Inbound inbound() {
        return paths.inbound();
    }

    long epoch() {
        return epoch;
    }

    /** The late joins of this connection's new consumers in progress (lateJoin). */
    LateJoins lateJoins() {
        return lateJoins;
    }

    /** The durable subscriptions of this connection's client id (kept by the stores). */
    DurableSubscriptions durableSubscriptions() {
        return durableSubscriptions;
    }

    /** The shared subscriptions of this connection's consumers. */
    SharedSubscriptions sharedSubscriptions() {
        return sharedSubscriptions;
    }

    /** What stores acknowledged of this connection's PERSISTENT messages (storeQuorum). */
    StoreQuorum storeQuorum() {
        return storeQuorum;
    }

    /** The transport's counters (for tests and tools). */
    TransportCounters transportCounters() {
        return paths.transport().counters();
    }

    int transportPending() {
        return paths.transport().pendingObjects();
    }

    ScheduledExecutorService timer() {
        return threads.timer();
    }

    boolean isStarted() {
        return sessions.isStarted();
    }

    /** The node id as users see it (unsigned decimal). */
    String nodeIdText() {
        return Integer.toUnsignedString(nodeId());
    }

    /**
     * This connection's counters, as its MBean shows them and whether or not JMX is on: for the application's own
     * monitoring (and {@code org.fjm2.jms.metrics.Fjm2ConnectionMetrics}).
     */
    public ConnectionStatistics statistics() {
        return statistics;
    }

    /** This connection's transport node id. */
    public int nodeId() {
        return paths.transport().localNodeId();
    }

    String clientIdOrNull() {
        return clientIdentity.idOrNull();
    }

    ProducerState newProducerState() {
        return ids.newProducerState();
    }

    String newTransactedMessageId(ProducerState producer) {
        return ids.newTransactedMessageId(producer);
    }

    /** The specification: only the connection that created a temporary topic may consume from it. */
    void checkConsumable(Fjm2Topic topic) throws JMSException {
        TemporaryTopics.checkConsumable(topic, this);
    }

    /** A new consumer of a session of this connection, listed in the subscriptions. */
    Fjm2MessageConsumer registerConsumer(Fjm2Session session, Fjm2Topic topic, SelectorFilter selector,
                                         boolean noLocal) {
        Fjm2MessageConsumer consumer = sessions.addConsumer(session, topic, selector, noLocal, null, null,
                subscriptions);
        LateJoin join = consumer.lateJoin();
        if (join != null) {
            // Registered first: from here on live messages are held, so the stores' answer cannot miss any.
            lateJoins.request(join, paths.outbound(), threads.timer());
        }
        return consumer;
    }

    /**
     * A durable consumer: registered first (live messages are held from here on), then the stores are asked for
     * what the subscription did not acknowledge; without a store's answer the consumer is closed and the creation
     * fails.
     */
    Fjm2MessageConsumer registerDurableConsumer(Fjm2Session session, Fjm2Topic topic, String name,
                                                SelectorFilter selector, boolean noLocal) throws JMSException {
        durableSubscriptions.requireClientId("createDurableConsumer");
        DurableSubscriptions.checkName(name);
        if (topic.isTemporary()) {
            throw new jakarta.jms.InvalidDestinationException("a durable subscription cannot be on a temporary topic");
        }
        durableSubscriptions.claim(name);
        Fjm2MessageConsumer consumer;
        try {
            consumer = sessions.addConsumer(session, topic, selector, noLocal, name, null, subscriptions);
        } catch (RuntimeException e) {
            durableSubscriptions.releaseName(name);
            throw e;
        }
        try {
            durableSubscriptions.subscribe(consumer.durableSubscriber(), selector == null ? null : selector.text(),
                    noLocal);
        } catch (JMSException | RuntimeException e) {
            durableSubscriptions.release(consumer.durableSubscriber());
            consumer.close();
            throw e;
        }
        return consumer;
    }

    /**
     * A consumer of a shared subscription (name and client id, if set): it joins the subscription's members in every
     * process of the group and takes its share of the messages (see {@link SharedSubscriptions}). A durable one's
     * first member here also subscribes at the stores (see {@link SharedGroup}): without a store's answer it is
     * closed and the creation fails.
     */
    Fjm2MessageConsumer registerSharedConsumer(Fjm2Session session, Fjm2Topic topic, String name,
                                               SelectorFilter selector, boolean durable) throws JMSException {
        if (name == null || name.isEmpty()) {
            throw new jakarta.jms.InvalidDestinationException("a shared subscription needs a name");
        }
        if (name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                > org.fjm2.jms.wire.SharedMemberFlyweight.MAX_NAME_BYTES) {
            throw new JMSException("shared subscription name longer than "
                    + org.fjm2.jms.wire.SharedMemberFlyweight.MAX_NAME_BYTES + " bytes");
        }
        if (durable && topic.isTemporary()) {
            throw new jakarta.jms.InvalidDestinationException("a durable subscription cannot be on a temporary topic");
        }
        SharedGroup group = sharedSubscriptions.group(clientIdentity.idOrNull(), name, topic, selector, durable);
        DurableSubscriptions.Subscriber subscriber = durable ? subscribeFirstMember(group) : null;
        Fjm2MessageConsumer consumer;
        try {
            consumer = sessions.addConsumer(session, topic, selector, false, null, group, subscriptions);
        } catch (RuntimeException e) {
            if (subscriber != null) {
                group.abandonStoreJoin();   // the next member here subscribes afresh
                durableSubscriptions.release(subscriber);
            }
            throw e;
        }
        if (subscriber != null) {
            try {
                durableSubscriptions.subscribe(subscriber, selector == null ? null : selector.text(), false);
            } catch (JMSException | RuntimeException e) {
                durableSubscriptions.release(subscriber);
                consumer.close();
                throw e;
            }
        }
        return consumer;
    }

    /**
     * The stores' subscriber of a durable group when the consumer being made is its first member here (its live
     * messages are held for the stores' answer from now on); null when the group has one already.
     */
    private DurableSubscriptions.Subscriber subscribeFirstMember(SharedGroup group) throws JMSException {
        synchronized (group) {
            if (group.storeSubscriber() != null) {
                return null;
            }
            String name = group.key.name();
            durableSubscriptions.claim(name);
            DurableSubscriptions.Subscriber subscriber = new DurableSubscriptions.Subscriber(
                    durableSubscriptions.sharedClientId(), name, group.topic(),
                    durableSubscriptions.newJoin(group, name), group.storePosition(), true);
            group.startStoreJoin(subscriber);
            return subscriber;
        }
    }

    void unregisterConsumer(Fjm2MessageConsumer consumer) {
        subscriptions.remove(consumer);
    }

    void deleteTemporaryTopic(Fjm2TemporaryTopic topic) throws JMSException {
        checkOpen();
        temporaryTopics.delete(topic);
    }

    TemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        return temporaryTopics.create(this);
    }

    void sessionClosed(Fjm2Session session) {
        sessions.remove(session);
    }

    /** Hands a problem to the ExceptionListener on the events thread (never blocks the caller; a bounded backlog). */
    void reportAsync(JMSException problem) {
        exceptionReports.report(problem);
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("connection closed");
        }
    }

    /** The MBean name: {@code org.fjm2:type=Connection,clientId=...,node=...,instance=...}. */
    ObjectName mbeanName() {
        return mbean.name();
    }

    // ------------------------------------------------------------------ JMS API

    @Override
    public Session createSession(boolean transacted, int acknowledgeMode) throws JMSException {
        checkOpen();
        int mode = acknowledgeMode;
        if (!transacted) {
            if (mode != Session.AUTO_ACKNOWLEDGE && mode != Session.CLIENT_ACKNOWLEDGE
                    && mode != Session.DUPS_OK_ACKNOWLEDGE) {
                throw new JMSException("acknowledge mode must be AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE or"
                        + " DUPS_OK_ACKNOWLEDGE for a session that is not transacted, got " + acknowledgeMode);
            }
        } else {
            mode = Session.SESSION_TRANSACTED;
        }
        clientIdentity.freeze();
        Fjm2Session session = new Fjm2Session(this, ids.nextSessionId(), transacted, mode);
        sessions.add(session);
        return session;
    }

    @Override
    public Session createSession(int sessionMode) throws JMSException {
        return createSession(sessionMode == Session.SESSION_TRANSACTED, sessionMode);
    }

    @Override
    public Session createSession() throws JMSException {
        return createSession(false, Session.AUTO_ACKNOWLEDGE);
    }

    @Override
    public TopicSession createTopicSession(boolean transacted, int acknowledgeMode) throws JMSException {
        return (TopicSession) createSession(transacted, acknowledgeMode);
    }

    @Override
    public String getClientID() throws JMSException {
        checkOpen();
        return clientIdentity.idOrNull();
    }

    @Override
    public void setClientID(String id) throws JMSException {
        checkOpen();
        clientIdentity.set(id);
        mbean.register(id);
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        return Fjm2ConnectionMetaData.INSTANCE;
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return exceptionReports.listener();
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        clientIdentity.freeze();
        exceptionReports.listener(listener);
    }

    @Override
    public void start() throws JMSException {
        checkOpen();
        clientIdentity.freeze();
        sessions.start();
    }

    /** Pauses delivery; returns once no MessageListener of this connection is running. */
    @Override
    public void stop() throws JMSException {
        checkOpen();
        if (sessions.isCallbackThread()) {
            throw new IllegalStateException("stop() from a MessageListener or CompletionListener of this connection"
                    + " would deadlock");
        }
        clientIdentity.freeze();
        sessions.stop();
    }

    /**
     * Closes sessions (waiting for listeners in progress and unblocking receive()), sends what is still batched,
     * closes the transport, and unregisters the MBean.
     */
    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        if (sessions.isCallbackThread()) {
            throw new IllegalStateException("close() from a MessageListener or CompletionListener of this"
                    + " connection is not allowed");
        }
        sessions.closeAll();
        closed = true;
        paths.close();
        threads.close();
        temporaryTopics.deleteAll();
        clientIdentity.release();
        mbean.unregister();
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Destination destination, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        checkOpen();
        throw Unsupported.applicationServerFacility("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createConnectionConsumer(Topic topic, String messageSelector,
                                                       ServerSessionPool sessionPool, int maxMessages)
            throws JMSException {
        checkOpen();
        throw Unsupported.applicationServerFacility("createConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createSharedConnectionConsumer(Topic topic, String subscriptionName,
                                                             String messageSelector, ServerSessionPool sessionPool,
                                                             int maxMessages) throws JMSException {
        checkOpen();
        throw Unsupported.applicationServerFacility("createSharedConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                              String messageSelector, ServerSessionPool sessionPool,
                                                              int maxMessages) throws JMSException {
        checkOpen();
        throw Unsupported.applicationServerFacility("createDurableConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                                    String messageSelector,
                                                                    ServerSessionPool sessionPool,
                                                                    int maxMessages) throws JMSException {
        checkOpen();
        throw Unsupported.applicationServerFacility("createSharedDurableConnectionConsumer");
    }

    @Override
    public String toString() {
        String clientId = clientIdentity.idOrNull();
        return "Fjm2Connection[" + settings.url() + ", node=" + nodeIdText()
                + (clientId == null ? "" : ", clientId=" + clientId) + "]";
    }
}
