package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * lateJoin=N over NORM with a store in this JVM: a new consumer first gets the last N PERSISTENT messages the store
 * keeps, then live ones, with no gap and no duplicate at the switch, also while the publisher keeps sending.
 */
class LateJoinTest {

    @TempDir
    Path dir;

    /** The int property seq of the messages received until {@code timeoutMillis} of silence or {@code max}. */
    static List<Integer> receive(MessageConsumer consumer, int max, long timeoutMillis) throws JMSException {
        List<Integer> seqs = new ArrayList<>();
        Message m;
        while (seqs.size() < max && (m = consumer.receive(timeoutMillis)) != null) {
            seqs.add(m.getIntProperty("seq"));
        }
        return seqs;
    }

    static void send(Session s, MessageProducer p, int seq) throws JMSException {
        TextMessage m = s.createTextMessage("message " + seq);
        m.setIntProperty("seq", seq);
        p.send(m);
    }

    static List<Integer> range(int from, int to) {
        List<Integer> r = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            r.add(i);
        }
        return r;
    }

    @Test
    void aLateConsumerGetsTheLastNStoredMessagesThenLiveOnes() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                     .createConnection();
             Connection late = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "lateJoin=10"))
                     .createConnection()) {
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("news"));
            for (int i = 1; i <= 50; i++) {
                send(ps, p, i);
                if (i == 45) {
                    // Not stored, so never replayed (sent well before the join: it is not live for the consumer).
                    p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
                    send(ps, p, 1000);
                    p.setDeliveryMode(DeliveryMode.PERSISTENT);
                }
            }
            Session ls = late.createSession();
            MessageConsumer all = ls.createConsumer(ls.createTopic("news"));
            MessageConsumer selected = ls.createConsumer(ls.createTopic("news"), "seq > 45");
            MessageConsumer otherTopic = ls.createConsumer(ls.createTopic("sport"));
            late.start();
            for (int i = 51; i <= 55; i++) {
                send(ps, p, i);
            }
            assertThat(receive(all, 15, 5000)).isEqualTo(range(41, 55));
            assertThat(receive(selected, 10, 3000)).isEqualTo(range(46, 55));
            assertThat(otherTopic.receiveNoWait()).isNull();
        }
    }

    @Test
    void theSwitchToLiveHasNoGapAndNoDuplicateWhileThePublisherKeepsSending() throws Exception {
        String group = TestGroups.url("");
        int total = 3000;
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = new Fjm2ConnectionFactory(group).createConnection();
             Connection late = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "lateJoin=200"))
                     .createConnection()) {
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("ticks"));
            AtomicInteger sent = new AtomicInteger();
            AtomicBoolean failed = new AtomicBoolean();
            Thread sender = new Thread(() -> {
                try {
                    for (int i = 1; i <= total; i++) {
                        send(ps, p, i);
                        sent.set(i);
                        if (i % 10 == 0) {
                            Thread.sleep(1); // about 5,000 messages a second: the join falls mid-stream
                        }
                    }
                } catch (Exception e) {
                    failed.set(true);
                }
            }, "publisher");
            sender.start();
            while (sent.get() < 500 && sender.isAlive()) {
                Thread.onSpinWait();
            }
            int sentAtJoin = sent.get();
            Session ls = late.createSession();
            MessageConsumer consumer = ls.createConsumer(ls.createTopic("ticks"));
            late.start();
            sender.join(60_000);
            assertThat(failed).isFalse();
            List<Integer> got = receive(consumer, total, 5000);
            System.out.printf("joined after %d sends: received %d..%d (%d messages)%n", sentAtJoin,
                    got.isEmpty() ? -1 : got.get(0), got.isEmpty() ? -1 : got.get(got.size() - 1), got.size());
            assertThat(got).as("consecutive from the first replayed to the last sent").isEqualTo(
                    range(got.get(0), total));
            assertThat(got.get(0)).as("the replay reaches back before the join").isLessThanOrEqualTo(sentAtJoin);
        }
    }

    @Test
    void withoutAStoreTheConsumerStartsWithLiveMessagesAfterTheReplyTimeout() throws Exception {
        String group = TestGroups.url("");
        try (Connection publisher = new Fjm2ConnectionFactory(group).createConnection();
             Connection late = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "lateJoin=5"))
                     .createConnection()) {
            Session ls = late.createSession();
            MessageConsumer consumer = ls.createConsumer(ls.createTopic("news"));
            late.start();
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("news"));
            long start = System.nanoTime();
            for (int i = 1; i <= 5; i++) {
                send(ps, p, i);
            }
            assertThat(receive(consumer, 5, 10_000)).isEqualTo(range(1, 5));
            // Held until the stores had their chance to answer (2 s), then delivered in order.
            assertThat((System.nanoTime() - start) / 1_000_000).isGreaterThanOrEqualTo(1500);
        }
    }
}
