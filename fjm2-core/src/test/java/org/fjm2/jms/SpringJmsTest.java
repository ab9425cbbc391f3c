package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import jakarta.jms.ConnectionFactory;
import jakarta.jms.Message;
import jakarta.jms.TextMessage;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;
import org.springframework.jms.connection.JmsTransactionManager;
import org.springframework.jms.core.JmsTemplate;
import org.springframework.jms.listener.DefaultMessageListenerContainer;
import org.springframework.transaction.support.TransactionTemplate;

/** Spring JMS, unchanged, over FJM2: JmsTemplate, DefaultMessageListenerContainer, transactions. */
class SpringJmsTest {

    @Test
    void jmsTemplateAndTransactedListenerContainerWorkOnTopics() throws Exception {
        ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        List<String> received = new CopyOnWriteArrayList<>();
        CountDownLatch latch = new CountDownLatch(3);
        DefaultMessageListenerContainer container = new DefaultMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.setPubSubDomain(true);
        container.setDestinationName("spring.topic");
        container.setMessageSelector("kind = 'wanted'");
        container.setReceiveTimeout(100);
        container.setSessionTransacted(true); // consume in local transactions, committed after each message
        container.setMessageListener((jakarta.jms.MessageListener) m -> {
            try {
                received.add(((TextMessage) m).getText());
            } catch (jakarta.jms.JMSException e) {
                throw new RuntimeException(e);
            }
            latch.countDown();
        });
        container.afterPropertiesSet();
        container.start();
        try {
            assertThat(Await.until(container::isRegisteredWithDestination, 10, TimeUnit.SECONDS)).isTrue();
            JmsTemplate template = new JmsTemplate(factory);
            template.setPubSubDomain(true);
            for (int i = 0; i < 3; i++) {
                int n = i;
                template.send("spring.topic", s -> {
                    TextMessage m = s.createTextMessage("hello " + n);
                    m.setStringProperty("kind", "wanted");
                    return m;
                });
                template.send("spring.topic", s -> {
                    TextMessage m = s.createTextMessage("ignored");
                    m.setStringProperty("kind", "other");
                    return m;
                });
            }
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(received).containsExactly("hello 0", "hello 1", "hello 2");
        } finally {
            container.stop();
            container.shutdown();
        }
    }

    @Test
    void transactedSessionsPublishAndConsumeThroughSpring() throws Exception {
        ConnectionFactory factory = new Fjm2ConnectionFactory(InMem.newUrl());
        JmsTemplate receiver = new JmsTemplate(factory);
        receiver.setPubSubDomain(true);
        receiver.setReceiveTimeout(5000);
        JmsTemplate sender = new JmsTemplate(factory);
        sender.setPubSubDomain(true);
        sender.setSessionTransacted(true);
        JmsTransactionManager txManager = new JmsTransactionManager(factory);
        TransactionTemplate tx = new TransactionTemplate(txManager);

        // A consumer must exist before publishing (non-durable subscription): receive on another thread.
        CountDownLatch got = new CountDownLatch(1);
        List<Object> result = new CopyOnWriteArrayList<>();
        Thread t = new Thread(() -> {
            Message m = receiver.receive("spring.tx");
            result.add(m == null ? "timeout" : m);
            got.countDown();
        });
        t.start();
        assertThat(Await.blocked(t)).isTrue();
        // The rolled-back send never leaves; the committed one does.
        try {
            tx.executeWithoutResult(status -> {
                sender.convertAndSend("spring.tx", "rolled back");
                status.setRollbackOnly();
            });
            tx.executeWithoutResult(status -> sender.convertAndSend("spring.tx", "committed"));
        } finally {
            assertThat(got.await(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(result).hasSize(1);
        assertThat(((TextMessage) result.get(0)).getText()).isEqualTo("committed");
    }
}
