package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Objects lost for good before a receiver has decoded anything from their sender carry messages whose sequence
 * numbers the receiver never sees, so the gap check cannot count them. They must still be reported (count unknown)
 * instead of vanishing: one message per object, and the first objects lost for some receivers (seeded).
 */
class LossBeforeFirstMessageTest {

    private static final int MESSAGES = 20;
    /** Seeds tried; with half the objects lost, the first one is lost for about half of them. */
    private static final int SEEDS = 8;
    /** Longer than the smallest batch limit (256 bytes), so that every message is an object of its own. */
    private static final String PADDING = "x".repeat(300);

    @Test
    void objectsLostBeforeTheFirstMessageAreReported() throws Exception {
        int firstLostCases = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            String url = InMem.newUrl("lossRate=0.5&seed=" + seed + "&maxBatchBytes=256");
            try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
                List<JMSException> reports = new CopyOnWriteArrayList<>();
                sub.setExceptionListener(reports::add);
                Session ss = sub.createSession();
                Topic topic = ss.createTopic("first");
                MessageConsumer consumer = ss.createConsumer(topic);
                sub.start();
                Session ps = pub.createSession();
                MessageProducer producer = ps.createProducer(topic);
                for (int i = 0; i < MESSAGES; i++) {
                    producer.send(ps.createTextMessage(i + " " + PADDING));      // one message per object
                }
                Fjm2Connection subscriber = (Fjm2Connection) sub;
                assertThat(Await.until(() -> subscriber.transportCounters().objectsReceived()
                        + subscriber.transportCounters().objectsLost() == MESSAGES, 30, TimeUnit.SECONDS))
                        .as("seed %d: every object delivered or lost", seed).isTrue();
                TextMessage first = (TextMessage) consumer.receive(5000);
                int firstIndex = first == null ? MESSAGES : Integer.parseInt(first.getText().split(" ")[0]);
                if (firstIndex > 0) {
                    firstLostCases++;
                    long seedFinal = seed;
                    assertThat(Await.until(() -> reports.stream().anyMatch(e -> e instanceof MessagesLostException m
                            && m.lostMessages() == -1 && m.getMessage().contains("before the first message")),
                            10, TimeUnit.SECONDS))
                            .as("seed %d: first message received is #%d, reports %s", seedFinal, firstIndex, reports)
                            .isTrue();
                }
            }
        }
        assertThat(firstLostCases).as("the seeds must lose a first object at least once").isPositive();
    }
}
