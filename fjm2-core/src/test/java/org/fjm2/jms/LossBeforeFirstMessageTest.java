package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * Objects lost for good before a receiver has decoded anything from their sender carry messages whose sequence
 * numbers the receiver never sees. They must still be reported instead of vanishing (seeded loss, one message per
 * object):
 * <ul>
 *   <li>the publisher started before the subscriber: a late join, the count is unknown;</li>
 *   <li>the publisher started after the subscriber was listening: the first message received, numbered above 1,
 *       says exactly how many were missed from the start of the stream.</li>
 * </ul>
 */
class LossBeforeFirstMessageTest {

    private static final int MESSAGES = 20;
    /** Seeds tried; with half the objects lost, the first one is lost for about half of them. */
    private static final int SEEDS = 8;
    /** Longer than the smallest batch limit (256 bytes), so that every message is an object of its own. */
    private static final String PADDING = "x".repeat(300);

    @Test
    void aLateJoinerReportsLossBeforeItsFirstMessageWithoutACount() throws Exception {
        int cases = runSeeds("lossRate=0.5&maxBatchBytes=256", false,
                (firstIndex, e) -> e.lostMessages() == -1 && e.getMessage().contains("before the first message"));
        assertThat(cases).as("the seeds must lose a first object at least once").isPositive();
    }

    @Test
    void thePublishersMissingFirstMessagesAreCountedExactly() throws Exception {
        int cases = runSeeds("lossRate=0.5&maxBatchBytes=256&clockSkewMillis=0", true,
                (firstIndex, e) -> e.lostMessages() == firstIndex && e.getMessage().contains("start of its stream"));
        assertThat(cases).as("the seeds must lose the first message at least once").isPositive();
    }

    private interface Report {
        boolean expected(int firstIndex, MessagesLostException report);
    }

    /** @return how many seeds lost the first message (each of them checked for the expected report) */
    private static int runSeeds(String params, boolean publisherStartsLater, Report expected) throws Exception {
        int cases = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            String url = InMem.newUrl(params + "&seed=" + seed);
            Connection pub = publisherStartsLater ? null : InMem.connect(url);
            try (Connection sub = InMem.connect(url)) {
                List<JMSException> reports = new CopyOnWriteArrayList<>();
                sub.setExceptionListener(reports::add);
                Session ss = sub.createSession();
                Topic topic = ss.createTopic("first");
                MessageConsumer consumer = ss.createConsumer(topic);
                sub.start();
                if (publisherStartsLater) {
                    Thread.sleep(5);        // the publisher's connection starts strictly later
                    pub = InMem.connect(url);
                }
                Session ps = pub.createSession();
                MessageProducer producer = ps.createProducer(topic);
                for (int i = 0; i < MESSAGES; i++) {
                    producer.send(ps.createTextMessage(i + " " + PADDING));
                }
                Fjm2Connection subscriber = (Fjm2Connection) sub;
                assertThat(Await.until(() -> subscriber.transportCounters().objectsReceived()
                        + subscriber.transportCounters().objectsLost() == MESSAGES, 30, TimeUnit.SECONDS))
                        .as("seed %d: every object delivered or lost", seed).isTrue();
                TextMessage first = (TextMessage) consumer.receive(5000);
                int firstIndex = first == null ? MESSAGES : Integer.parseInt(first.getText().split(" ")[0]);
                if (firstIndex > 0 && (first != null || !publisherStartsLater)) {
                    cases++;
                    long seedFinal = seed;
                    assertThat(Await.until(() -> reports.stream().anyMatch(e -> e instanceof MessagesLostException m
                                    && expected.expected(firstIndex, m)), 10, TimeUnit.SECONDS))
                            .as("seed %d: first message received is #%d, reports %s", seedFinal, firstIndex, reports)
                            .isTrue();
                }
            } finally {
                if (pub != null) {
                    pub.close();
                }
            }
        }
        return cases;
    }
}
