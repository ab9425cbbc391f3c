package org.fjm2.jms.norm;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A member of a shared subscription in its own JVM (the shared subscription kill test): {@code URL TOPIC NAME}.
 * Prints READY once its consumer exists, then {@code GOT seq redelivered} for every message it receives (each
 * acknowledged as it is received), until no message came for 30 s or it is killed.
 */
public final class SharedMemberProcess {

    public static void main(String[] args) throws Exception {
        try (Connection c = new Fjm2ConnectionFactory(args[0]).createConnection()) {
            Session s = c.createSession();
            MessageConsumer consumer = s.createSharedConsumer(s.createTopic(args[1]), args[2]);
            c.start();
            System.out.println("READY");
            System.out.flush();
            Message m;
            while ((m = consumer.receive(30_000)) != null) {
                System.out.println("GOT " + m.getIntProperty("seq") + " " + m.getJMSRedelivered());
                System.out.flush();
            }
            System.out.println("IDLE");
        }
    }
}
