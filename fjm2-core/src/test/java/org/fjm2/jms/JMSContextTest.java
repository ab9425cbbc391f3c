package org.fjm2.jms;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The simplified API and asynchronous sends. */
class JMSContextTest {

    @Test
    void allFourCreateContextOverloadsWork() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        try (JMSContext a = factory.createContext(); JMSContext b = factory.createContext("u", "p");
             JMSContext c = factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE);
             JMSContext d = factory.createContext("u", "p", JMSContext.SESSION_TRANSACTED)) {
            assertThat(a.getSessionMode()).isEqualTo(JMSContext.AUTO_ACKNOWLEDGE);
            assertThat(b.getSessionMode()).isEqualTo(JMSContext.AUTO_ACKNOWLEDGE);
            assertThat(c.getSessionMode()).isEqualTo(JMSContext.CLIENT_ACKNOWLEDGE);
            assertThat(d.getTransacted()).isTrue();
        }
    }

    @Test
    void sendAndReceiveBodiesWithAutoStart() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        try (JMSContext producerContext = factory.createContext(); JMSContext consumerContext = factory.createContext()) {
            Topic topic = producerContext.createTopic("ctx");
            JMSConsumer consumer = consumerContext.createConsumer(topic); // starts the connection
            producerContext.createProducer().setProperty("kind", "text").setPriority(6).send(topic, "hello");
            producerContext.createProducer().send(topic, Map.of("k", 1));
            producerContext.createProducer().send(topic, new byte[] {1, 2});
            producerContext.createProducer().send(topic, (java.io.Serializable) List.of("s"));
            Message first = consumer.receive(5000);
            assertThat(first.getBody(String.class)).isEqualTo("hello");
            assertThat(first.getStringProperty("kind")).isEqualTo("text");
            assertThat(first.getJMSPriority()).isEqualTo(6);
            assertThat(consumer.receiveBody(Map.class, 5000)).containsEntry("k", 1);
            assertThatThrownBy(() -> consumer.receiveBody(String.class, 5000))
                    .isInstanceOf(MessageFormatRuntimeException.class);
            // The AUTO_ACKNOWLEDGE context gets the refused message again.
            Message again = consumer.receive(5000);
            assertThat(again.getJMSRedelivered()).isTrue();
            assertThat(again.getBody(byte[].class)).containsExactly(1, 2);
            assertThat(consumer.receiveBody(List.class, 5000)).containsExactly("s");
            assertThat(consumer.receiveBodyNoWait(String.class)).isNull();
        }
    }

    @Test
    void sharedConnectionClosesWithTheLastContext() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        JMSContext first = factory.createContext();
        JMSContext second = first.createContext(JMSContext.AUTO_ACKNOWLEDGE);
        first.close();
        Topic topic = second.createTopic("still-open");
        JMSConsumer consumer = second.createConsumer(topic);
        second.createProducer().send(topic, "x");
        assertThat(consumer.receiveBody(String.class, 5000)).isEqualTo("x");
        second.close();
        assertThatThrownBy(() -> second.createTopic("t")).isInstanceOf(IllegalStateRuntimeException.class);
    }

    @Test
    void clientAcknowledgeContextAcknowledgesAndRecovers() throws Exception {
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        try (JMSContext context = factory.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Topic topic = context.createTopic("ack");
            JMSConsumer consumer = context.createConsumer(topic);
            context.createProducer().send(topic, "one");
            assertThat(consumer.receiveBody(String.class, 5000)).isEqualTo("one");
            context.recover();
            Message again = consumer.receive(5000);
            assertThat(again.getJMSRedelivered()).isTrue();
            context.acknowledge();
            context.recover();
            assertThat(consumer.receiveNoWait()).isNull();
        }
    }

    @Test
    void asyncSendsCompleteInOrder() throws Exception {
        String url = InMem.newUrl();
        try (Connection c = InMem.connect(url)) {
            Session s = c.createSession();
            Topic topic = s.createTopic("async");
            var consumer = s.createConsumer(topic);
            MessageProducer p = s.createProducer(topic);
            List<String> completed = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(20);
            CompletionListener listener = new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    try {
                        completed.add(message.getBody(String.class) + "@" + (message.getJMSMessageID() != null));
                    } catch (jakarta.jms.JMSException e) {
                        completed.add("error " + e);
                    }
                    done.countDown();
                }

                @Override
                public void onException(Message message, Exception exception) {
                    completed.add("failed " + exception);
                    done.countDown();
                }
            };
            for (int i = 0; i < 20; i++) {
                p.send(s.createTextMessage("m" + i), listener);
            }
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            for (int i = 0; i < 20; i++) {
                assertThat(completed.get(i)).isEqualTo("m" + i + "@true");
                assertThat(consumer.receive(5000).getBody(String.class)).isEqualTo("m" + i);
            }
        }
    }
}
