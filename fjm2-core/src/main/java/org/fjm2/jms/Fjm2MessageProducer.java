package org.fjm2.jms;

import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Topic;
import jakarta.jms.TopicPublisher;

/**
 * Sends to one topic, or to any (an anonymous producer, created with a null destination). Each producer has
 * its own id and sequence numbers per priority, which receivers use for ordering, duplicate removal and exact
 * loss counts. PERSISTENT is accepted and carried, but FJM2 keeps no store: delivery is reliable multicast
 * to the subscribers present.
 */
public final class Fjm2MessageProducer implements MessageProducer, TopicPublisher {

    private final Fjm2Session session;
    private final Fjm2Topic topic;
    private final ProducerState state;
    private volatile boolean closed;
    private boolean disableMessageId;
    private boolean disableTimestamp;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;

    Fjm2MessageProducer(Fjm2Session session, Fjm2Topic topic, ProducerState state) {
        this.session = session;
        this.topic = topic;
        this.state = state;
    }

    // ------------------------------------------------------------------ settings

    @Override
    public void setDisableMessageID(boolean value) throws JMSException {
        checkOpen();
        disableMessageId = value;
    }

    @Override
    public boolean getDisableMessageID() throws JMSException {
        checkOpen();
        return disableMessageId;
    }

    @Override
    public void setDisableMessageTimestamp(boolean value) throws JMSException {
        checkOpen();
        disableTimestamp = value;
    }

    @Override
    public boolean getDisableMessageTimestamp() throws JMSException {
        checkOpen();
        return disableTimestamp;
    }

    @Override
    public void setDeliveryMode(int mode) throws JMSException {
        checkOpen();
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("delivery mode must be PERSISTENT or NON_PERSISTENT, got " + mode);
        }
        deliveryMode = mode;
    }

    @Override
    public int getDeliveryMode() throws JMSException {
        checkOpen();
        return deliveryMode;
    }

    @Override
    public void setPriority(int value) throws JMSException {
        checkOpen();
        if (value < 0 || value > 9) {
            throw new JMSException("priority must be 0..9, got " + value);
        }
        priority = value;
    }

    @Override
    public int getPriority() throws JMSException {
        checkOpen();
        return priority;
    }

    @Override
    public void setTimeToLive(long value) throws JMSException {
        checkOpen();
        timeToLive = value;
    }

    @Override
    public long getTimeToLive() throws JMSException {
        checkOpen();
        return timeToLive;
    }

    @Override
    public void setDeliveryDelay(long value) throws JMSException {
        checkOpen();
        deliveryDelay = value;
    }

    @Override
    public long getDeliveryDelay() throws JMSException {
        checkOpen();
        return deliveryDelay;
    }

    @Override
    public Destination getDestination() throws JMSException {
        checkOpen();
        return topic;
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return topic;
    }

    // ------------------------------------------------------------------ send

    @Override
    public void send(Message message) throws JMSException {
        send(message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Message message, int mode, int prio, long ttl) throws JMSException {
        checkOpen();
        session.send(state, ownTopic(), message, mode, prio, ttl, deliveryDelay, disableMessageId,
                disableTimestamp);
    }

    @Override
    public void send(Destination destination, Message message) throws JMSException {
        send(destination, message, deliveryMode, priority, timeToLive);
    }

    @Override
    public void send(Destination destination, Message message, int mode, int prio, long ttl) throws JMSException {
        checkOpen();
        session.send(state, explicitTopic(destination), message, mode, prio, ttl, deliveryDelay,
                disableMessageId, disableTimestamp);
    }

    @Override
    public void send(Message message, CompletionListener listener) throws JMSException {
        send(message, deliveryMode, priority, timeToLive, listener);
    }

    @Override
    public void send(Message message, int mode, int prio, long ttl, CompletionListener listener)
            throws JMSException {
        checkOpen();
        sendAsync(ownTopic(), message, mode, prio, ttl, listener);
    }

    /** Captures the producer's settings now; the send itself runs on the session's send thread. */
    private void sendAsync(Fjm2Topic target, Message message, int mode, int prio, long ttl,
                           CompletionListener listener) throws JMSException {
        long delay = deliveryDelay;
        boolean noId = disableMessageId;
        boolean noTimestamp = disableTimestamp;
        session.sendAsync(message, listener,
                () -> session.sendWithoutWaiting(state, target, message, mode, prio, ttl, delay, noId, noTimestamp));
    }

    @Override
    public void send(Destination destination, Message message, CompletionListener listener) throws JMSException {
        send(destination, message, deliveryMode, priority, timeToLive, listener);
    }

    @Override
    public void send(Destination destination, Message message, int mode, int prio, long ttl,
                     CompletionListener listener) throws JMSException {
        checkOpen();
        sendAsync(explicitTopic(destination), message, mode, prio, ttl, listener);
    }

    // ------------------------------------------------------------------ TopicPublisher

    @Override
    public void publish(Message message) throws JMSException {
        send(message);
    }

    @Override
    public void publish(Message message, int mode, int prio, long ttl) throws JMSException {
        send(message, mode, prio, ttl);
    }

    @Override
    public void publish(Topic destination, Message message) throws JMSException {
        send(destination, message);
    }

    @Override
    public void publish(Topic destination, Message message, int mode, int prio, long ttl) throws JMSException {
        send(destination, message, mode, prio, ttl);
    }

    private Fjm2Topic ownTopic() {
        if (topic == null) {
            throw new UnsupportedOperationException("this producer has no destination: use send(Destination, ...)");
        }
        return topic;
    }

    private Fjm2Topic explicitTopic(Destination destination) throws JMSException {
        if (topic != null) {
            throw new UnsupportedOperationException("this producer was created for topic " + topic.name()
                    + ": use send(Message)");
        }
        if (destination == null) {
            throw new InvalidDestinationException("destination must not be null");
        }
        return Destinations.toTopic(destination);
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("producer closed");
        }
        session.checkOpen();
    }

    @Override
    public void close() throws JMSException {
        if (!closed) {
            closed = true;
            session.producerClosed(this);
        }
    }
}
