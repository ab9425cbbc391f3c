package org.fjm2.jms.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

import java.lang.management.ManagementFactory;

/**
 * Heap allocated by the publishing thread per message delivered to a consumer of the same connection (local
 * delivery: the message is encoded into the batch, then handed to the local consumers on the sending thread). It
 * measures the allocation of N sends to a topic with a local consumer, minus that of N sends to a topic nobody here
 * listens to, with ThreadMXBean's per-thread allocation counter. A benchmark, not a test: it prints a table. Run
 * like {@link InMemoryThroughput}:
 * <pre>
 * java -cp ... org.fjm2.jms.bench.LocalDeliveryAllocation
 * </pre>
 */
public final class LocalDeliveryAllocation {

    /** Messages per measured round. */
    static final int MESSAGES_PER_ROUND = 20_000;
    /** Rounds run before measuring, so that the JIT has compiled the send path. */
    static final int WARM_UP_ROUNDS = 20;
    /** Bytes of each message's body. */
    static final int BODY_BYTES = 100;

    private LocalDeliveryAllocation() {
    }

    public static void main(String[] args) throws Exception {
        System.out.printf("%-28s %-22s %-22s %-18s%n", "message", "B/send (no local)", "B/send (local)",
                "B/local delivery");
        for (boolean withProperty : new boolean[] {false, true}) {
            Result r = measure(withProperty);
            System.out.printf("%-28s %-22.0f %-22.0f %-18.0f%n",
                    BODY_BYTES + " B bytes" + (withProperty ? " + int property" : ""), r.withoutLocal(),
                    r.withLocal(), r.withLocal() - r.withoutLocal());
        }
    }

    /** Bytes allocated per send, without and with a local consumer of the topic. */
    record Result(double withoutLocal, double withLocal) {
    }

    static Result measure(boolean withProperty) throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory("inmem://local-allocation?jmx=false"
                + "&consumerQueueMessages=1000000&consumerQueueBytes=1000000000");
        try (Connection connection = factory.createConnection()) {
            Session session = connection.createSession();
            MessageConsumer consumer = session.createConsumer(session.createTopic("local"));
            connection.start();
            MessageProducer toLocal = session.createProducer(session.createTopic("local"));
            MessageProducer toNobody = session.createProducer(session.createTopic("nobody"));
            for (MessageProducer p : new MessageProducer[] {toLocal, toNobody}) {
                p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            }
            BytesMessage message = session.createBytesMessage();
            message.writeBytes(new byte[BODY_BYTES]);
            if (withProperty) {
                message.setIntProperty("seq", 1);
            }
            for (int i = 0; i < WARM_UP_ROUNDS; i++) {
                round(toNobody, message, consumer);
                round(toLocal, message, consumer);
            }
            long nobody = round(toNobody, message, consumer);
            long local = round(toLocal, message, consumer);
            return new Result((double) nobody / MESSAGES_PER_ROUND, (double) local / MESSAGES_PER_ROUND);
        }
    }

    /** Bytes the calling thread allocated for the round's sends (the draining afterwards is not counted). */
    private static long round(MessageProducer producer, BytesMessage message, MessageConsumer consumer)
            throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < MESSAGES_PER_ROUND; i++) {
            producer.send(message);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        while (consumer.receiveNoWait() != null) {
            // drained: the next round starts with an empty queue
        }
        return allocated;
    }
}
