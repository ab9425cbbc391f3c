package org.fjm2.store;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * A member of a shared durable subscription in a process of its own, for kill tests:
 * {@code SharedDurableMemberProcess URL NAME TOPIC [PAUSE_MICROS]} prints {@code READY} once a member, then
 * {@code GOT n r;} for each message (int property seq; r its JMSRedelivered) and only then acknowledges it
 * (CLIENT_ACKNOWLEDGE), pausing that long after each (a slow member has messages waiting when it is killed), until
 * killed: a message printed may come again, one not printed was not acknowledged.
 */
public final class SharedDurableMemberProcess {

    private SharedDurableMemberProcess() {
    }

    public static void main(String[] args) throws Exception {
        try {
            Connection c = new Fjm2ConnectionFactory(args[0]).createConnection();
            long pauseNanos = args.length > 3 ? Long.parseLong(args[3]) * 1000 : 0;
            Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = s.createSharedDurableConsumer(s.createTopic(args[2]), args[1]);
            c.start();
            System.out.println("READY");
            System.out.flush();
            while (true) {
                Message m = consumer.receive();
                System.out.println("GOT " + m.getIntProperty("seq") + " " + m.getJMSRedelivered() + ";");
                System.out.flush();
                m.acknowledge();
                if (pauseNanos > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(pauseNanos);
                }
            }
        } catch (Exception e) {
            System.out.println("FAIL " + e);
            System.exit(1);
        }
    }
}
