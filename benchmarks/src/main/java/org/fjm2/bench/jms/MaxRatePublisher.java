package org.fjm2.bench.jms;

import java.util.concurrent.atomic.AtomicReference;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.ConnectionFactory;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;

/**
 * One JMS publisher sending NON_PERSISTENT BytesMessages as fast as the provider's flow control lets {@code send}
 * return, in a thread of its own, each with a long property {@code seq} numbering them 0, 1, 2... across every
 * {@link #start(int)}/{@link #stop()} round, so that the subscribers can count gaps and duplicates.
 */
public final class MaxRatePublisher implements NumberedPublisher {

    private final Connection connection;
    private final Session session;
    private final MessageProducer producer;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean running;
    private volatile long nextSeq;
    private Thread thread;

    public MaxRatePublisher(ConnectionFactory factory, String topic) throws JMSException {
        connection = factory.createConnection();
        session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
        producer = session.createProducer(session.createTopic(topic));
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
    }

    /** Starts sending messages with a {@code size}-byte body. */
    @Override
    public void start(int size) {
        byte[] body = new byte[size];
        running = true;
        thread = new Thread(() -> {
            try {
                while (running) {
                    BytesMessage m = session.createBytesMessage();
                    m.writeBytes(body);
                    m.setLongProperty("seq", nextSeq);
                    producer.send(m);
                    nextSeq++;
                }
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "max-rate-publisher");
        thread.start();
    }

    @Override
    public long stop() throws InterruptedException {
        running = false;
        thread.join();
        Throwable e = failure.get();
        if (e != null) {
            throw new IllegalStateException("publisher failed after " + nextSeq + " messages", e);
        }
        return nextSeq - 1;
    }

    @Override
    public void close() throws JMSException {
        connection.close();
    }
}
