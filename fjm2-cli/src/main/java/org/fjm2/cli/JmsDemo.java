package org.fjm2.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;

/**
 * The JMS part of {@code fjm2 demo}: one publisher connection and several subscriber connections in this process,
 * each its own NORM node on loopback multicast, subscribers losing a share of the datagrams (seeded). Every
 * subscriber must receive every message in order; progress each second, a summary at the end.
 */
final class JmsDemo {

    private JmsDemo() {
    }

    static int run(String group, String interfaceName, int subscribers, int messages, int size, double loss,
                   long rate, long seed, int publishRate) throws Exception {
        String base = "norm://" + group + "?interface=" + interfaceName + "&rate=" + rate + "&grtt=0.002";
        System.out.printf("FJM2 JMS demo: 1 publisher -> %d subscribers on topic 'demo.prices' over %s (%s), "
                        + "%,d messages of %d bytes, %.1f%% packet loss at each subscriber (seed %d)%n",
                subscribers, group, interfaceName, messages, size, loss * 100, seed);
        List<Connection> connections = new ArrayList<>();
        List<JMSException> problems = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(subscribers);
        AtomicLong delivered = new AtomicLong();
        AtomicLong outOfOrder = new AtomicLong();
        try {
            for (int i = 0; i < subscribers; i++) {
                // A demo wants every message: room for a burst in each subscriber's queue (bounded by bytes anyway).
                String url = base + "&rxLoss=" + loss + "&lossSeed=" + (seed + i)
                        + "&consumerQueueMessages=1000000";
                Connection c = new Fjm2ConnectionFactory(url).createConnection();
                connections.add(c);
                c.setExceptionListener(problems::add);
                Session s = c.createSession();
                long[] next = {0};
                s.createConsumer(s.createTopic("demo.prices")).setMessageListener(m -> {
                    try {
                        long seq = m.getLongProperty("seq");
                        if (seq != next[0]) {
                            outOfOrder.incrementAndGet();
                        }
                        next[0] = seq + 1;
                        delivered.incrementAndGet();
                        if (seq == messages - 1) {
                            done.countDown();
                        }
                    } catch (JMSException e) {
                        problems.add(e);
                    }
                });
                c.start();
            }
            Connection pubConnection = new Fjm2ConnectionFactory(base).createConnection();
            connections.add(0, pubConnection);      // closed first, while the subscribers still acknowledge
            Session pub = pubConnection.createSession();
            MessageProducer producer = pub.createProducer(pub.createTopic("demo.prices"));
            byte[] body = new byte[size];
            long start = System.nanoTime();
            long lastPrint = start;
            for (int i = 0; i < messages; i++) {
                BytesMessage m = pub.createBytesMessage();
                m.writeBytes(body);
                m.setLongProperty("seq", i);
                producer.send(m);
                long now = System.nanoTime();
                if (publishRate > 0) {
                    long due = start + (long) ((i + 1) * 1e9 / publishRate);
                    while (due - System.nanoTime() > 200_000) {
                        Thread.sleep(0, 100_000);
                    }
                    now = System.nanoTime();
                }
                if (now - lastPrint > 1_000_000_000L) {
                    lastPrint = now;
                    System.out.printf("  %5.1f s  published %,d of %,d, delivered %,d of %,d%n", (now - start) / 1e9,
                            i + 1, messages, delivered.get(), (long) messages * subscribers);
                }
            }
            boolean complete = done.await(120, TimeUnit.SECONDS);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.println();
            row("messages delivered", String.format("%,d of %,d", delivered.get(), (long) messages * subscribers));
            row("out of order", String.valueOf(outOfOrder.get()));
            row("problems reported", String.valueOf(problems.size()));
            row("time", String.format("%.2f s", seconds));
            row("per subscriber", String.format("%,.0f msg/s, %.1f MB/s", messages / seconds,
                    (double) messages * size / seconds / 1e6));
            boolean ok = complete && outOfOrder.get() == 0 && problems.isEmpty()
                    && delivered.get() == (long) messages * subscribers;
            problems.stream().limit(5).forEach(p -> System.out.println("  reported: " + p.getMessage()));
            System.out.println(ok ? "every subscriber got every message, in order." : "INCOMPLETE");
            return ok ? 0 : 1;
        } finally {
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    private static void row(String name, String value) {
        System.out.printf("%-22s %s%n", name, value);
    }
}
