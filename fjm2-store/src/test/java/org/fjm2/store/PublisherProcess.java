package org.fjm2.store;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A publisher in a process of its own, for crash tests: {@code PublisherProcess URL TOPIC} sends PERSISTENT messages
 * numbered from 1 and prints {@code ACK k .} as soon as send k returned (with {@code storeQuorum} in the URL: once
 * the stores have it on disk), {@code FAILED k reason} when it threw, until killed.
 */
public final class PublisherProcess {

    private PublisherProcess() {
    }

    public static void main(String[] args) throws Exception {
        try (Connection c = new Fjm2ConnectionFactory(args[0]).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic(args[1]));
            for (long k = 1; ; k++) {
                try {
                    p.send(s.createTextMessage("message " + k));
                    System.out.println("ACK " + k + " .");
                } catch (JMSException e) {
                    System.out.println("FAILED " + k + " " + e.getMessage());
                }
                System.out.flush();
            }
        } catch (Exception e) {
            System.out.println("FAIL " + e);
            System.exit(1);
        }
    }
}
