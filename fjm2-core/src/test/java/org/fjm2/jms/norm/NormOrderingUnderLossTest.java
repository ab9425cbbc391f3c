package org.fjm2.jms.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;

/**
 * Issue 4's loss criterion over real NORM: 3 subscribers, each losing 10% of received datagrams (seeded,
 * independently), get 50,000 messages of mixed sizes (10 B to 200 KB) from 2 concurrent producers: each
 * producer's messages complete, in order, without duplicates, with intact content.
 */
class NormOrderingUnderLossTest {

    static final int PER_PRODUCER = 25_000;
    static final int SUBSCRIBERS = 3;
    static final String RATE = "rate=100m";

    @Test
    void threeSubscribersGetEveryMessageOfTwoProducersInOrderUnderTenPercentLoss() throws Exception {
        long seed = Long.getLong("fjm2.test.seed", 20261122L);
        System.out.println("NormOrderingUnderLossTest seed=" + seed + " (rerun with -Dfjm2.test.seed=" + seed + ")");
        String base = NormUrls.fresh();
        List<Connection> connections = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(SUBSCRIBERS + 2);
        List<JMSException> problems = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        try {
            List<MessageConsumer> consumers = new ArrayList<>();
            for (int i = 0; i < SUBSCRIBERS; i++) {
                // The consumers verify every body (CRC) on a 2-core machine shared with the NORM threads: the rate
                // is kept to what they can drain, or their bounded queues would (rightly) overflow.
                Connection c = new Fjm2ConnectionFactory(NormUrls.of(base, RATE + "&rxLoss=0.1&lossSeed=" + (seed + i)))
                        .createConnection();
                c.setExceptionListener(problems::add);
                connections.add(c);
                Session s = c.createSession();
                consumers.add(s.createConsumer(s.createTopic("load")));
                c.start();
            }
            List<Future<?>> producers = new ArrayList<>();
            for (int p = 0; p < 2; p++) {
                Connection c = new Fjm2ConnectionFactory(NormUrls.of(base, RATE)).createConnection();
                connections.add(c);
                int producer = p;
                producers.add(pool.submit(() -> {
                    publish(c, producer, seed);
                    return null;
                }));
            }
            List<Future<long[]>> results = new ArrayList<>();
            for (MessageConsumer consumer : consumers) {
                results.add(pool.submit(() -> receive(consumer)));
            }
            for (Future<?> f : producers) {
                f.get(300, TimeUnit.SECONDS);
            }
            problems.forEach(e -> System.out.println("reported: " + e));
            for (int i = 0; i < SUBSCRIBERS; i++) {
                long[] r;
                try {
                    r = results.get(i).get(300, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new AssertionError("seed " + seed + ", subscriber " + i + ", reported " + problems, e.getCause());
                }
                assertThat(r).as("seed %d: subscriber %d messages per producer", seed, i)
                        .containsExactly(PER_PRODUCER, PER_PRODUCER);
            }
            assertThat(problems).as("seed %d: exceptions reported", seed).isEmpty();
            System.out.printf("3 subscribers x %d messages in %.1f s under 10%% loss%n", 2 * PER_PRODUCER,
                    (System.nanoTime() - start) / 1e9);
        } finally {
            pool.shutdownNow();
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    /** Mostly small messages (batched), one in twenty between 2 KB and 200 KB. */
    static int size(SplittableRandom random) {
        if (random.nextInt(20) == 0) {
            return 2_000 + random.nextInt(198_000);
        }
        return 10 + (int) Math.exp(random.nextDouble() * Math.log(200));
    }

    private static void publish(Connection c, int producer, long seed) throws JMSException {
        Session s = c.createSession();
        MessageProducer p = s.createProducer(s.createTopic("load"));
        SplittableRandom random = new SplittableRandom(seed * 7 + producer);
        for (int i = 0; i < PER_PRODUCER; i++) {
            byte[] body = new byte[size(random)];
            random.nextBytes(body);
            CRC32 crc = new CRC32();
            crc.update(body);
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(body);
            m.setIntProperty("producer", producer);
            m.setIntProperty("seq", i);
            m.setLongProperty("crc", crc.getValue());
            p.send(m);
        }
    }

    private static long[] receive(MessageConsumer consumer) throws JMSException {
        long[] next = new long[2];
        while (next[0] < PER_PRODUCER || next[1] < PER_PRODUCER) {
            BytesMessage m = (BytesMessage) consumer.receive(30_000);
            if (m == null) {
                return next;        // the assertion shows how far it got
            }
            int producer = m.getIntProperty("producer");
            int seq = m.getIntProperty("seq");
            if (seq != next[producer]) {
                throw new AssertionError("producer " + producer + ": expected seq " + next[producer] + ", got " + seq);
            }
            byte[] body = new byte[(int) m.getBodyLength()];
            m.readBytes(body);
            CRC32 crc = new CRC32();
            crc.update(body);
            if (crc.getValue() != m.getLongProperty("crc")) {
                throw new AssertionError("producer " + producer + " seq " + seq + ": corrupt body");
            }
            next[producer]++;
        }
        return next;
    }
}
