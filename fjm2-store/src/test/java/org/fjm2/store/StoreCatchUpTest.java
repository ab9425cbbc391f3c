package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
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
import java.util.stream.LongStream;

/**
 * Stores on one group, one of them down for a while: on its return it takes from its peer what it missed, and then
 * holds every message of its topics once, in order.
 */
class StoreCatchUpTest {

    static final int BATCH = 100;

    @TempDir
    Path dir;

    private static void send(MessageProducer orders, MessageProducer prices, Session s, int from, int count)
            throws Exception {
        for (int i = from; i < from + count; i++) {
            orders.send(s.createTextMessage("order " + i));
            prices.send(s.createTextMessage("price " + i));
        }
    }

    @Test
    void aStoreThatWasDownTakesWhatItMissedFromItsPeerAndHoldsEveryMessageOnceInOrder() throws Exception {
        String group = TestGroups.url("");
        StoreSettings bSettings = StoreSettings.of(group, dir.resolve("b")).withTopics(TopicPattern.parse("orders"));
        try (Fjm2Store a = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a"))); // orders on disk at both stores before a send returns while both are up; prices at a (b keeps none)
             Connection bothStores = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=2"))
                     .createConnection();
             Connection oneStore = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                     .createConnection()) {
            Session both = bothStores.createSession();
            Session one = oneStore.createSession();
            MessageProducer ordersAtBoth = both.createProducer(both.createTopic("orders"));
            MessageProducer ordersAtOne = one.createProducer(one.createTopic("orders"));
            MessageProducer prices = one.createProducer(one.createTopic("prices"));
            try (Fjm2Store b = Fjm2Store.start(bSettings)) {
                send(ordersAtBoth, prices, both, 1, BATCH);
                assertThat(b.counters().messagesCaughtUp.sum()).isZero();
            }
            send(ordersAtOne, prices, one, 1, BATCH); // b is down: a alone keeps these
            try (Fjm2Store b = Fjm2Store.start(bSettings)) {
                assertThat(b.counters().messagesCaughtUp.sum()).as("the orders b missed").isEqualTo(BATCH);
                send(ordersAtBoth, prices, both, BATCH + 1, BATCH); // b acknowledges again: quorums of two
            }
        }
        List<StoredMessage> b = Fjm2Store.readJournal(dir.resolve("b"));
        assertThat(b).extracting(StoredMessage::topic).containsOnly("orders");
        assertThat(b).hasSize(3 * BATCH);
        long bothEpoch = b.get(0).epoch();
        assertThat(b.stream().filter(m -> m.epoch() == bothEpoch)).extracting(StoredMessage::sequence)
                .as("the quorum-of-two publisher's orders, in order, once")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, 2 * BATCH).boxed().toList());
        assertThat(b.stream().filter(m -> m.epoch() != bothEpoch)).extracting(StoredMessage::sequence)
                .as("the orders sent while b was down, once, in order")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, BATCH).boxed().toList());
        assertThat(Fjm2Store.readJournal(dir.resolve("a"))).as("both topics, three times").hasSize(6 * BATCH);
    }

    @Test
    void aDurableSubscribersAcknowledgementsMadeWhileAStoreWasDownReachItThroughTheCatchUp() throws Exception {
        String group = TestGroups.url("");
        try (StoreAndPublisher g = new StoreAndPublisher(group, dir.resolve("a"), 2)) {
            try (Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")))) {
                makeAudit(group); // both stores keep it
                g.send(1, BATCH); // on both disks: a quorum of two
            } // b is down: the subscriber takes 60 and leaves; only a hears its position
            try (Connection subscriber = durableSubscriber(group)) {
                MessageConsumer audit = audit(subscriber);
                for (int i = 1; i <= 60; i++) {
                    assertThat(audit.receive(10_000)).as("message %d", i).isNotNull();
                }
            }
            try (Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")))) {
                g.store.close(); // the subscriber's return can only be answered by b now
                try (Connection subscriber = durableSubscriber(group)) {
                    assertThat(drain(audit(subscriber))).as("from b, which was down while the subscriber "
                            + "acknowledged 60").containsExactlyElementsOf(orders(61, BATCH));
                }
            }
        }
    }

    @Test
    void aSubscriptionMadeWhileAStoreWasDownIsMadeThereByTheCatchUpFromWhereItStarted() throws Exception {
        String group = TestGroups.url("");
        try (StoreAndPublisher g = new StoreAndPublisher(group, dir.resolve("a"), 1)) {
            try (Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")))) {
                g.send(1, 50); // b journals these before it goes down
            }
            g.send(51, 100); // b is down: before the subscription, not for it
            makeAudit(group); // made at a alone
            g.send(101, 200); // for the subscription, away
            try (Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")))) {
                g.store.close(); // the subscriber's return can only be answered by b now
                try (Connection subscriber = durableSubscriber(group)) {
                    assertThat(drain(audit(subscriber))).as("from b, which was down when the subscription was made")
                            .containsExactlyElementsOf(orders(101, 200));
                }
            }
        }
    }

    @Test
    void anUnsubscribeMadeWhileAStoreWasDownRemovesTheSubscriptionThereToo() throws Exception {
        String group = TestGroups.url("");
        try (StoreAndPublisher g = new StoreAndPublisher(group, dir.resolve("a"), 1)) {
            try (Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")))) {
                makeAudit(group); // both stores keep it
            }
            g.send(1, BATCH); // pending for it at a and, after the catch-up, at b
            try (Connection subscriber = durableSubscriber(group)) {
                subscriber.createSession().unsubscribe("audit"); // b is down: only a hears it
            }
            try (Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")))) {
                g.store.close();
                try (Connection subscriber = durableSubscriber(group)) {
                    MessageConsumer audit = audit(subscriber); // a new subscription: nothing of before
                    g.send(BATCH + 1, BATCH + 10);
                    assertThat(drain(audit)).as("the new subscription at b, which was down at the unsubscribe")
                            .containsExactlyElementsOf(orders(BATCH + 1, BATCH + 10));
                }
            }
        }
    }

    /** Store a, and a publisher of orders that waits for {@code quorum} stores. */
    private static final class StoreAndPublisher implements AutoCloseable {
        final Fjm2Store store;
        final Connection publisher;
        final Session session;
        final MessageProducer orders;

        StoreAndPublisher(String group, Path data, int quorum) throws Exception {
            store = Fjm2Store.start(StoreSettings.of(group, data));
            publisher = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=" + quorum))
                    .createConnection();
            session = publisher.createSession();
            orders = session.createProducer(session.createTopic("orders"));
        }

        /** Orders {@code from}..{@code to}. */
        void send(int from, int to) throws JMSException {
            sendOrders(orders, session, from, to);
        }

        @Override
        public void close() throws Exception {
            try {
                publisher.close();
            } finally {
                store.close();
            }
        }
    }

    /** Every message until none comes for 2 s, as text. */
    private static List<String> drain(MessageConsumer consumer) throws JMSException {
        List<String> got = new ArrayList<>();
        Message m;
        while ((m = consumer.receive(2_000)) != null) {
            got.add(((TextMessage) m).getText());
        }
        return got;
    }

    private static List<String> orders(int from, int to) {
        return LongStream.rangeClosed(from, to).mapToObj(i -> "order " + i).toList();
    }

    private static void sendOrders(MessageProducer orders, Session s, int from, int to) throws JMSException {
        for (int i = from; i <= to; i++) {
            orders.send(s.createTextMessage("order " + i));
        }
    }

    private static Connection durableSubscriber(String group) throws JMSException {
        Connection c = new Fjm2ConnectionFactory(group).createConnection();
        c.setClientID("billing");
        return c;
    }

    /** Makes the durable subscription billing/audit at the stores up now, and closes its consumer. */
    private static void makeAudit(String group) throws JMSException {
        try (Connection subscriber = durableSubscriber(group)) {
            audit(subscriber).close();
        }
    }

    /** The durable subscription billing/audit on orders, its connection started. */
    private static MessageConsumer audit(Connection subscriber) throws JMSException {
        Session s = subscriber.createSession();
        MessageConsumer audit = s.createDurableConsumer(s.createTopic("orders"), "audit");
        subscriber.start();
        return audit;
    }

    /** Orders 1..{@link #BATCH}. */
    private static void sendOrders(MessageProducer orders, Session s) throws JMSException {
        sendOrders(orders, s, 1, BATCH);
    }

    @Test
    void aStoreAnswersOneCatchUpPerSecondAndTheNextStoreTakesAnotherPeersAnswer() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store a = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                     .createConnection()) {
            Session s = c.createSession();
            MessageProducer orders = s.createProducer(s.createTopic("orders"));
            sendOrders(orders, s);
            try (Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")));
                 Fjm2Store late = Fjm2Store.start(StoreSettings.of(group, dir.resolve("c")))) {
                assertThat(b.counters().messagesCaughtUp.sum()).as("b from a").isEqualTo(BATCH);
                assertThat(a.counters().catchUpRequestsRefused.sum()).as("c's request, within a second of b's")
                        .isEqualTo(1);
                assertThat(late.counters().messagesCaughtUp.sum()).as("c from b").isEqualTo(BATCH);
            }
        }
        assertThat(Fjm2Store.readJournal(dir.resolve("c"))).extracting(StoredMessage::sequence)
                .containsExactlyElementsOf(LongStream.rangeClosed(1, BATCH).boxed().toList());
    }

    @Test
    void aStoreAloneWaitsItsCatchUpTimeAndThenAcknowledges() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store alone = Fjm2Store.start(StoreSettings.of(group, dir.resolve("alone"))
                     .withCatchUpWait(java.time.Duration.ofMillis(200)));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                     .createConnection()) {
            Session s = c.createSession();
            s.createProducer(s.createTopic("orders")).send(s.createTextMessage("one"));
            assertThat(alone.counters().messagesStored.sum()).isEqualTo(1);
            assertThat(alone.counters().messagesCaughtUp.sum()).isZero();
        }
    }
}
