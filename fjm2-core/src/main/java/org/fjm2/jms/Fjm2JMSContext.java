package org.fjm2.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.ConnectionMetaData;
import jakarta.jms.Destination;
import jakarta.jms.ExceptionListener;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.StreamMessage;
import jakarta.jms.TemporaryQueue;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;

import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The simplified API: a connection and one session. Contexts made with {@link #createContext(int)} share the
 * connection, which closes with the last of them. Consumers start the connection unless autoStart is off.
 * Checked exceptions become their unchecked twins.
 */
public final class Fjm2JMSContext implements JMSContext {

    private final Fjm2Connection connection;
    private final AtomicInteger connectionUsers;
    private final int sessionMode;
    private final Fjm2Session session;
    private volatile boolean autoStart = true;
    private volatile boolean closed;

    Fjm2JMSContext(Fjm2Connection connection, int sessionMode) {
        this(connection, new AtomicInteger(1), sessionMode);
    }

    private Fjm2JMSContext(Fjm2Connection connection, AtomicInteger users, int sessionMode) {
        this.connection = connection;
        this.connectionUsers = users;
        this.sessionMode = sessionMode;
        this.session = RuntimeExceptions.unchecked(() -> (Fjm2Session) connection.createSession(sessionMode));
    }

    static void checkSessionMode(int mode) {
        if (mode != AUTO_ACKNOWLEDGE && mode != CLIENT_ACKNOWLEDGE && mode != DUPS_OK_ACKNOWLEDGE
                && mode != SESSION_TRANSACTED) {
            throw new JMSRuntimeException("session mode must be AUTO_ACKNOWLEDGE, CLIENT_ACKNOWLEDGE,"
                    + " DUPS_OK_ACKNOWLEDGE or SESSION_TRANSACTED, got " + mode);
        }
    }

    Fjm2Session session() {
        return session;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateRuntimeException("JMSContext closed");
        }
    }

    @Override
    public JMSContext createContext(int mode) {
        checkOpen();
        checkSessionMode(mode);
        connectionUsers.incrementAndGet();
        return new Fjm2JMSContext(connection, connectionUsers, mode);
    }

    @Override
    public JMSProducer createProducer() {
        checkOpen();
        return new Fjm2JMSProducer(this, connection.newProducerState());
    }

    @Override
    public String getClientID() {
        return RuntimeExceptions.unchecked(() -> connection.getClientID());
    }

    @Override
    public void setClientID(String clientID) {
        checkOpen();
        if (connectionUsers.get() > 1) {
            throw new IllegalStateRuntimeException("setClientID on a JMSContext that shares its connection");
        }
        RuntimeExceptions.unchecked(() -> connection.setClientID(clientID));
    }

    @Override
    public ConnectionMetaData getMetaData() {
        return RuntimeExceptions.unchecked(() -> connection.getMetaData());
    }

    @Override
    public ExceptionListener getExceptionListener() {
        return RuntimeExceptions.unchecked(() -> connection.getExceptionListener());
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        RuntimeExceptions.unchecked(() -> connection.setExceptionListener(listener));
    }

    @Override
    public void start() {
        RuntimeExceptions.unchecked(() -> connection.start());
    }

    @Override
    public void stop() {
        RuntimeExceptions.unchecked(() -> connection.stop());
    }

    @Override
    public void setAutoStart(boolean value) {
        autoStart = value;
    }

    @Override
    public boolean getAutoStart() {
        return autoStart;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        try {
            if (session.isListenerThread() || session.isCompletionThread()) {
                throw new IllegalStateRuntimeException("close() from a listener of this JMSContext");
            }
            session.close();
            closed = true;
            if (connectionUsers.decrementAndGet() == 0) {
                connection.close();
            }
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public BytesMessage createBytesMessage() {
        return RuntimeExceptions.unchecked(() -> session.createBytesMessage());
    }

    @Override
    public MapMessage createMapMessage() {
        return RuntimeExceptions.unchecked(() -> session.createMapMessage());
    }

    @Override
    public Message createMessage() {
        return RuntimeExceptions.unchecked(() -> session.createMessage());
    }

    @Override
    public ObjectMessage createObjectMessage() {
        return RuntimeExceptions.unchecked(() -> session.createObjectMessage());
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        return RuntimeExceptions.unchecked(() -> session.createObjectMessage(object));
    }

    @Override
    public StreamMessage createStreamMessage() {
        return RuntimeExceptions.unchecked(() -> session.createStreamMessage());
    }

    @Override
    public TextMessage createTextMessage() {
        return RuntimeExceptions.unchecked(() -> session.createTextMessage());
    }

    @Override
    public TextMessage createTextMessage(String text) {
        return RuntimeExceptions.unchecked(() -> session.createTextMessage(text));
    }

    @Override
    public boolean getTransacted() {
        return RuntimeExceptions.unchecked(() -> session.getTransacted());
    }

    @Override
    public int getSessionMode() {
        checkOpen();
        return sessionMode;
    }

    @Override
    public void commit() {
        RuntimeExceptions.unchecked(() -> session.commit());
    }

    @Override
    public void rollback() {
        RuntimeExceptions.unchecked(() -> session.rollback());
    }

    @Override
    public void recover() {
        RuntimeExceptions.unchecked(() -> session.recover());
    }

    @Override
    public JMSConsumer createConsumer(Destination destination) {
        return createConsumer(destination, null, false);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector) {
        return createConsumer(destination, messageSelector, false);
    }

    @Override
    public JMSConsumer createConsumer(Destination destination, String messageSelector, boolean noLocal) {
        return consumer(() -> session.createConsumer(destination, messageSelector, noLocal));
    }

    /** A JMSConsumer over the session's consumer; the connection starts with it when autoStart. */
    private JMSConsumer consumer(RuntimeExceptions.JmsCall<jakarta.jms.MessageConsumer> create) {
        return RuntimeExceptions.unchecked(() -> {
            Fjm2MessageConsumer consumer = (Fjm2MessageConsumer) create.call();
            if (autoStart) {
                connection.start();
            }
            return new Fjm2JMSConsumer(consumer, session);
        });
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        return createSharedConsumer(topic, sharedSubscriptionName, null);
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String name, String messageSelector) {
        return consumer(() -> session.createSharedConsumer(topic, name, messageSelector));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        return createDurableConsumer(topic, name, null, false);
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        return consumer(() -> session.createDurableConsumer(topic, name, messageSelector, noLocal));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        return createSharedDurableConsumer(topic, name, null);
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        return consumer(() -> session.createSharedDurableConsumer(topic, name, messageSelector));
    }

    @Override
    public void unsubscribe(String name) {
        RuntimeExceptions.unchecked(() -> session.unsubscribe(name));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue) {
        throw RuntimeExceptions.convert(Unsupported.queues("createBrowser"));
    }

    @Override
    public QueueBrowser createBrowser(Queue queue, String messageSelector) {
        throw RuntimeExceptions.convert(Unsupported.queues("createBrowser"));
    }

    @Override
    public Queue createQueue(String queueName) {
        throw RuntimeExceptions.convert(Unsupported.queues("createQueue"));
    }

    @Override
    public TemporaryQueue createTemporaryQueue() {
        throw RuntimeExceptions.convert(Unsupported.queues("createTemporaryQueue"));
    }

    @Override
    public Topic createTopic(String topicName) {
        return RuntimeExceptions.unchecked(() -> session.createTopic(topicName));
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        return RuntimeExceptions.unchecked(() -> session.createTemporaryTopic());
    }

    /** Acknowledges every message consumed by this context's session (CLIENT_ACKNOWLEDGE). */
    @Override
    public void acknowledge() {
        checkOpen();
        RuntimeExceptions.unchecked(() -> session.acknowledgeAll());
    }
}
