package org.fjm2.jms.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;

/** JMS over real NORM on loopback multicast: connections in one JVM, each its own NORM node. */
class NormPublishSubscribeTest {

    @Test
    void messagesReachSubscribersOfOtherConnectionsInOrderWithTopicFiltering() throws Exception {
        String url = NormUrls.of(NormUrls.fresh(), "");
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        int count = 2000;
        try (Connection pubConnection = factory.createConnection();
             Connection subConnection = factory.createConnection()) {
            List<JMSException> problems = new CopyOnWriteArrayList<>();
            subConnection.setExceptionListener(problems::add);
            Session sub = subConnection.createSession();
            MessageConsumer prices = sub.createConsumer(sub.createTopic("prices"));
            MessageConsumer news = sub.createConsumer(sub.createTopic("news"));
            subConnection.start();
            Session pub = pubConnection.createSession();
            MessageProducer producer = pub.createProducer(null);
            Topic pricesTopic = pub.createTopic("prices");
            Topic newsTopic = pub.createTopic("news");
            for (int i = 0; i < count; i++) {
                TextMessage m = pub.createTextMessage("price " + i);
                m.setIntProperty("seq", i);
                producer.send(pricesTopic, m);
                if (i % 10 == 0) {
                    producer.send(newsTopic, pub.createTextMessage("news " + i));
                }
            }
            for (int i = 0; i < count; i++) {
                Message m = prices.receive(10_000);
                assertThat(m).as("price %d", i).isNotNull();
                assertThat(m.getIntProperty("seq")).isEqualTo(i);
                assertThat(((TextMessage) m).getText()).isEqualTo("price " + i);
            }
            for (int i = 0; i < count; i += 10) {
                TextMessage m = (TextMessage) news.receive(10_000);
                assertThat(m).isNotNull();
                assertThat(m.getText()).isEqualTo("news " + i);
            }
            assertThat(prices.receiveNoWait()).isNull();
            assertThat(problems).isEmpty();
        }
    }

    @Test
    void publisherAndSubscriberOnTheSameConnectionAndNoLocal() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(NormUrls.of(NormUrls.fresh(), ""));
        try (Connection c = factory.createConnection(); Connection other = factory.createConnection()) {
            Session s = c.createSession();
            Topic t = s.createTopic("local");
            MessageConsumer local = s.createConsumer(t);
            MessageConsumer noLocal = s.createConsumer(t, null, true);
            Session os = other.createSession();
            MessageConsumer remote = os.createConsumer(os.createTopic("local"));
            c.start();
            other.start();
            s.createProducer(t).send(s.createTextMessage("hello"));
            assertThat(((TextMessage) local.receive(5000)).getText()).isEqualTo("hello");
            assertThat(((TextMessage) remote.receive(5000)).getText()).isEqualTo("hello");
            assertThat(noLocal.receive(300)).as("noLocal consumer gets nothing of its own connection").isNull();
        }
    }

    @Test
    void largeMessagesSpanManySegmentsAndListenersGetThem() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(NormUrls.of(NormUrls.fresh(), "rxLoss=0.05&lossSeed=3"));
        int count = 40;
        CountDownLatch all = new CountDownLatch(count);
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        try (Connection pubConnection = factory.createConnection();
             Connection subConnection = factory.createConnection()) {
            Session sub = subConnection.createSession();
            sub.createConsumer(sub.createTopic("big")).setMessageListener(m -> {
                try {
                    BytesMessage b = (BytesMessage) m;
                    byte[] body = new byte[(int) b.getBodyLength()];
                    b.readBytes(body);
                    for (int i = 0; i < body.length; i++) {
                        if (body[i] != (byte) (i * 31 + body.length)) {
                            throw new AssertionError("corrupt byte " + i);
                        }
                    }
                    sizes.add(body.length);
                    all.countDown();
                } catch (JMSException e) {
                    throw new IllegalStateException(e);
                }
            });
            subConnection.start();
            Session pub = pubConnection.createSession();
            MessageProducer producer = pub.createProducer(pub.createTopic("big"));
            List<Integer> sent = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int size = 100_000 + i * 25_000;
                byte[] body = new byte[size];
                for (int j = 0; j < size; j++) {
                    body[j] = (byte) (j * 31 + size);
                }
                BytesMessage m = pub.createBytesMessage();
                m.writeBytes(body);
                producer.send(m);
                sent.add(size);
            }
            assertThat(all.await(60, TimeUnit.SECONDS)).as("received %d of %d", sizes.size(), count).isTrue();
            assertThat(sizes).isEqualTo(sent);
        }
    }
}
