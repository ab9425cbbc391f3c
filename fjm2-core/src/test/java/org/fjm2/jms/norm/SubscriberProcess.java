package org.fjm2.jms.norm;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A subscriber in its own JVM, for the two-process test: {@code URL TOPIC COUNT}. Prints READY once subscribed,
 * then DONE n or FAIL reason, and exits.
 */
public final class SubscriberProcess {

    public static void main(String[] args) throws Exception {
        String url = args[0];
        String topic = args[1];
        int count = Integer.parseInt(args[2]);
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageConsumer consumer = s.createConsumer(s.createTopic(topic));
            c.start();
            System.out.println("READY");
            System.out.flush();
            for (int i = 0; i < count; i++) {
                Message m = consumer.receive(30_000);
                if (m == null) {
                    System.out.println("FAIL timeout after " + i + " messages");
                    return;
                }
                if (m.getIntProperty("seq") != i) {
                    System.out.println("FAIL expected seq " + i + " got " + m.getIntProperty("seq"));
                    return;
                }
            }
            System.out.println("DONE " + count);
            System.out.flush();
        }
    }
}
