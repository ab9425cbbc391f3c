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
        try {
            this.session = (Fjm2Session) connection.createSession(sessionMode);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
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
        try {
            return connection.getClientID();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public void setClientID(String clientID) {
        checkOpen();
        if (connectionUsers.get() > 1) {
            throw new IllegalStateRuntimeException("setClientID on a JMSContext that shares its connection");
        }
        try {
            connection.setClientID(clientID);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public ConnectionMetaData getMetaData() {
        try {
            return connection.getMetaData();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public ExceptionListener getExceptionListener() {
        try {
            return connection.getExceptionListener();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public void setExceptionListener(ExceptionListener listener) {
        try {
            connection.setExceptionListener(listener);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public void start() {
        try {
            connection.start();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public void stop() {
        try {
            connection.stop();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
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
        try {
            return session.createBytesMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public MapMessage createMapMessage() {
        try {
            return session.createMapMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public Message createMessage() {
        try {
            return session.createMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public ObjectMessage createObjectMessage() {
        try {
            return session.createObjectMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public ObjectMessage createObjectMessage(Serializable object) {
        try {
            return session.createObjectMessage(object);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public StreamMessage createStreamMessage() {
        try {
            return session.createStreamMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public TextMessage createTextMessage() {
        try {
            return session.createTextMessage();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public TextMessage createTextMessage(String text) {
        try {
            return session.createTextMessage(text);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public boolean getTransacted() {
        try {
            return session.getTransacted();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public int getSessionMode() {
        checkOpen();
        return sessionMode;
    }

    @Override
    public void commit() {
        try {
            session.commit();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public void rollback() {
        try {
            session.rollback();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public void recover() {
        try {
            session.recover();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
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
        try {
            Fjm2MessageConsumer consumer = (Fjm2MessageConsumer) session.createConsumer(destination,
                    messageSelector, noLocal);
            if (autoStart) {
                connection.start();
            }
            return new Fjm2JMSConsumer(consumer, session);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String sharedSubscriptionName) {
        throw RuntimeExceptions.convert(Unsupported.durable("createSharedConsumer"));
    }

    @Override
    public JMSConsumer createSharedConsumer(Topic topic, String name, String messageSelector) {
        throw RuntimeExceptions.convert(Unsupported.durable("createSharedConsumer"));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name) {
        throw RuntimeExceptions.convert(Unsupported.durable("createDurableConsumer"));
    }

    @Override
    public JMSConsumer createDurableConsumer(Topic topic, String name, String messageSelector, boolean noLocal) {
        throw RuntimeExceptions.convert(Unsupported.durable("createDurableConsumer"));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name) {
        throw RuntimeExceptions.convert(Unsupported.durable("createSharedDurableConsumer"));
    }

    @Override
    public JMSConsumer createSharedDurableConsumer(Topic topic, String name, String messageSelector) {
        throw RuntimeExceptions.convert(Unsupported.durable("createSharedDurableConsumer"));
    }

    @Override
    public void unsubscribe(String name) {
        throw RuntimeExceptions.convert(Unsupported.durable("unsubscribe"));
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
        try {
            return session.createTopic(topicName);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    @Override
    public TemporaryTopic createTemporaryTopic() {
        try {
            return session.createTemporaryTopic();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }

    /** Acknowledges every message consumed by this context's session (CLIENT_ACKNOWLEDGE). */
    @Override
    public void acknowledge() {
        checkOpen();
        try {
            session.acknowledgeAll();
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }
}
