package org.fjm2.jms.bench;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.jms.Fjm2ConnectionFactory;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Throughput of the JMS layer alone (batching, encoding, decoding, dispatch) over the in-memory transport: one
 * publisher connection, one subscriber connection with a MessageListener, BytesMessages of a fixed size. A
 * benchmark, not a test: it prints a table. Run:
 * <pre>
 * ./mvnw -q -pl fjm2-core test-compile dependency:build-classpath -Dmdep.includeScope=test \
 *     -Dmdep.outputFile=target/cp.txt
 * java -cp fjm2-core/target/test-classes:fjm2-core/target/classes:$(cat fjm2-core/target/cp.txt) \
 *     org.fjm2.jms.bench.InMemoryThroughput [100:2000000 8192:200000]
 * </pre>
 * Each argument is SIZE:COUNT. Every run is preceded by a warm-up of a tenth of its count.
 */
public final class InMemoryThroughput {

    private InMemoryThroughput() {
    }

    public static void main(String[] args) throws Exception {
        String[] runs = args.length > 0 ? args : new String[] {"100:2000000", "1024:1000000", "8192:200000"};
        System.out.printf("%-10s %-10s %-12s %-10s %-10s %-10s%n", "size (B)", "messages", "msg/s", "MB/s",
                "batches", "dropped");
        int group = 0;
        for (String run : runs) {
            String[] parts = run.split(":");
            int size = Integer.parseInt(parts[0]);
            int count = Integer.parseInt(parts[1]);
            measure("inmem://bench-" + (group++), size, Math.max(1, count / 10));
            Result r = measure("inmem://bench-" + (group++), size, count);
            System.out.printf("%-10d %-10d %-12.0f %-10.1f %-10d %-10d%n", size, count, r.messagesPerSecond(),
                    r.messagesPerSecond() * size / 1e6, r.batches(), r.dropped());
        }
    }

    private record Result(double messagesPerSecond, long batches, long dropped) {
    }

    private static Result measure(String url, int size, int count) throws Exception {
        // A deep consumer queue: the subscriber may fall behind the publisher for a while without dropping.
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url
                + "?jmx=false&consumerQueueMessages=1000000&consumerQueueBytes=1000000000");
        try (Connection pub = factory.createConnection(); Connection sub = factory.createConnection()) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("bench");
            AtomicLong received = new AtomicLong();
            sub.createSession().createConsumer(topic).setMessageListener(m -> received.incrementAndGet());
            sub.start();
            MessageProducer producer = ps.createProducer(topic);
            producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            producer.setDisableMessageTimestamp(true);
            byte[] body = new byte[size];
            long start = System.nanoTime();
            for (int i = 0; i < count; i++) {
                BytesMessage m = ps.createBytesMessage();
                m.writeBytes(body);
                producer.send(m);
            }
            long deadline = start + TimeUnit.MINUTES.toNanos(10);
            while (received.get() + counter(sub, "consumerOverflowDrops") < count) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("received only " + received.get() + " of " + count);
                }
                Thread.sleep(1);
            }
            long elapsed = System.nanoTime() - start;
            return new Result(received.get() * 1e9 / elapsed, counter(pub, "batchesSent"),
                    counter(sub, "consumerOverflowDrops"));
        }
    }

    private static long counter(Connection connection, String name) throws Exception {
        // The connection's counters are package-private; read them reflectively so that the benchmark needs no
        // test-only API.
        var counters = connection.getClass().getDeclaredMethod("counters");
        counters.setAccessible(true);
        Object c = counters.invoke(connection);
        var field = c.getClass().getDeclaredField(name);
        field.setAccessible(true);
        return ((java.util.concurrent.atomic.LongAdder) field.get(c)).sum();
    }
}
