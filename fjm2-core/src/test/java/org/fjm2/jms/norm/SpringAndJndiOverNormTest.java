package org.fjm2.jms.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.JMSException;
import jakarta.jms.MessageListener;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import javax.naming.Context;
import javax.naming.InitialContext;

import org.fjm2.jms.jndi.Fjm2InitialContextFactory;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;
import org.springframework.jms.connection.CachingConnectionFactory;
import org.springframework.jms.connection.JmsTransactionManager;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What an application written for a broker does, over real NORM on loopback multicast (issue 20): its
 * jndi.properties (queues included) gives the factory and the topic, Spring's JmsTemplate publishes through a
 * CachingConnectionFactory in local transactions, and a transacted DefaultMessageListenerContainer on its own
 * connection (its own NORM node) consumes with a selector.
 */
class SpringAndJndiOverNormTest {

    @Test
    void springPublishesAndConsumesThroughJndiOverNorm() throws Exception {
        Properties env = new Properties();
        env.put(Context.INITIAL_CONTEXT_FACTORY, Fjm2InitialContextFactory.class.getName());
        env.put("connectionFactory.ConnectionFactory", NormUrls.of(NormUrls.fresh(), ""));
        env.put("topic.prices", "market.prices");
        env.put("queue.orders", "shop.orders");
        Context jndi = new InitialContext(env);
        ConnectionFactory factory = (ConnectionFactory) jndi.lookup("ConnectionFactory");
        Topic prices = (Topic) jndi.lookup("prices");

        List<String> received = new CopyOnWriteArrayList<>();
        CountDownLatch latch = new CountDownLatch(3);
        DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.setDestination(prices);
        container.setMessageSelector("kind = 'wanted'");
        container.setReceiveTimeout(100);
        container.setSessionTransacted(true);
        container.setMessageListener((MessageListener) m -> {
            try {
                received.add(((TextMessage) m).getText());
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
            latch.countDown();
        });
        container.afterPropertiesSet();
        container.start();
        CachingConnectionFactory publishing = new CachingConnectionFactory(factory);
        try {
            assertThat(Await.until(container::isRegisteredWithDestination, 10, TimeUnit.SECONDS)).isTrue();
            JmsTemplate template = new JmsTemplate(publishing);
            template.setPubSubDomain(true);
            template.setSessionTransacted(true);
            TransactionTemplate tx = new TransactionTemplate(new JmsTransactionManager(publishing));
            tx.executeWithoutResult(status -> {
                send(template, prices, "rolled back", "wanted");
                status.setRollbackOnly();
            });
            for (int i = 0; i < 3; i++) {
                int n = i;
                tx.executeWithoutResult(status -> {
                    send(template, prices, "hello " + n, "wanted");
                    send(template, prices, "ignored", "other");
                });
            }
            assertThat(latch.await(30, TimeUnit.SECONDS)).as("received %s", received).isTrue();
            assertThat(received).containsExactly("hello 0", "hello 1", "hello 2");
        } finally {
            container.stop();
            container.shutdown();
            publishing.destroy();
        }
    }

    private static void send(JmsTemplate template, Topic topic, String text, String kind) {
        template.send(topic, s -> {
            TextMessage m = s.createTextMessage(text);
            m.setStringProperty("kind", kind);
            return m;
        });
    }
}
