package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

class PublishSubscribeTest {

    @Test
    void messagesReachSubscribersOnOtherConnectionsInOrder() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub1 = InMem.connect(url);
             Connection sub2 = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("prices");
            MessageConsumer c1 = sub1.createSession().createConsumer(topic);
            MessageConsumer c2 = sub2.createSession().createConsumer(topic);
            MessageProducer producer = ps.createProducer(topic);
            for (int i = 0; i < 500; i++) {
                producer.send(ps.createTextMessage("m" + i));
            }
            for (MessageConsumer c : List.of(c1, c2)) {
                for (int i = 0; i < 500; i++) {
                    Message m = c.receive(10_000);
                    assertThat(m).as("message %d", i).isNotNull();
                    assertThat(((TextMessage) m).getText()).isEqualTo("m" + i);
                    assertThat(m.getJMSDestination()).isEqualTo(topic);
                    assertThat(m.getJMSMessageID()).startsWith("ID:");
                    assertThat(m.getJMSRedelivered()).isFalse();
                    assertThat(m.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
                }
                assertThat(c.receiveNoWait()).isNull();
            }
        }
    }

    @Test
    void consumersOnTheSameConnectionGetLocalMessagesUnlessNoLocal() throws Exception {
        try (Connection conn = InMem.connect(InMem.newUrl())) {
            Session s = conn.createSession();
            Topic topic = s.createTopic("local");
            MessageConsumer plain = s.createConsumer(topic);
            MessageConsumer noLocal = s.createConsumer(topic, null, true);
            s.createProducer(topic).send(s.createTextMessage("hello"));
            Message m = plain.receive(5_000);
            assertThat(((TextMessage) m).getText()).isEqualTo("hello");
            assertThat(noLocal.receive(200)).isNull();
        }
    }

    @Test
    void noLocalConsumerStillGetsOtherConnectionsMessages() throws Exception {
        String url = InMem.newUrl();
        try (Connection a = InMem.connect(url); Connection b = InMem.connect(url)) {
            Session sa = a.createSession();
            Topic topic = sa.createTopic("t");
            MessageConsumer noLocal = sa.createConsumer(topic, null, true);
            sa.createProducer(topic).send(sa.createTextMessage("own"));
            Session sb = b.createSession();
            sb.createProducer(topic).send(sb.createTextMessage("remote"));
            assertThat(((TextMessage) noLocal.receive(5_000)).getText()).isEqualTo("remote");
            assertThat(noLocal.receive(200)).isNull();
        }
    }

    @Test
    void listenerReceivesInOrderAndStopPausesDelivery() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("l");
            List<String> got = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch first = new CountDownLatch(100);
            CountDownLatch all = new CountDownLatch(200);
            sub.createSession().createConsumer(topic).setMessageListener(m -> {
                try {
                    got.add(((TextMessage) m).getText());
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
                first.countDown();
                all.countDown();
            });
            MessageProducer p = ps.createProducer(topic);
            for (int i = 0; i < 100; i++) {
                p.send(ps.createTextMessage("m" + i));
            }
            assertThat(first.await(10, TimeUnit.SECONDS)).isTrue();
            sub.stop();
            for (int i = 100; i < 200; i++) {
                p.send(ps.createTextMessage("m" + i));
            }
            // Delivery is paused: wait until the subscriber connection has received (queued) all 200.
            Fjm2Connection fc = (Fjm2Connection) sub;
            assertThat(Await.until(() -> fc.counters().messagesReceived.sum() == 200, 10, TimeUnit.SECONDS))
                    .isTrue();
            assertThat(got).hasSize(100);
            sub.start();
            assertThat(all.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 200; i++) {
                assertThat(got.get(i)).isEqualTo("m" + i);
            }
        }
    }

    @Test
    void producerOptionsAnonymousProducersAndPublishers() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            jakarta.jms.TopicSession ps = ((jakarta.jms.TopicConnection) pub).createTopicSession(false,
                    Session.AUTO_ACKNOWLEDGE);
            Topic a = ps.createTopic("a");
            Topic b = ps.createTopic("b");
            Session ss = sub.createSession();
            MessageConsumer ca = ss.createConsumer(a);
            MessageConsumer cb = ss.createConsumer(b);
            MessageProducer anonymous = ps.createProducer(null);
            anonymous.setDisableMessageID(true);
            anonymous.setDisableMessageTimestamp(true);
            anonymous.send(a, ps.createTextMessage("to a"));
            anonymous.send(b, ps.createTextMessage("to b"));
            assertThatThrownBy(() -> anonymous.send(ps.createTextMessage("x")))
                    .isInstanceOf(UnsupportedOperationException.class);
            jakarta.jms.TopicPublisher publisher = ps.createPublisher(a);
            assertThatThrownBy(() -> publisher.publish(b, ps.createTextMessage("x")))
                    .isInstanceOf(UnsupportedOperationException.class);
            publisher.publish(ps.createTextMessage("published"));
            Message ma = ca.receive(5000);
            assertThat(((TextMessage) ma).getText()).isEqualTo("to a");
            assertThat(ma.getJMSMessageID()).isNull();
            assertThat(ma.getJMSTimestamp()).isZero();
            assertThat(((TextMessage) cb.receive(5000)).getText()).isEqualTo("to b");
            Message published = ca.receive(5000);
            assertThat(((TextMessage) published).getText()).isEqualTo("published");
            assertThat(published.getJMSMessageID()).isNotNull();
            assertThat(published.getJMSTimestamp()).isPositive();
        }
    }

    @Test
    void closeFromAnotherThreadUnblocksReceive() throws Exception {
        try (Connection conn = InMem.connect(InMem.newUrl())) {
            Session s = conn.createSession();
            MessageConsumer c = s.createConsumer(s.createTopic("quiet"));
            AtomicReference<Object> result = new AtomicReference<>("not returned");
            CountDownLatch returned = new CountDownLatch(1);
            Thread receiver = new Thread(() -> {
                try {
                    result.set(c.receive());
                } catch (Exception e) {
                    result.set(e);
                }
                returned.countDown();
            });
            receiver.start();
            assertThat(Await.blocked(receiver)).isTrue();
            c.close();
            assertThat(returned.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(result.get()).isNull();
            assertThatThrownBy(c::receiveNoWait).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void connectionCloseWaitsForARunningListener() throws Exception {
        String url = InMem.newUrl();
        Connection pub = InMem.connect(url);
        Connection sub = InMem.connect(url);
        Session ps = pub.createSession();
        Topic topic = ps.createTopic("slow");
        CountDownLatch inListener = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Boolean> finished = new AtomicReference<>(false);
        sub.createSession().createConsumer(topic).setMessageListener(m -> {
            inListener.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            finished.set(true);
        });
        ps.createProducer(topic).send(ps.createMessage());
        assertThat(inListener.await(10, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(() -> {
            try {
                sub.close();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        closer.start();
        closer.join(200);
        assertThat(closer.isAlive()).as("close() must wait for the listener").isTrue();
        release.countDown();
        closer.join(10_000);
        assertThat(closer.isAlive()).isFalse();
        assertThat(finished.get()).isTrue();
        pub.close();
    }
}
