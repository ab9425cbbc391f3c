package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

/**
 * Over NORM, a consumer whose queue backs up slows the publisher down (its connection holds back watermark
 * acknowledgements, the sender's ack-based flow control keeps the data and blocks {@code send()}) instead of
 * overflowing: a consumer far slower than the publisher, with a queue of only 100 messages, still gets every
 * message and nothing is dropped.
 */
class SlowConsumerBackPressureTest {

    private static final int MESSAGES = 600;
    private static final int QUEUE_LIMIT = 100;

    @Test
    void aBackedUpConsumerSlowsThePublisherInsteadOfOverflowing() throws Exception {
        assertThat(run(1, true)).as("messages dropped by the full queue").isZero();
    }

    @Test
    void withoutBackPressureTheSameConsumerOverflows() throws Exception {
        assertThat(run(2, false)).as("messages dropped by the full queue").isPositive();
    }

    /** Publishes to a slow consumer; returns how many messages its full queue dropped. */
    private static long run(int instance, boolean backPressure) throws Exception {
        int n = (int) (ProcessHandle.current().pid() % 200);
        // The sender holds at most 4 objects of at most 4 KB (about 4 messages each): far less than the queue's
        // headroom above its half-full mark, so back-pressure acts before the bound does.
        String url = "norm://239.79." + instance + "." + n + ":" + (31000 + 2 * n + instance)
                + "?interface=lo&grtt=0.002&rate=400m&cacheObjects=4&maxBatchBytes=4096&consumerQueueMessages="
                + QUEUE_LIMIT + "&consumerOverflow=drop-newest&consumerBackPressure=" + backPressure;
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        try (Connection pubConnection = factory.createConnection();
             Connection subConnection = factory.createConnection()) {
            List<JMSException> problems = new CopyOnWriteArrayList<>();
            subConnection.setExceptionListener(problems::add);
            Session sub = subConnection.createSession();
            MessageConsumer consumer = sub.createConsumer(sub.createTopic("slow"));
            subConnection.start();
            Session pub = pubConnection.createSession();
            Topic topic = pub.createTopic("slow");
            MessageProducer producer = pub.createProducer(topic);
            byte[] body = new byte[1000];
            Thread publisher = new Thread(() -> {
                try {
                    for (int i = 0; i < MESSAGES; i++) {
                        BytesMessage m = pub.createBytesMessage();
                        m.writeBytes(body);
                        m.setIntProperty("seq", i);
                        producer.send(m);
                    }
                } catch (JMSException e) {
                    problems.add(e);
                }
            }, "publisher");
            publisher.start();
            int received = 0;
            for (int expected = 0; expected < MESSAGES; ) {
                Message m = consumer.receive(backPressure ? 15_000 : 2_000);
                if (m == null) {
                    assertThat(backPressure).as("message %d within 15 s (problems: %s)", expected, problems).isFalse();
                    break;
                }
                int seq = m.getIntProperty("seq");
                if (backPressure) {
                    assertThat(seq).isEqualTo(expected);
                }
                expected = seq + 1;
                received++;
                Thread.sleep(5);    // the slow consumer of this test: about 200 messages/s at most
            }
            publisher.join(15_000);
            Fjm2Connection fs = (Fjm2Connection) subConnection;
            long dropped = fs.counters().consumerOverflowDrops.sum();
            if (backPressure) {
                assertThat(problems).isEmpty();
                assertThat(received).isEqualTo(MESSAGES);
            }
            return dropped;
        }
    }
}
