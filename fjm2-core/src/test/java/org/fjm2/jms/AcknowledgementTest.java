package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Transactions, CLIENT_ACKNOWLEDGE, recover, and redelivery marks. */
class AcknowledgementTest {

    @Test
    void transactedSendsAreHeldUntilCommitAndDiscardedOnRollback() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session tx = pub.createSession(true, Session.SESSION_TRANSACTED);
            assertThat(tx.getTransacted()).isTrue();
            assertThat(tx.getAcknowledgeMode()).isEqualTo(Session.SESSION_TRANSACTED);
            Topic topic = tx.createTopic("tx");
            MessageConsumer consumer = sub.createSession().createConsumer(topic);
            List<Exception> problems = new CopyOnWriteArrayList<>();
            sub.setExceptionListener(problems::add);
            MessageProducer p = tx.createProducer(topic);
            TextMessage first = tx.createTextMessage("a");
            p.send(first);
            assertThat(first.getJMSMessageID()).as("id set at send").startsWith("ID:");
            p.send(tx.createTextMessage("b"));
            assertThat(consumer.receive(300)).as("nothing before commit").isNull();
            tx.commit();
            TextMessage ra = (TextMessage) consumer.receive(5000);
            assertThat(ra.getText()).isEqualTo("a");
            assertThat(ra.getJMSMessageID()).isEqualTo(first.getJMSMessageID());
            assertThat(((TextMessage) consumer.receive(5000)).getText()).isEqualTo("b");
            p.send(tx.createTextMessage("rolled back"));
            tx.rollback();
            p.send(tx.createTextMessage("c"));
            tx.commit();
            assertThat(((TextMessage) consumer.receive(5000)).getText()).isEqualTo("c");
            assertThat(consumer.receive(200)).isNull();
            assertThat(problems).as("a rollback leaves no sequence gap").isEmpty();
            assertThat(((Fjm2Connection) sub).counters().messagesLost.sum()).isZero();
        }
    }

    @Test
    void rollbackRedeliversReceivedMessagesWithDeliveryCount() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("tx-receive");
            Session tx = sub.createSession(true, Session.SESSION_TRANSACTED);
            MessageConsumer consumer = tx.createConsumer(topic);
            MessageProducer p = ps.createProducer(topic);
            for (int i = 0; i < 3; i++) {
                p.send(ps.createTextMessage("m" + i));
            }
            assertThat(texts(consumer, 2)).containsExactly("m0", "m1");
            tx.rollback();
            List<Message> again = receive(consumer, 3);
            assertThat(again).extracting(m -> ((TextMessage) m).getText()).containsExactly("m0", "m1", "m2");
            assertThat(again.get(0).getJMSRedelivered()).isTrue();
            assertThat(again.get(0).getIntProperty("JMSXDeliveryCount")).isEqualTo(2);
            assertThat(again.get(2).getJMSRedelivered()).isFalse();
            assertThat(again.get(2).getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
            tx.rollback();
            Message third = consumer.receive(5000);
            assertThat(third.getIntProperty("JMSXDeliveryCount")).isEqualTo(3);
            receive(consumer, 2);
            tx.commit();
            tx.rollback();
            assertThat(consumer.receive(200)).as("committed messages are not redelivered").isNull();
            assertThatThrownBy(tx::recover).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void clientAcknowledgeAndRecover() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("client-ack");
            Session cs = sub.createSession(false, Session.CLIENT_ACKNOWLEDGE);
            MessageConsumer consumer = cs.createConsumer(topic);
            MessageProducer p = ps.createProducer(topic);
            for (int i = 0; i < 4; i++) {
                p.send(ps.createTextMessage("m" + i));
            }
            List<Message> firstTwo = receive(consumer, 2);
            firstTwo.get(1).acknowledge(); // acknowledges m0 and m1
            assertThat(texts(consumer, 1)).containsExactly("m2");
            cs.recover();
            List<Message> redelivered = receive(consumer, 2);
            assertThat(redelivered).extracting(m -> ((TextMessage) m).getText()).containsExactly("m2", "m3");
            assertThat(redelivered.get(0).getJMSRedelivered()).isTrue();
            assertThat(redelivered.get(1).getJMSRedelivered()).isFalse();
            redelivered.get(0).acknowledge();
            cs.recover();
            assertThat(consumer.receive(200)).isNull();
            assertThatThrownBy(cs::commit).isInstanceOf(IllegalStateException.class);
            cs.close();
            assertThatThrownBy(() -> redelivered.get(0).acknowledge()).isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void autoAcknowledgeRedeliversWhenAListenerThrows() throws Exception {
        String url = InMem.newUrl();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("auto");
            List<String> seen = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(1);
            sub.createSession().createConsumer(topic).setMessageListener(m -> {
                try {
                    seen.add(((TextMessage) m).getText() + ":" + m.getJMSRedelivered() + ":"
                            + m.getIntProperty("JMSXDeliveryCount"));
                    if (!m.getJMSRedelivered()) {
                        throw new IllegalArgumentException("first attempt fails (test)");
                    }
                } catch (jakarta.jms.JMSException e) {
                    throw new RuntimeException(e);
                }
                done.countDown();
            });
            ps.createProducer(topic).send(ps.createTextMessage("x"));
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(seen).containsExactly("x:false:1", "x:true:2");
        }
    }

    private static List<Message> receive(MessageConsumer c, int n) throws Exception {
        List<Message> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Message m = c.receive(5000);
            assertThat(m).as("message %d of %d", i, n).isNotNull();
            out.add(m);
        }
        return out;
    }

    private static List<String> texts(MessageConsumer c, int n) throws Exception {
        List<String> out = new ArrayList<>();
        for (Message m : receive(c, n)) {
            out.add(((TextMessage) m).getText());
        }
        return out;
    }
}
