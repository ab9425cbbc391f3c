package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.netty.buffer.ByteBuf;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.fjm2.jms.transport.ObjectListener;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.transport.inmem.InMemoryTransportFactory;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/** Time to live, delivery delay, priority. */
class DeliveryOptionsTest {

    @Test
    void expiredMessagesAreNotDelivered() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            sub.stop();
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("ttl");
            MessageConsumer consumer = sub.createSession().createConsumer(topic);
            MessageProducer p = ps.createProducer(topic);
            p.send(ps.createTextMessage("short"), DeliveryMode.NON_PERSISTENT, 4, 50);
            p.send(ps.createTextMessage("long"), DeliveryMode.NON_PERSISTENT, 4, 60_000);
            Fjm2Connection fs = (Fjm2Connection) sub;
            assertThat(Await.until(() -> fs.counters().messagesReceived.sum() == 2, 10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(100); // let the 50 ms time to live pass: the point of this test
            sub.start();
            Message m = consumer.receive(5000);
            assertThat(((TextMessage) m).getText()).isEqualTo("long");
            assertThat(consumer.receive(200)).isNull();
            assertThat(fs.counters().messagesExpired.sum()).isEqualTo(1);
        }
    }

    @Test
    void deliveryDelayIsHonouredByTheReceiver() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("delay");
            MessageConsumer consumer = sub.createSession().createConsumer(topic);
            MessageProducer p = ps.createProducer(topic);
            p.setDeliveryDelay(400);
            TextMessage delayed = ps.createTextMessage("later");
            long sent = System.currentTimeMillis();
            p.send(delayed);
            assertThat(delayed.getJMSDeliveryTime()).isEqualTo(delayed.getJMSTimestamp() + 400);
            p.setDeliveryDelay(0);
            p.send(ps.createTextMessage("now"));
            assertThat(((TextMessage) consumer.receive(5000)).getText()).isEqualTo("now");
            Message later = consumer.receive(5000);
            long arrived = System.currentTimeMillis();
            assertThat(((TextMessage) later).getText()).isEqualTo("later");
            assertThat(arrived - sent).isGreaterThanOrEqualTo(390);
            assertThat(later.getJMSDeliveryTime()).isEqualTo(delayed.getJMSDeliveryTime());
        }
    }

    @Test
    void waitingHigherPriorityMessagesAreDeliveredFirst() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            sub.stop();
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("prio");
            MessageConsumer consumer = sub.createSession().createConsumer(topic);
            MessageProducer p = ps.createProducer(topic);
            for (int i = 0; i < 5; i++) {
                p.send(ps.createTextMessage("low" + i), DeliveryMode.NON_PERSISTENT, 1, 0);
            }
            for (int i = 0; i < 5; i++) {
                p.send(ps.createTextMessage("high" + i), DeliveryMode.NON_PERSISTENT, 8, 0);
            }
            Fjm2Connection fs = (Fjm2Connection) sub;
            assertThat(Await.until(() -> fs.counters().messagesReceived.sum() == 10, 10, TimeUnit.SECONDS)).isTrue();
            sub.start();
            List<String> order = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                order.add(((TextMessage) consumer.receive(5000)).getText());
            }
            assertThat(order).containsExactly("high0", "high1", "high2", "high3", "high4",
                    "low0", "low1", "low2", "low3", "low4");
        }
    }

    /**
     * The sender's transmission is stalled by a member whose receive thread blocks, so low-priority batches
     * queue up in the transport; a high-priority message sent after them overtakes them.
     */
    @Test
    void higherPriorityOvertakesLowerPriorityQueuedAtTheSender() throws Exception {
        String url = InMem.newUrl("maxBatchBytes=256");
        URI uri = URI.create(url);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch stalled = new CountDownLatch(1);
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url);
             ObjectTransport staller = new InMemoryTransportFactory().create(uri, Map.of("receiveQueueObjects", "1"))) {
            staller.start(new Staller(stalled, release));
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("overtake");
            List<String> order = new CopyOnWriteArrayList<>();
            CountDownLatch all = new CountDownLatch(21);
            sub.createSession().createConsumer(topic).setMessageListener(m -> {
                try {
                    order.add(((TextMessage) m).getText());
                } catch (jakarta.jms.JMSException e) {
                    throw new RuntimeException(e);
                }
                all.countDown();
            });
            MessageProducer p = ps.createProducer(topic);
            String padding = "x".repeat(300); // one message per batch
            for (int i = 0; i < 20; i++) {
                p.send(ps.createTextMessage("low" + i + padding), DeliveryMode.NON_PERSISTENT, 1, 0);
            }
            assertThat(stalled.await(10, TimeUnit.SECONDS)).isTrue();
            Fjm2Connection fp = (Fjm2Connection) pub;
            assertThat(fp.transportPending()).as("low-priority batches wait in the transport").isGreaterThan(10);
            p.send(ps.createTextMessage("HIGH"), DeliveryMode.NON_PERSISTENT, 9, 0);
            fp.outbound().flushAll();
            release.countDown();
            assertThat(all.await(10, TimeUnit.SECONDS)).isTrue();
            int high = order.indexOf("HIGH");
            assertThat(high).as("arrival order %s", order).isBetween(0, 5);
        }
    }

    /** A group member whose receive thread blocks on its first object until released. */
    private record Staller(CountDownLatch stalled, CountDownLatch release) implements ObjectListener {
        @Override
        public void onObject(int senderNodeId, ByteBuf object) {
            stalled.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void onObjectsLost(int senderNodeId, int objectCount, String reason) {
        }

        @Override
        public void onSenderGone(int senderNodeId) {
        }
    }
}
