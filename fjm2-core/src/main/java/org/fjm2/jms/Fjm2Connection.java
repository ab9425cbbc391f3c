package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import jakarta.jms.ConnectionConsumer;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.ServerSessionPool;
import jakarta.jms.Session;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.TransportCounters;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.fjm2.jms.management.ConnectionStatsMBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A JMS connection: one transport session (one NORM session for {@code norm://}) shared by all its sessions and
 * topics. It owns the batcher ({@link Outbound}), the receive path ({@link Inbound}, on the transport's
 * thread), a timer thread (batch linger, delivery delay, overflow reports) and an events thread that calls the
 * ExceptionListener, so a slow listener delays nothing else.
 */
public final class Fjm2Connection implements jakarta.jms.Connection, TopicConnection {

    private static final Logger LOG = LoggerFactory.getLogger(Fjm2Connection.class);
    /** Client ids in use in this JVM (uniqueness across the network needs a broker; FJM2 has none). */
    private static final Set<String> CLIENT_IDS_IN_USE = ConcurrentHashMap.newKeySet();
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final SecureRandom RANDOM = new SecureRandom();

    private final ConnectionSettings settings;
    private final ObjectTransport transport;
    private final DeliveryBacklog deliveryBacklog = new DeliveryBacklog();
    private final long epoch;
    private final int instance = INSTANCES.incrementAndGet();
    private final ConnectionCounters counters = new ConnectionCounters();
    private final SubscriptionTable subscriptions = new SubscriptionTable();
    private final ScheduledThreadPoolExecutor timer;
    private final ExecutorService events;
    private final ExecutorService flushThread;
    private final ExceptionReports exceptionReports;
    private final Outbound outbound;
    private final Inbound inbound;
    private final List<Fjm2Session> sessions = new CopyOnWriteArrayList<>();
    private final Map<String, Fjm2TemporaryTopic> temporaryTopics = new ConcurrentHashMap<>();
    private final AtomicInteger nextSessionId = new AtomicInteger();
    private final AtomicInteger nextProducerId = new AtomicInteger();
    private final AtomicLong nextTransactedMessage = new AtomicLong();
    private final AtomicLong nextTemporaryTopic = new AtomicLong();
    private final Object stateLock = new Object();
    private volatile boolean started;
    private volatile boolean closed;
    private volatile ExceptionListener exceptionListener;
    private volatile String clientId;
    private boolean clientIdAdministrative;
    private boolean clientIdSettable = true;
    private ObjectName mbeanName;

    Fjm2Connection(ConnectionSettings settings) throws JMSException {
        this.settings = settings;
        try {
            this.transport = settings.transportFactory().create(settings.uri(), settings.transportParameters());
        } catch (IOException | RuntimeException e) {
            JMSException jms = new JMSException("cannot open transport " + settings.url() + ": " + e.getMessage());
            jms.setLinkedException(e);
            jms.initCause(e);
            throw jms;
        }
        // wall clock, in the epoch: a receiver hears a sender that started well after it from its first message
        long startMillis = System.currentTimeMillis();
        this.epoch = BatchHeaderFlyweight.epochOf(startMillis, RANDOM.nextLong());
        String node = nodeIdText();
        this.timer = new ScheduledThreadPoolExecutor(1, daemon("fjm2-timer-" + node));
        this.timer.setRemoveOnCancelPolicy(true);
        this.events = Executors.newSingleThreadExecutor(daemon("fjm2-events-" + node));
        this.flushThread = Executors.newSingleThreadExecutor(daemon("fjm2-flush-" + node));
        this.exceptionReports = new ExceptionReports(events);
        Callbacks callbacks = new Callbacks();
        LocalDelivery localDelivery = new LocalDelivery(subscriptions,
                () -> new MessageDecoder(settings.allowList(), this::resolveTemporaryTopic), epoch);
        this.outbound = new Outbound(transport, epoch, settings, timer, flushThread, counters, localDelivery,
                callbacks);
        MessageDecoder decoder = new MessageDecoder(settings.allowList(), this::resolveTemporaryTopic);
        this.inbound = new Inbound(subscriptions, counters, decoder, callbacks, startMillis, settings.clockSkewMillis());
        if (settings.consumerBackPressure()) {
            transport.holdAcknowledgementsWhile(deliveryBacklog::isBackedUp);
        }
        transport.transmitListener(outbound::transmitIdle);
        transport.start(inbound);
        if (settings.clientId() != null) {
            claimClientId(settings.clientId());
            clientIdAdministrative = true;
        }
        registerMBean();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
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
        return outbound;
    }

    /** Which consumers listen to which topic (tests build a receive path of their own over it). */
    SubscriptionTable subscriptions() {
        return subscriptions;
    }

    /** The receive path (tests feed it crafted objects). */
    Inbound inbound() {
        return inbound;
    }

    long epoch() {
        return epoch;
    }

    /** The transport's counters (for tests and tools). */
    TransportCounters transportCounters() {
        return transport.counters();
    }

    int transportPending() {
        return transport.pendingObjects();
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    boolean isStarted() {
        return started;
    }

    /** The node id as users see it (unsigned decimal). */
    String nodeIdText() {
        return Integer.toUnsignedString(transport.localNodeId());
    }

    /** This connection's transport node id. */
    public int nodeId() {
        return transport.localNodeId();
    }

    String clientIdOrNull() {
        return clientId;
    }

    ProducerState newProducerState() {
        return new ProducerState(nextProducerId.incrementAndGet());
    }

    String newTransactedMessageId(ProducerState producer) {
        return "ID:" + Long.toHexString(epoch) + ":" + Integer.toHexString(producer.id) + ":t"
                + nextTransactedMessage.incrementAndGet();
    }

    /** A topic of this provider for any Destination: foreign topics by name, queues refused. */
    Fjm2Topic toTopic(Destination destination) throws JMSException {
        if (destination instanceof Fjm2Topic topic) {
            return topic;
        }
        if (destination instanceof Topic topic) {
            return new Fjm2Topic(topic.getTopicName());
        }
        if (destination instanceof Queue) {
            throw Unsupported.queueDestination();
        }
        throw new InvalidDestinationException("not a Topic: " + destination);
    }

    /** The specification: only the connection that created a temporary topic may consume from it. */
    void checkConsumable(Fjm2Topic topic) throws JMSException {
        if (topic instanceof Fjm2TemporaryTopic temp) {
            if (temp.owner() != this) {
                throw new InvalidDestinationException("temporary topic " + temp.name()
                        + " belongs to another connection; only its creator may consume from it");
            }
            if (temp.isDeleted()) {
                throw new InvalidDestinationException("temporary topic " + temp.name() + " was deleted");
            }
        }
    }

    Fjm2MessageConsumer registerConsumer(Fjm2Session session, Fjm2Topic topic, SelectorFilter selector,
                                         boolean noLocal) {
        synchronized (stateLock) {
            Fjm2MessageConsumer consumer = session.newConsumer(topic, selector, noLocal, !started);
            subscriptions.add(consumer);
            return consumer;
        }
    }

    void unregisterConsumer(Fjm2MessageConsumer consumer) {
        subscriptions.remove(consumer);
    }

    private Fjm2Topic resolveTemporaryTopic(String name) {
        Fjm2TemporaryTopic own = temporaryTopics.get(name);
        return own != null ? own : Fjm2TemporaryTopic.remote(name);
    }

    void deleteTemporaryTopic(Fjm2TemporaryTopic topic) throws JMSException {
        checkOpen();
        if (subscriptions.hasConsumers(topic.name())) {
            throw new IllegalStateException("temporary topic " + topic.name() + " still has consumers");
        }
        temporaryTopics.remove(topic.name());
        topic.markDeleted();
    }

    TemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        String name = Fjm2TemporaryTopic.PREFIX + nodeIdText() + "." + Long.toHexString(epoch) + "."
                + Long.toHexString(RANDOM.nextLong()) + "." + nextTemporaryTopic.incrementAndGet();
        Fjm2TemporaryTopic topic = new Fjm2TemporaryTopic(name, this);
        temporaryTopics.put(name, topic);
        return topic;
    }

    void sessionClosed(Fjm2Session session) {
        sessions.remove(session);
    }

    boolean isOwnCallbackThread() {
        for (Fjm2Session s : sessions) {
            if (s.isListenerThread() || s.isCompletionThread()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Hands a problem to the ExceptionListener on the events thread (never blocks the caller; a bounded backlog).
     * Without a listener nothing happens here: whoever reports a problem has logged it.
     */
    void reportAsync(JMSException problem) {
        ExceptionListener listener = exceptionListener;
        if (listener != null) {
            exceptionReports.report(listener, problem);
        }
    }

    /** What the receive path and the batcher call back: kept off the public API. */
    private final class Callbacks implements Inbound.Owner, Outbound.DroppedBatches {
        @Override
        public void reportAsync(JMSException problem) {
            Fjm2Connection.this.reportAsync(problem);
        }

        @Override
        public void batchDropped(int priority, int messages, String reason) {
            LOG.error("{} message(s) of priority {} could not be sent: {}", messages, priority, reason);
            reportAsync(new MessagesLostException(null, transport.localNodeId(), 0, priority, messages,
                    "not sent by this connection: " + reason));
        }
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
        synchronized (stateLock) {
            clientIdSettable = false;
            Fjm2Session session = new Fjm2Session(this, nextSessionId.incrementAndGet(), transacted, mode);
            sessions.add(session);
            return session;
        }
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
        return clientId;
    }

    @Override
    public void setClientID(String id) throws JMSException {
        checkOpen();
        synchronized (stateLock) {
            if (clientIdAdministrative) {
                throw new IllegalStateException("the client id was configured administratively (clientID="
                        + clientId + ") and cannot be changed");
            }
            if (clientId != null || !clientIdSettable) {
                throw new IllegalStateException("setClientID must be the first call on a connection, and only once");
            }
            if (id == null || id.isEmpty()) {
                throw new InvalidClientIDException("client id must not be null or empty");
            }
            claimClientId(id);
            clientIdSettable = false;
            unregisterMBean();
            registerMBean();
        }
    }

    private void claimClientId(String id) throws InvalidClientIDException {
        if (!CLIENT_IDS_IN_USE.add(id)) {
            throw new InvalidClientIDException("client id '" + id + "' is already in use by another connection");
        }
        clientId = id;
    }

    @Override
    public ConnectionMetaData getMetaData() throws JMSException {
        checkOpen();
        return Fjm2ConnectionMetaData.INSTANCE;
    }

    @Override
    public ExceptionListener getExceptionListener() throws JMSException {
        checkOpen();
        return exceptionListener;
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) throws JMSException {
        checkOpen();
        synchronized (stateLock) {
            clientIdSettable = false;
        }
        exceptionListener = listener;
    }

    @Override
    public void start() throws JMSException {
        checkOpen();
        synchronized (stateLock) {
            clientIdSettable = false;
            if (started) {
                return;
            }
            started = true;
            for (Fjm2Session s : sessions) {
                s.deliveryPaused(false);
            }
        }
    }

    /** Pauses delivery; returns once no MessageListener of this connection is running. */
    @Override
    public void stop() throws JMSException {
        checkOpen();
        if (isOwnCallbackThread()) {
            throw new IllegalStateException("stop() from a MessageListener or CompletionListener of this connection"
                    + " would deadlock");
        }
        synchronized (stateLock) {
            clientIdSettable = false;
            if (!started) {
                return;
            }
            started = false;
            for (Fjm2Session s : sessions) {
                s.deliveryPaused(true);
            }
        }
        try {
            for (Fjm2Session s : sessions) {
                s.awaitListenerIdle();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
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
        if (isOwnCallbackThread()) {
            throw new IllegalStateException("close() from a MessageListener or CompletionListener of this"
                    + " connection is not allowed");
        }
        synchronized (stateLock) {
            if (closed) {
                return;
            }
            started = false;
        }
        for (Fjm2Session s : sessions) {
            s.close();
        }
        closed = true;
        outbound.close();
        transport.close();
        timer.shutdownNow();
        flushThread.shutdownNow();
        events.shutdown();
        try {
            events.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Fjm2TemporaryTopic t : temporaryTopics.values()) {
            t.markDeleted();
        }
        temporaryTopics.clear();
        String id = clientId;
        if (id != null) {
            CLIENT_IDS_IN_USE.remove(id);
        }
        unregisterMBean();
    }

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("connection closed");
        }
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
        throw Unsupported.durable("createSharedConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                              String messageSelector, ServerSessionPool sessionPool,
                                                              int maxMessages) throws JMSException {
        checkOpen();
        throw Unsupported.durable("createDurableConnectionConsumer");
    }

    @Override
    public ConnectionConsumer createSharedDurableConnectionConsumer(Topic topic, String subscriptionName,
                                                                    String messageSelector,
                                                                    ServerSessionPool sessionPool,
                                                                    int maxMessages) throws JMSException {
        checkOpen();
        throw Unsupported.durable("createSharedDurableConnectionConsumer");
    }

    // ------------------------------------------------------------------ JMX

    /** The MBean name: {@code org.fjm2:type=Connection,clientId=...,node=...,instance=...}. */
    ObjectName mbeanName() {
        return mbeanName;
    }

    private void registerMBean() {
        if (!settings.jmx()) {
            return;
        }
        try {
            String id = clientId == null ? "none" : ObjectName.quote(clientId);
            ObjectName name = new ObjectName("org.fjm2:type=Connection,clientId=" + id + ",node=" + nodeIdText()
                    + ",instance=" + instance);
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            server.registerMBean(new StandardMBean(new ConnectionStats(this, counters, transport),
                    ConnectionStatsMBean.class), name);
            mbeanName = name;
        } catch (JMException | RuntimeException e) {
            LOG.warn("could not register the connection MBean: {}", e.toString());
        }
    }

    private void unregisterMBean() {
        ObjectName name = mbeanName;
        if (name == null) {
            return;
        }
        try {
            ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
        } catch (JMException e) {
            LOG.debug("MBean {} already gone: {}", name, e.toString());
        }
        mbeanName = null;
    }

    @Override
    public String toString() {
        return "Fjm2Connection[" + settings.url() + ", node=" + nodeIdText()
                + (clientId == null ? "" : ", clientId=" + clientId) + "]";
    }
}
