package org.fjm2.store;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A durable subscriber in a process of its own, for crash tests: {@code DurableSubscriberProcess URL CLIENT_ID NAME
 * TOPIC} prints {@code READY} once subscribed, then {@code GOT n;} for each message (int property seq) it received
 * (AUTO_ACKNOWLEDGE: acknowledged when receive returns), until killed.
 */
public final class DurableSubscriberProcess {

    private DurableSubscriberProcess() {
    }

    public static void main(String[] args) throws Exception {
        try {
            Connection c = new Fjm2ConnectionFactory(args[0]).createConnection();
            c.setClientID(args[1]);
            Session s = c.createSession();
            MessageConsumer consumer = s.createDurableConsumer(s.createTopic(args[3]), args[2]);
            c.start();
            System.out.println("READY");
            System.out.flush();
            while (true) {
                Message m = consumer.receive();
                System.out.println("GOT " + m.getIntProperty("seq") + ";");
                System.out.flush();
            }
        } catch (Exception e) {
            System.out.println("FAIL " + e);
            System.exit(1);
        }
    }
}
