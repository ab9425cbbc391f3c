package org.fjm2.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three subscribers, two producers on two connections sending at once, message sizes from 10 B to 200 KB
 * (small ones batched, large ones alone): every subscriber gets every message, each producer's in order, with
 * its content intact.
 */
class MixedLoadTest {

    private static final int PER_PRODUCER = 400;
    private static final int MIN_SIZE = 10;
    private static final int MAX_SIZE = 200 * 1024;

    @Test
    void everySubscriberGetsEverythingInOrder() throws Exception {
        long seed = Long.getLong("fjm2.test.seed", System.nanoTime());
        System.out.println("MixedLoadTest seed=" + seed + " (rerun with -Dfjm2.test.seed=" + seed + ")");
        String url = InMem.newUrl();
        List<Connection> connections = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(5);
        try {
            List<Connection> subs = new ArrayList<>();
            List<MessageConsumer> consumers = new ArrayList<>();
            List<JMSException> problems = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 3; i++) {
                Connection c = InMem.connect(url);
                c.setExceptionListener(problems::add);
                connections.add(c);
                subs.add(c);
                Session s = c.createSession();
                consumers.add(s.createConsumer(s.createTopic("mixed")));
            }
            List<Future<?>> tasks = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                Connection c = InMem.connect(url);
                connections.add(c);
                int producerIndex = p;
                tasks.add(pool.submit(() -> {
                    publish(c, producerIndex, seed);
                    return null;
                }));
            }
            List<Future<int[]>> receivers = new ArrayList<>();
            for (MessageConsumer consumer : consumers) {
                receivers.add(pool.submit(() -> receiveAll(consumer, seed)));
            }
            for (Future<?> t : tasks) {
                t.get(120, TimeUnit.SECONDS);
            }
            for (Future<int[]> r : receivers) {
                int[] counts = r.get(120, TimeUnit.SECONDS);
                assertThat(counts).as("seed %d: messages per producer", seed).containsExactly(PER_PRODUCER,
                        PER_PRODUCER);
            }
            assertThat(problems).as("seed %d", seed).isEmpty();
        } finally {
            pool.shutdownNow();
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    private static void publish(Connection connection, int producerIndex, long seed) throws JMSException {
        Session session = connection.createSession();
        Topic topic = session.createTopic("mixed");
        MessageProducer producer = session.createProducer(topic);
        Random sizes = new Random(seed + producerIndex);
        for (int i = 0; i < PER_PRODUCER; i++) {
            BytesMessage m = session.createBytesMessage();
            m.setIntProperty("producer", producerIndex);
            m.setIntProperty("index", i);
            m.writeBytes(content(producerIndex, i, logUniformSize(sizes)));
            producer.send(m);
        }
    }

    private static int[] receiveAll(MessageConsumer consumer, long seed) throws JMSException {
        int[] next = new int[2];
        while (next[0] < PER_PRODUCER || next[1] < PER_PRODUCER) {
            BytesMessage m = (BytesMessage) consumer.receive(30_000);
            assertThat(m).as("seed %d: timed out with %d/%d received", seed, next[0], next[1]).isNotNull();
            int p = m.getIntProperty("producer");
            int index = m.getIntProperty("index");
            assertThat(index).as("seed %d: producer %d order", seed, p).isEqualTo(next[p]);
            byte[] body = new byte[(int) m.getBodyLength()];
            m.readBytes(body);
            assertThat(body).isEqualTo(content(p, index, body.length));
            next[p]++;
        }
        return next;
    }

    private static int logUniformSize(Random random) {
        double log = Math.log(MIN_SIZE) + random.nextDouble() * (Math.log(MAX_SIZE) - Math.log(MIN_SIZE));
        return (int) Math.round(Math.exp(log));
    }

    private static byte[] content(int producer, int index, int size) {
        byte[] bytes = new byte[size];
        int x = producer * 1_000_003 + index * 7919 + size;
        for (int i = 0; i < size; i++) {
            x = x * 1103515245 + 12345;
            bytes[i] = (byte) (x >>> 16);
        }
        return bytes;
    }
}
