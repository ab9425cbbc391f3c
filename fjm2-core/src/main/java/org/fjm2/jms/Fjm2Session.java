package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A single-threaded context for producing and consuming, as the specification defines it. Acknowledgement
 * without a broker is local bookkeeping: AUTO and DUPS_OK forget a message once delivered; CLIENT_ACKNOWLEDGE and
 * transacted sessions keep delivered messages until acknowledge()/commit() and redeliver them (JMSRedelivered,
 * JMSXDeliveryCount + 1) on recover()/rollback(). A transacted session holds its sends, encoded, until commit.
 */
public final class Fjm2Session implements Session, TopicSession {

    private static final Logger LOG = LoggerFactory.getLogger(Fjm2Session.class);

    private final Fjm2Connection connection;
    private final int id;
    private final boolean transacted;
    private final int acknowledgeMode;
    private final List<Fjm2MessageConsumer> consumers = new CopyOnWriteArrayList<>();
    private final List<Fjm2MessageConsumer> listenerConsumers = new CopyOnWriteArrayList<>();
    private final List<Fjm2MessageProducer> producers = new CopyOnWriteArrayList<>();
    /** Delivered, not yet acknowledged or committed (CLIENT_ACKNOWLEDGE and transacted only). */
    private final List<Delivered> unacknowledged = new ArrayList<>();
    private final TransactionBuffer transaction = new TransactionBuffer();
    private final Object completionLock = new Object();
    private final ListenerDispatcher.Deliveries deliveries = new ListenerDispatcher.Deliveries() {
        @Override
        public List<Fjm2MessageConsumer> listenerConsumers() {
            return listenerConsumers;
        }

        @Override
        public void deliverToListener(Fjm2MessageConsumer consumer, MessageListener listener, Fjm2Message message) {
            Fjm2Session.this.deliverToListener(consumer, listener, message);
        }
    };
    private volatile ListenerDispatcher dispatcher;
    private ExecutorService completions;
    private volatile Thread completionThread;
    private volatile boolean closed;

    private record Delivered(Fjm2MessageConsumer consumer, Fjm2Message message) {
    }

    Fjm2Session(Fjm2Connection connection, int id, boolean transacted, int acknowledgeMode) {
        this.connection = connection;
        this.id = id;
        this.transacted = transacted;
        this.acknowledgeMode = transacted ? SESSION_TRANSACTED : acknowledgeMode;
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
        try {
            transaction.commit(connection.outbound());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted during commit");
        }
        synchronized (unacknowledged) {
            unacknowledged.clear();
        }
    }

    @Override
    public void rollback() throws JMSException {
        checkOpen();
        checkNotInCompletionListener("rollback");
        if (!transacted) {
            throw new IllegalStateException("rollback() on a session that is not transacted");
        }
        transaction.clear();
        redeliverUnacknowledged();
    }

    @Override
    public void recover() throws JMSException {
        checkOpen();
        if (transacted) {
            throw new IllegalStateException("recover() on a transacted session: use rollback()");
        }
        redeliverUnacknowledged();
    }

    /** Message.acknowledge() and JMSContext.acknowledge(): every message this session delivered so far. */
    void acknowledgeAll() throws JMSException {
        if (closed) {
            throw new IllegalStateException("acknowledge() after the session was closed");
        }
        synchronized (unacknowledged) {
            unacknowledged.clear();
        }
    }

    private void redeliverUnacknowledged() {
        Map<Fjm2MessageConsumer, List<Fjm2Message>> byConsumer = new LinkedHashMap<>();
        synchronized (unacknowledged) {
            for (Delivered d : unacknowledged) {
                byConsumer.computeIfAbsent(d.consumer(), c -> new ArrayList<>()).add(d.message());
            }
            unacknowledged.clear();
        }
        byConsumer.forEach((consumer, messages) -> {
            if (consumer.isClosed()) {
                return;
            }
            for (Fjm2Message m : messages) {
                markRedelivered(m);
            }
            consumer.redeliver(messages);
        });
    }

    private static void markRedelivered(Fjm2Message m) {
        m.setJMSRedelivered(true);
        m.deliveryCount(m.deliveryCount() + 1);
        m.makeReadOnly();
    }

    /** Bookkeeping for every message handed to the application (receive or listener). */
    void delivered(Fjm2MessageConsumer consumer, Fjm2Message message) {
        connection.counters().messagesDelivered.increment();
        if (transacted || acknowledgeMode == CLIENT_ACKNOWLEDGE) {
            message.acknowledger(acknowledgeMode == CLIENT_ACKNOWLEDGE ? this::acknowledgeAll : null);
            synchronized (unacknowledged) {
                unacknowledged.add(new Delivered(consumer, message));
            }
        } else {
            message.acknowledger(null);
        }
    }

    /** Calls a consumer's listener and does the acknowledgement work around it (dispatcher thread). */
    private void deliverToListener(Fjm2MessageConsumer consumer, MessageListener listener, Fjm2Message message) {
        delivered(consumer, message);
        try {
            listener.onMessage(message);
        } catch (RuntimeException e) {
            if (transacted || acknowledgeMode == CLIENT_ACKNOWLEDGE) {
                LOG.warn("MessageListener of {} threw; the message stays unacknowledged", consumer, e);
                return;
            }
            if (message.deliveryCount() > connection.settings().maxRedeliveries()) {
                connection.counters().redeliveryDrops.increment();
                LOG.error("MessageListener of {} threw on {} deliveries of {}; dropping it (maxRedeliveries={})",
                        consumer, message.deliveryCount(), message.getJMSMessageID(),
                        connection.settings().maxRedeliveries(), e);
                return;
            }
            LOG.warn("MessageListener of {} threw; redelivering {}", consumer, message.getJMSMessageID(), e);
            markRedelivered(message);
            consumer.redeliver(List.of(message));
        }
    }

    ListenerDispatcher dispatcher() {
        ListenerDispatcher d = dispatcher;
        if (d == null) {
            synchronized (this) {
                d = dispatcher;
                if (d == null) {
                    d = new ListenerDispatcher(deliveries, "fjm2-listener-" + connection.nodeIdText() + "-" + id,
                            !connection.isStarted());
                    dispatcher = d;
                }
            }
        }
        return d;
    }

    boolean isListenerThread() {
        ListenerDispatcher d = dispatcher;
        return d != null && d.isDispatcherThread();
    }

    boolean isCompletionThread() {
        return Thread.currentThread() == completionThread;
    }

    /** Connection start/stop. */
    void deliveryPaused(boolean paused) {
        for (Fjm2MessageConsumer c : consumers) {
            c.queue().paused(paused);
        }
        ListenerDispatcher d = dispatcher;
        if (d != null) {
            d.paused(paused);
        }
    }

    /** Waits for a listener in progress on another thread (stop, close). */
    void awaitListenerIdle() throws InterruptedException {
        ListenerDispatcher d = dispatcher;
        if (d != null && !d.isDispatcherThread()) {
            d.awaitIdle();
        }
    }

    void listenerChanged(Fjm2MessageConsumer consumer, boolean hasListener) {
        if (hasListener) {
            if (!listenerConsumers.contains(consumer)) {
                listenerConsumers.add(consumer);
            }
            dispatcher().wake();
        } else {
            listenerConsumers.remove(consumer);
        }
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

    /** Called by the connection (under its state lock) to create and list a consumer. */
    Fjm2MessageConsumer newConsumer(Fjm2Topic topic, SelectorFilter selector, boolean noLocal, boolean paused) {
        Fjm2MessageConsumer consumer = new Fjm2MessageConsumer(this, topic, selector, noLocal,
                connection.settings(), paused);
        consumers.add(consumer);
        return consumer;
    }

    void consumerClosed(Fjm2MessageConsumer consumer) {
        consumers.remove(consumer);
        listenerConsumers.remove(consumer);
        connection.unregisterConsumer(consumer);
        synchronized (unacknowledged) {
            unacknowledged.removeIf(d -> d.consumer() == consumer);
        }
        try {
            awaitListenerIdle();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) throws JMSException {
        checkOpen();
        throw Unsupported.durable("createSharedConsumer");
    }

    @Override
    public MessageConsumer createSharedConsumer(Topic topic, String name, String selector) throws JMSException {
        checkOpen();
        throw Unsupported.durable("createSharedConsumer");
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name) throws JMSException {
        checkOpen();
        throw Unsupported.durable("createDurableSubscriber");
    }

    @Override
    public TopicSubscriber createDurableSubscriber(Topic topic, String name, String selector, boolean noLocal)
            throws JMSException {
        checkOpen();
        throw Unsupported.durable("createDurableSubscriber");
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name) throws JMSException {
        checkOpen();
        throw Unsupported.durable("createDurableConsumer");
    }

    @Override
    public MessageConsumer createDurableConsumer(Topic topic, String name, String selector, boolean noLocal)
            throws JMSException {
        checkOpen();
        throw Unsupported.durable("createDurableConsumer");
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name) throws JMSException {
        checkOpen();
        throw Unsupported.durable("createSharedDurableConsumer");
    }

    @Override
    public MessageConsumer createSharedDurableConsumer(Topic topic, String name, String selector)
            throws JMSException {
        checkOpen();
        throw Unsupported.durable("createSharedDurableConsumer");
    }

    @Override
    public void unsubscribe(String name) throws JMSException {
        checkOpen();
        throw Unsupported.durable("unsubscribe");
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

    /**
     * Sends one message for a producer: stamps the header, then encodes it into the batch (or the transaction).
     * A foreign message is copied first and gets the header fields back afterwards.
     */
    void send(ProducerState producer, Fjm2Topic topic, Message message, int deliveryMode, int priority,
              long timeToLive, long deliveryDelay, boolean disableMessageId, boolean disableTimestamp)
            throws JMSException {
        checkOpen();
        if (message == null) {
            throw new jakarta.jms.MessageFormatException("message must not be null");
        }
        if (deliveryMode != jakarta.jms.DeliveryMode.PERSISTENT && deliveryMode != jakarta.jms.DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("delivery mode must be PERSISTENT or NON_PERSISTENT, got " + deliveryMode);
        }
        if (priority < 0 || priority > 9) {
            throw new JMSException("priority must be 0..9, got " + priority);
        }
        if (topic instanceof Fjm2TemporaryTopic temp && temp.isDeleted()) {
            throw new InvalidDestinationException("temporary topic " + temp.name() + " was deleted");
        }
        Fjm2Message m = message instanceof Fjm2Message own ? own : ForeignMessages.convert(message);
        Fjm2Topic replyTo = m.getJMSReplyTo() == null ? null : Destinations.toTopic(m.getJMSReplyTo());
        long now = System.currentTimeMillis();
        m.setJMSDestination(topic);
        m.setJMSDeliveryMode(deliveryMode);
        m.setJMSPriority(priority);
        m.setJMSExpiration(timeToLive > 0 ? now + timeToLive : 0);
        m.setJMSTimestamp(disableTimestamp ? 0 : now);
        m.setJMSDeliveryTime(now + Math.max(0, deliveryDelay));
        long wireDeliveryTime = deliveryDelay > 0 ? now + deliveryDelay : 0;
        if (disableMessageId) {
            m.setJMSMessageID(null);
        }
        try {
            if (transacted) {
                bufferTransacted(m, topic, replyTo, producer, now, wireDeliveryTime, disableMessageId,
                        disableTimestamp);
            } else {
                connection.outbound().send(m, topic, replyTo, producer, now, wireDeliveryTime, disableMessageId,
                        disableTimestamp);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while waiting for room in the transport");
        }
        if (m != message) {
            ForeignMessages.copySendHeaders(m, message);
        }
    }

    private void bufferTransacted(Fjm2Message m, Fjm2Topic topic, Fjm2Topic replyTo, ProducerState producer,
                                  long now, long wireDeliveryTime, boolean noId, boolean noTimestamp)
            throws JMSException {
        String messageId = noId ? null : connection.newTransactedMessageId(producer);
        ByteBuf buf = transaction.buffer();
        int start = buf.writerIndex();
        try {
            MessageEncoder.encode(buf, m, topic, replyTo, producer.id, 0, now, wireDeliveryTime, noId, noTimestamp,
                    messageId);
        } catch (IndexOutOfBoundsException e) {
            transaction.discardFrom(start);
            throw TransactionBuffer.tooLarge();
        } catch (IllegalArgumentException e) {
            transaction.discardFrom(start);
            throw new jakarta.jms.MessageFormatException("cannot encode message: " + e.getMessage());
        }
        transaction.add(start, producer, m.getJMSPriority());
        m.setJMSMessageID(messageId);
    }

    /** An asynchronous send: done in order on this session's completion thread, then the listener is told. */
    void sendAsync(Message message, CompletionListener listener, AsyncSend send) throws JMSException {
        checkOpen();
        if (listener == null) {
            throw new IllegalArgumentException("CompletionListener must not be null");
        }
        synchronized (completionLock) {
            if (completions == null) {
                completions = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "fjm2-completion-" + connection.nodeIdText() + "-" + id);
                    t.setDaemon(true);
                    completionThread = t;
                    return t;
                });
            }
            completions.execute(() -> {
                try {
                    send.run();
                } catch (JMSException e) {
                    listener.onException(message, e);
                    return;
                } catch (RuntimeException e) {
                    listener.onException(message, new JMSException(e.toString()));
                    return;
                }
                listener.onCompletion(message);
            });
        }
    }

    /** A send to run later. */
    @FunctionalInterface
    interface AsyncSend {
        void run() throws JMSException;
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
        ListenerDispatcher d = dispatcher;
        if (d != null) {
            d.close(); // waits for a listener in progress, unless we are that listener
        }
        synchronized (completionLock) {
            if (completions != null) {
                completions.shutdown();
                try {
                    completions.awaitTermination(connection.settings().sendTimeoutMillis() + 1000,
                            TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
        closed = true;
        for (Fjm2MessageConsumer c : consumers) {
            c.close();
        }
        for (Fjm2MessageProducer p : producers) {
            p.close();
        }
        transaction.clear();
        synchronized (unacknowledged) {
            unacknowledged.clear();
        }
        connection.sessionClosed(this);
    }
}
