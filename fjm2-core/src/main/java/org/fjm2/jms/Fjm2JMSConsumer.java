package org.fjm2.jms;

import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import org.fjm2.jms.message.Fjm2Message;

import java.util.List;

/** The simplified API's consumer: a {@link Fjm2MessageConsumer} with unchecked exceptions and receiveBody. */
final class Fjm2JMSConsumer implements JMSConsumer {

    private final Fjm2MessageConsumer consumer;
    private final Fjm2Session session;

    Fjm2JMSConsumer(Fjm2MessageConsumer consumer, Fjm2Session session) {
        this.consumer = consumer;
        this.session = session;
    }

    @Override
    public String getMessageSelector() {
        return RuntimeExceptions.unchecked(() -> consumer.getMessageSelector());
    }

    @Override
    public MessageListener getMessageListener() {
        return RuntimeExceptions.unchecked(() -> consumer.getMessageListener());
    }

    @Override
    public void setMessageListener(MessageListener listener) {
        RuntimeExceptions.unchecked(() -> consumer.setMessageListener(listener));
    }

    @Override
    public Message receive() {
        return RuntimeExceptions.unchecked(() -> consumer.receive());
    }

    @Override
    public Message receive(long timeout) {
        return RuntimeExceptions.unchecked(() -> consumer.receive(timeout));
    }

    @Override
    public Message receiveNoWait() {
        return RuntimeExceptions.unchecked(() -> consumer.receiveNoWait());
    }

    @Override
    public void close() {
        RuntimeExceptions.unchecked(() -> consumer.close());
    }

    @Override
    public <T> T receiveBody(Class<T> c) {
        return body(receive(), c);
    }

    @Override
    public <T> T receiveBody(Class<T> c, long timeout) {
        return body(receive(timeout), c);
    }

    @Override
    public <T> T receiveBodyNoWait(Class<T> c) {
        return body(receiveNoWait(), c);
    }

    /**
     * The body of a received message. When it cannot be returned as {@code c}, an AUTO_ACKNOWLEDGE or
     * DUPS_OK session gets the message again on the next receive, as the specification asks.
     */
    private <T> T body(Message message, Class<T> c) {
        if (message == null) {
            return null;
        }
        try {
            return message.getBody(c);
        } catch (MessageFormatException e) {
            try {
                int mode = session.getAcknowledgeMode();
                if (mode == Session.AUTO_ACKNOWLEDGE || mode == Session.DUPS_OK_ACKNOWLEDGE) {
                    Fjm2Message m = (Fjm2Message) message;
                    m.setJMSRedelivered(true);
                    m.deliveryCount(m.deliveryCount() + 1);
                    consumer.redeliver(List.of(m));
                }
            } catch (JMSException ignored) {
                // the session closed meanwhile: nothing to put back
            }
            throw RuntimeExceptions.convert(e);
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
    }
}
