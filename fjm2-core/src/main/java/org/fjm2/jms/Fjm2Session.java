package org.fjm2.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.MessageProducer;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import org.fjm2.jms.message.Fjm2BytesMessage;
import org.fjm2.jms.message.Fjm2MapMessage;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.message.Fjm2ObjectMessage;
import org.fjm2.jms.message.Fjm2StreamMessage;
import org.fjm2.jms.message.Fjm2TextMessage;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A single-threaded context for producing and consuming, as the specification defines it. The JMS face over parts
 * with one job each: {@link SessionSends} (stamping, batching, the transaction's sends), {@link AsyncSends} (sends
 * with a CompletionListener, on the completion thread), {@link SessionAcknowledgements} (acknowledgement without a
 * broker: what was delivered and not yet acknowledged, recover and rollback) and {@link ListenerDelivery} (the
 * MessageListeners and their thread). The session itself keeps its producers and consumers and closes them.
 */
public final class Fjm2Session implements Session, TopicSession {

    private final Fjm2Connection connection;
    private final int id;
    private final boolean transacted;
    private final int acknowledgeMode;
    private final List<Fjm2MessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<Fjm2MessageProducer> producers = new CopyOnWriteArrayList<>();
    private final SessionSends sends;
    private final AsyncSends asyncSends;
    private final SessionAcknowledgements acknowledgements;
    private final ListenerDelivery listeners;
    private volatile boolean closed;

    Fjm2Session(Fjm2Connection connection, int id, boolean transacted, int acknowledgeMode) {
        this.connection = connection;
        this.id = id;
        this.transacted = transacted;
        this.acknowledgeMode = transacted ? SESSION_TRANSACTED : acknowledgeMode;
        String threadSuffix = connection.nodeIdText() + "-" + id;
        this.sends = new SessionSends(connection, transacted);
        this.asyncSends = new AsyncSends("fjm2-completion-" + threadSuffix);
        this.acknowledgements = new SessionAcknowledgements(this.acknowledgeMode, this::acknowledgeAll,
                connection.counters());
        this.listeners = new ListenerDelivery(acknowledgements, connection.counters(),
                connection.settings().maxRedeliveries(), "fjm2-listener-" + threadSuffix, connection::isStarted);
    }

    Fjm2Connection connection() {
        return connection;
    }

    int id() {
        return id;
    }

    // ------------------------------------------------------------------ messages

    @Override
    public BytesMessage createBytesMessage() throws JMSException {
        checkOpen();
        return new Fjm2BytesMessage();
    }

    @Override
    public MapMessage createMapMessage() throws JMSException {
        checkOpen();
        return new Fjm2MapMessage();
    }

    @Override
    public Message createMessage() throws JMSException {
        checkOpen();
        return new Fjm2Message();
    }

    @Override
    public ObjectMessage createObjectMessage() throws JMSException {
        checkOpen();
        Fjm2ObjectMessage m = new Fjm2ObjectMessage();
        m.allowList(connection.settings().allowList());
        return m;
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) throws JMSException {
        ObjectMessage m = createObjectMessage();
        m.setObject(object);
        return m;
    }

    @Override
    public StreamMessage createStreamMessage() throws JMSException {
        checkOpen();
        return new Fjm2StreamMessage();
    }

    @Override
    public TextMessage createTextMessage() throws JMSException {
        checkOpen();
        return new Fjm2TextMessage();
    }

    @Override
    public TextMessage createTextMessage(String text) throws JMSException {
        checkOpen();
        return new Fjm2TextMessage(text);
    }

    // ------------------------------------------------------------------ transactions and acknowledgement

    @Override
    public boolean getTransacted() throws JMSException {
        checkOpen();
        return transacted;
    }

    @Override
    public int getAcknowledgeMode() throws JMSException {
        checkOpen();
        return acknowledgeMode;
    }

    @Override
    public void commit() throws JMSException {
        checkOpen();
        checkNotInCompletionListener("commit");
        if (!transacted) {
            throw new IllegalStateException("commit() on a session that is not transacted");
        }
        sends.commit();
        acknowledgements.acknowledgeAll();
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        checkNotInCompletionListener("rollback");
        if (!transacted) {
            throw new IllegalStateException("rollback() on a session that is not transacted");
        }
        sends.discardTransaction();
        acknowledgements.redeliverUnacknowledged();
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (transacted) {
            throw new IllegalStateException("recover() on a transacted session: use rollback()");
        }
        acknowledgements.redeliverUnacknowledged();
    }

    /** Message.acknowledge() and JMSContext.acknowledge(): every message this session delivered so far. */
    void acknowledgeAll() throws JMSException {
        if (closed) {
            throw new IllegalStateException("acknowledge() after the session was closed");
        }
        acknowledgements.acknowledgeAll();
    }

    /** Bookkeeping for every message handed to the application by receive(). */
    void delivered(Fjm2MessageConsumer consumer, Fjm2Message message) {
        acknowledgements.delivered(consumer, message);
        acknowledgements.returnedToApplication(consumer, message);
    }

    /** AUTO_ACKNOWLEDGE or DUPS_OK_ACKNOWLEDGE: a message is acknowledged as it is handed to the application. */
    boolean acknowledgesOnDelivery() {
        return !acknowledgements.keepsDelivered();
    }

    /** The listener thread (started on first use). */
    ListenerDispatcher dispatcher() {
        return listeners.dispatcher();
    }

    boolean isListenerThread() {
        return listeners.isListenerThread();
    }

    boolean isCompletionThread() {
        return asyncSends.isCompletionThread();
    }

    /** Connection start/stop. */
    void deliveryPaused(boolean paused) {
        for (Fjm2MessageConsumer c : consumers) {
            c.queue().paused(paused);
        }
        listeners.paused(paused);
    }

    /** Waits for a listener in progress on another thread (stop, close). */
    void awaitListenerIdle() throws InterruptedException {
        listeners.awaitIdle();
    }

    void listenerChanged(Fjm2MessageConsumer consumer, boolean hasListener) {
        listeners.listenerChanged(consumer, hasListener);
    }

    // ------------------------------------------------------------------ producers and consumers

    @Override
    public MessageProducer createProducer(Destination destination) throws JMSException {
        checkOpen();
        Fjm2Topic topic = destination == null ? null : Destinations.toTopic(destination);
        Fjm2MessageProducer producer = new Fjm2MessageProducer(this, topic, connection.newProducerState());
        producers.add(producer);
        return producer;
    }

    void producerClosed(Fjm2MessageProducer producer) {
        producers.remove(producer);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination) throws JMSException {
        return createConsumer(destination, null, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector) throws JMSException {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public MessageConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal)
            throws JMSException {
        checkOpen();
        if (destination == null) {
            throw new InvalidDestinationException("destination must not be null");
        }
        Fjm2Topic topic = Destinations.toTopic(destination);
        connection.checkConsumable(topic);
        SelectorFilter selector = SelectorFilter.parse(messageSelector);
        return connection.registerConsumer(this, topic, selector, noLocal);
    }

    /** Called by {@link ConnectionSessions} (under its lock, with start and stop) to create and list a consumer. */
    Fjm2MessageConsumer newConsumer(Fjm2Topic topic, SelectorFilter selector, boolean noLocal, String durableName,
                                    SharedGroup shared, boolean paused) {
        Fjm2MessageConsumer consumer = new Fjm2MessageConsumer(this, topic, selector, noLocal,
                connection.settings(), paused, durableName, shared);
        consumers.add(consumer);
        return consumer;
    }

    void consumerClosed(Fjm2MessageConsumer consumer) {
        consumers.remove(consumer);
        listeners.consumerClosed(consumer);
        connection.unregisterConsumer(consumer);
        acknowledgements.forget(consumer);
        try {
            awaitListenerIdle();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    /**
     * A consumer of a shared non-durable subscription: the consumers of the name (and client id, if set) in every
     * process of the group each get a disjoint share of the messages, without a broker ({@link SharedSubscriptions}).
     */
    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String name, String selector) throws JMSException {
        checkOpen();
        if (topic == null) {
            throw new InvalidDestinationException("topic must not be null");
        }
        Fjm2Topic fjm2Topic = Destinations.toTopic(topic);
        connection.checkConsumable(fjm2Topic);
        return connection.registerSharedConsumer(this, fjm2Topic, name, SelectorFilter.parse(selector), false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        return createDurableSubscriber(topic, name, null, false);
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String selector, boolean noLocal)
            throws JMSException {
        return (TopicSubscriber) createDurableConsumer(topic, name, selector, noLocal);
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        return createDurableConsumer(topic, name, null, false);
    }

    /**
     * A durable subscriber (client id + name) kept by the stores: what it did not acknowledge comes first, then live
     * messages (see {@link DurableSubscriptions}). Waits for a store's first answer; without one, a JMSException.
     */
    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String selector, boolean noLocal)
            throws JMSException {
        checkOpen();
        if (topic == null) {
            throw new InvalidDestinationException("topic must not be null");
        }
        Fjm2Topic fjm2Topic = Destinations.toTopic(topic);
        SelectorFilter filter = SelectorFilter.parse(selector);
        return connection.registerDurableConsumer(this, fjm2Topic, name, filter, noLocal);
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        return createSharedDurableConsumer(topic, name, null);
    }

    /**
     * A consumer of a shared durable subscription (name, and client id if set) kept by the stores: consumers of it in
     * any process each get a disjoint share; what none acknowledged comes again to those there when it is made (see
     * {@link SharedGroup}). Waits for a store's first answer when it is the first of the subscription in this
     * connection; without one, a JMSException.
     */
    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String selector)
            throws JMSException {
        checkOpen();
        if (topic == null) {
            throw new InvalidDestinationException("topic must not be null");
        }
        Fjm2Topic fjm2Topic = Destinations.toTopic(topic);
        connection.checkConsumable(fjm2Topic);
        return connection.registerSharedConsumer(this, fjm2Topic, name, SelectorFilter.parse(selector), true);
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        checkOpen();
        connection.durableSubscriptions().unsubscribe(name);
    }

    // ------------------------------------------------------------------ destinations

    @Override
    public Topic createTopic(String topicName) throws JMSException {
        checkOpen();
        if (topicName == null || topicName.isEmpty()) {
            throw new InvalidDestinationException("topic name must not be null or empty");
        }
        try {
            return new Fjm2Topic(topicName);
        } catch (IllegalArgumentException e) {
            throw new InvalidDestinationException(e.getMessage());
        }
    }

    @Override
    public TemporaryTopic createTemporaryTopic() throws JMSException {
        checkOpen();
        return connection.createTemporaryTopic();
    }

    @Override
    public Queue createQueue(String queueName) throws JMSException {
        checkOpen();
        throw Unsupported.queues("createQueue");
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) throws JMSException {
        checkOpen();
        throw Unsupported.queues("createBrowser");
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) throws JMSException {
        checkOpen();
        throw Unsupported.queues("createBrowser");
    }

    @Override
    public TemporaryQueue createTemporaryQueue() throws JMSException {
        checkOpen();
        throw Unsupported.queues("createTemporaryQueue");
    }

    // ------------------------------------------------------------------ TopicSession

    @Override
    public TopicSubscriber createSubscriber(Topic topic) throws JMSException {
        return (TopicSubscriber) createConsumer(topic);
    }

    @Override
    public TopicSubscriber createSubscriber(Topic topic, String messageSelector, boolean noLocal)
            throws JMSException {
        return (TopicSubscriber) createConsumer(topic, messageSelector, noLocal);
    }

    @Override
    public TopicPublisher createPublisher(Topic topic) throws JMSException {
        return (TopicPublisher) createProducer(topic);
    }

    // ------------------------------------------------------------------ application server facilities

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return null;
    }

    @Override
    public void setMessageListener(MessageListener listener) throws JMSException {
        checkOpen();
        throw Unsupported.applicationServerFacility("Session.setMessageListener");
    }

    @Override
    public void run() {
        throw new UnsupportedOperationException("Session.run is an application server facility FJM2 does not offer");
    }

    // ------------------------------------------------------------------ sending

    /** Sends one message for a producer (see {@link SessionSends}). */
    void send(ProducerState producer, Fjm2Topic topic, Message message, int deliveryMode, int priority,
              long timeToLive, long deliveryDelay, boolean disableMessageId, boolean disableTimestamp)
            throws JMSException {
        checkOpen();
        sends.send(producer, topic, message, deliveryMode, priority, timeToLive, deliveryDelay, disableMessageId,
                disableTimestamp);
    }

    /** {@link #send} without the wait for the stores' quorum, which it returns (null: none). */
    SessionSends.QuorumWait sendWithoutWaiting(ProducerState producer, Fjm2Topic topic, Message message,
                                               int deliveryMode, int priority, long timeToLive, long deliveryDelay,
                                               boolean disableMessageId, boolean disableTimestamp) throws JMSException {
        checkOpen();
        return sends.sendWithoutWaiting(producer, topic, message, deliveryMode, priority, timeToLive, deliveryDelay,
                disableMessageId, disableTimestamp);
    }

    /** An asynchronous send: done in order on this session's send thread; the listener is told in order once complete. */
    void sendAsync(Message message, CompletionListener listener, AsyncSends.Send send) throws JMSException {
        checkOpen();
        asyncSends.submit(message, listener, send);
    }

    // ------------------------------------------------------------------ lifecycle

    void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("session closed");
        }
        connection.checkOpen();
    }

    private void checkNotInCompletionListener(String method) throws IllegalStateException {
        if (isCompletionThread()) {
            throw new IllegalStateException(method + "() from a CompletionListener of the same session");
        }
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        checkNotInCompletionListener("close");
        listeners.close(); // waits for a listener in progress, unless we are that listener
        asyncSends.close(connection.settings().sendTimeoutMillis() + 1000);
        closed = true;
        for (Fjm2MessageConsumer c : consumers) {
            c.close();
        }
        for (Fjm2MessageProducer p : producers) {
            p.close();
        }
        sends.discardTransaction();
        acknowledgements.acknowledgeAll();
        connection.sessionClosed(this);
    }
}
