package org.fjm2.jms.metrics;

import jakarta.jms.Connection;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.jms.Fjm2Connection;
import org.fjm2.jms.Fjm2ConnectionFactory;

/** What {@link WithoutMicrometerTest} runs in a class loader without Micrometer: plain JMS plus the statistics. */
public final class WithoutMicrometerScenario {

    private static final long RECEIVE_TIMEOUT_MILLIS = 10_000;

    private WithoutMicrometerScenario() {
    }

    /** @return the connection's node id, read through its statistics, once a message went round */
    public static long roundTrip() throws Exception {
        try (Connection connection = new Fjm2ConnectionFactory("inmem://without-micrometer?jmx=true")
                .createConnection()) {
            connection.start();
            Session session = connection.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic topic = session.createTopic("plain");
            MessageConsumer consumer = session.createConsumer(topic);
            session.createProducer(topic).send(session.createTextMessage("hello"));
            if (consumer.receive(RECEIVE_TIMEOUT_MILLIS) == null) {
                throw new AssertionError("nothing received within " + RECEIVE_TIMEOUT_MILLIS + " ms");
            }
            long delivered = ((Fjm2Connection) connection).statistics().getMessagesDelivered();
            if (delivered != 1) {
                throw new AssertionError("delivered " + delivered);
            }
            return ((Fjm2Connection) connection).statistics().getNodeId();
        }
    }
}
