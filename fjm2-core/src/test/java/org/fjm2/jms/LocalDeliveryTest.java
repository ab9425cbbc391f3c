package org.fjm2.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TemporaryTopic;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Delivery to consumers of the sending connection ({@link LocalDelivery}): the message they get is the one a remote
 * receiver decodes, sends of every priority may run at once, and no decoder is made per message.
 */
class LocalDeliveryTest {

    @Test
    void aLocalConsumerGetsWhatARemoteReceiverGetsAsItsOwnReadOnlyCopy() throws Exception {
        String url = InMem.newUrl();
        try (Connection local = InMem.connect(url); Connection remote = InMem.connect(url)) {
            Session s = local.createSession();
            Topic topic = s.createTopic("copy");
            TemporaryTopic replies = s.createTemporaryTopic();
            MessageConsumer here = s.createConsumer(topic);
            MessageConsumer there = remote.createSession().createConsumer(topic);
            TextMessage sent = s.createTextMessage("hello");
            sent.setStringProperty("region", "EU");
            sent.setIntProperty("seq", 7);
            sent.setJMSCorrelationID("c-1");
            sent.setJMSType("greeting");
            sent.setJMSReplyTo(replies);
            s.createProducer(topic).send(sent, DeliveryMode.NON_PERSISTENT, 6, 60_000);
            sent.setText("changed after send");

            TextMessage got = (TextMessage) here.receive(5_000);
            TextMessage wire = (TextMessage) there.receive(5_000);
            assertThat(got).isNotSameAs(sent);
            assertThat(got.getText()).isEqualTo("hello").isEqualTo(wire.getText());
            assertThat(got.getJMSMessageID()).isEqualTo(sent.getJMSMessageID()).isEqualTo(wire.getJMSMessageID());
            assertThat(got.getJMSTimestamp()).isEqualTo(sent.getJMSTimestamp()).isEqualTo(wire.getJMSTimestamp());
            assertThat(got.getJMSExpiration()).isEqualTo(wire.getJMSExpiration()).isPositive();
            assertThat(got.getJMSPriority()).isEqualTo(6).isEqualTo(wire.getJMSPriority());
            assertThat(got.getJMSDeliveryMode()).isEqualTo(DeliveryMode.NON_PERSISTENT);
            assertThat(got.getJMSDestination()).isEqualTo(topic);
            assertThat(got.getJMSCorrelationID()).isEqualTo("c-1");
            assertThat(got.getJMSType()).isEqualTo("greeting");
            assertThat(got.getJMSReplyTo()).as("our own temporary topic, as created").isSameAs(replies);
            assertThat(got.getStringProperty("region")).isEqualTo("EU");
            assertThat(got.getIntProperty("seq")).isEqualTo(7);
            assertThat(got.getIntProperty("JMSXDeliveryCount")).isEqualTo(1);
            assertThat(got.getJMSRedelivered()).isFalse();
            assertThatThrownBy(() -> got.setText("x")).isInstanceOf(MessageNotWriteableException.class);
            assertThatThrownBy(() -> got.setIntProperty("seq", 8)).isInstanceOf(MessageNotWriteableException.class);
        }
    }

    @Test
    void sendsOfEveryPriorityAtOnceAreDeliveredLocallyInOrder() throws Exception {
        int perPriority = 2_000;
        try (Connection connection = InMem.connect(InMem.newUrl())) {
            Session receiving = connection.createSession();
            Topic topic = receiving.createTopic("lanes");
            MessageConsumer consumer = receiving.createConsumer(topic);
            ExecutorService senders = Executors.newFixedThreadPool(10);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int p = 0; p < 10; p++) {
                    int priority = p;
                    done.add(senders.submit(() -> {
                        Session s = connection.createSession();
                        MessageProducer producer = s.createProducer(topic);
                        producer.setPriority(priority);
                        for (int i = 0; i < perPriority; i++) {
                            TextMessage m = s.createTextMessage(priority + ":" + i);
                            m.setIntProperty("n", i);
                            producer.send(m);
                        }
                        return null;
                    }));
                }
                Map<Integer, Integer> next = new HashMap<>();
                for (int received = 0; received < 10 * perPriority; received++) {
                    TextMessage m = (TextMessage) consumer.receive(10_000);
                    assertThat(m).as("message %d of %d", received, 10 * perPriority).isNotNull();
                    int priority = m.getJMSPriority();
                    int n = m.getIntProperty("n");
                    assertThat(m.getText()).isEqualTo(priority + ":" + n);
                    assertThat(n).as("order of priority %d", priority).isEqualTo(next.getOrDefault(priority, 0));
                    next.put(priority, n + 1);
                }
                for (Future<?> f : done) {
                    f.get();
                }
            } finally {
                senders.shutdownNow();
            }
        }
    }

    /**
     * A decoder per message cost about 2.5 KB (its property-name cache alone is two tables of 256 references); a
     * reused one leaves the message itself, under 300 bytes for 100 bytes of body.
     */
    @Test
    void localDeliveryAllocatesLittleMoreThanTheMessageItself() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeThat(threads.isThreadAllocatedMemorySupported()).as("per-thread allocation counter").isTrue();
        threads.setThreadAllocatedMemoryEnabled(true);
        try (Connection connection = new Fjm2ConnectionFactory(InMem.newUrl("jmx=false")).createConnection()) {
            Session s = connection.createSession();
            MessageConsumer consumer = s.createConsumer(s.createTopic("local"));
            connection.start();
            MessageProducer toLocal = s.createProducer(s.createTopic("local"));
            MessageProducer toNobody = s.createProducer(s.createTopic("nobody"));
            BytesMessage m = s.createBytesMessage();
            m.writeBytes(new byte[100]);
            int n = 5_000;
            for (int round = 0; round < 10; round++) {
                allocatedBySends(threads, toNobody, m, n, consumer);
                allocatedBySends(threads, toLocal, m, n, consumer);
            }
            long perLocalDelivery = (allocatedBySends(threads, toLocal, m, n, consumer)
                    - allocatedBySends(threads, toNobody, m, n, consumer)) / n;
            assertThat(perLocalDelivery).as("bytes allocated per local delivery").isLessThan(1024);
        }
    }

    private static long allocatedBySends(com.sun.management.ThreadMXBean threads, MessageProducer producer,
                                         BytesMessage message, int count, MessageConsumer consumer) throws Exception {
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < count; i++) {
            producer.send(message, DeliveryMode.NON_PERSISTENT, 4, 0);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        while (consumer.receiveNoWait() != null) {
            // empty the queue for the next round
        }
        return allocated;
    }
}
