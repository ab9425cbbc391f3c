package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * A consumer whose listener is slow (it sleeps) shares a connection with a fast one: the fast one gets every
 * message in order, the slow one's queue stays within its bound, and its overflow is counted and reported.
 */
class SlowConsumerTest {

    private static final int MESSAGES = 2000;
    private static final int QUEUE_LIMIT = 100;

    @Test
    void aSlowConsumerIsBoundedReportedAndStallsNobody() throws Exception {
        String url = InMem.newUrl("consumerQueueMessages=" + QUEUE_LIMIT + "&consumerOverflow=drop-oldest");
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            List<JMSException> reports = new CopyOnWriteArrayList<>();
            sub.setExceptionListener(reports::add);
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("firehose");
            AtomicInteger slowCount = new AtomicInteger();
            Session slowSession = sub.createSession();
            Fjm2MessageConsumer slow = (Fjm2MessageConsumer) slowSession.createConsumer(topic);
            slow.setMessageListener(m -> {
                slowCount.incrementAndGet();
                try {
                    Thread.sleep(20); // the slow consumer of this test
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            List<String> fastReceived = new CopyOnWriteArrayList<>();
            CountDownLatch fastDone = new CountDownLatch(MESSAGES);
            sub.createSession().createConsumer(topic).setMessageListener(m -> {
                try {
                    fastReceived.add(((TextMessage) m).getText());
                } catch (JMSException e) {
                    throw new RuntimeException(e);
                }
                fastDone.countDown();
            });
            MessageProducer p = ps.createProducer(topic);
            int maxSlowQueue = 0;
            for (int i = 0; i < MESSAGES; i++) {
                p.send(ps.createTextMessage(Integer.toString(i)));
                maxSlowQueue = Math.max(maxSlowQueue, slow.queue().size());
                if (i % 50 == 49) {
                    // Publish in steps the fast consumer can follow, so only the slow one overflows.
                    int sent = i + 1;
                    assertThat(Await.until(() -> fastReceived.size() >= sent, 10, TimeUnit.SECONDS))
                            .as("the fast consumer keeps up (%d sent)", sent).isTrue();
                }
            }
            assertThat(fastDone.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(slowCount.get()).as("the slow consumer is still behind").isLessThan(MESSAGES / 2);
            for (int i = 0; i < MESSAGES; i++) {
                assertThat(fastReceived.get(i)).isEqualTo(Integer.toString(i));
            }
            assertThat(maxSlowQueue).isLessThanOrEqualTo(QUEUE_LIMIT);
            Fjm2Connection fs = (Fjm2Connection) sub;
            long dropped = fs.counters().consumerOverflowDrops.sum();
            assertThat(dropped).isPositive();
            assertThat(Await.until(() -> overflowReported(reports) > 0, 10, TimeUnit.SECONDS)).isTrue();
            ConsumerOverflowException first = (ConsumerOverflowException) reports.get(0);
            assertThat(first.topic()).isEqualTo("firehose");
            assertThat(first.getMessage()).contains("drop-oldest").contains("firehose");
            // Every drop is reported eventually (reports are rate-limited to one a second per consumer).
            assertThat(Await.until(() -> overflowReported(reports) == fs.counters().consumerOverflowDrops.sum(),
                    10, TimeUnit.SECONDS)).isTrue();
            slowSession.close();
            assertThat(slowCount.get() + fs.counters().consumerOverflowDrops.sum()).isLessThanOrEqualTo(MESSAGES)
                    .isGreaterThanOrEqualTo(MESSAGES - QUEUE_LIMIT - 1);
        }
    }

    private static long overflowReported(List<JMSException> reports) {
        return reports.stream().filter(e -> e instanceof ConsumerOverflowException)
                .mapToLong(e -> ((ConsumerOverflowException) e).droppedMessages()).sum();
    }
}
