package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * storeQuorum=N end to end over NORM on loopback (run in a network namespace with only lo): stores in this JVM, a
 * publisher whose PERSISTENT sends return only once N stores report them on disk.
 */
class StoreQuorumTest {

    static final int MESSAGES = 300;

    @TempDir
    Path dir;

    @Test
    void everyPersistentSendReturnsOnlyOnceTheStoreHasItOnDisk() throws Exception {
        String group = TestGroups.url("");
        List<StoredMessage> stored;
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                     .createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("orders"));
            for (int i = 1; i <= MESSAGES; i++) {
                TextMessage m = s.createTextMessage("order " + i);
                m.setIntProperty("seq", i);
                p.send(m);
                // The acknowledgement follows the fsync: the store counted it before the send could return.
                assertThat(store.counters().messagesStored.sum()).as("stored when send %d returned", i)
                        .isGreaterThanOrEqualTo(i);
            }
        }
        stored = Fjm2Store.readJournal(dir.resolve("a"));
        assertThat(stored).hasSize(MESSAGES);
        for (int i = 0; i < MESSAGES; i++) {
            assertThat(stored.get(i).sequence()).isEqualTo(i + 1);
            assertThat(stored.get(i).topic()).isEqualTo("orders");
            assertThat(stored.get(i).persistent()).isTrue();
        }
    }

    @Test
    void withoutAStoreAPersistentSendFailsAfterSendTimeoutSayingSo() throws Exception {
        String url = TestGroups.url("storeQuorum=1&sendTimeoutMillis=800");
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("orders"));
            long start = System.nanoTime();
            assertThatThrownBy(() -> p.send(s.createTextMessage("lost?")))
                    .isInstanceOf(JMSException.class)
                    .hasMessageContaining("storeQuorum=1")
                    .hasMessageContaining("acknowledged by 0")
                    .hasMessageContaining("stores heard on the group: none");
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(700L, 10_000L);
        }
    }

    @Test
    void aQuorumOfTwoWithOneStoreNamesTheStoreThatAnswered() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("only"))
                .withName("store-only"));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group,
                     "storeQuorum=2&sendTimeoutMillis=1500")).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("orders"));
            assertThatThrownBy(() -> p.send(s.createTextMessage("twice?")))
                    .hasMessageContaining("storeQuorum=2")
                    .hasMessageContaining("acknowledged by 1 store-only (node "
                            + Integer.toUnsignedString(store.nodeId()) + ")");
        }
    }

    @Test
    void twoStoresMakeAQuorumOfTwo() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store a = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Fjm2Store b = Fjm2Store.start(StoreSettings.of(group, dir.resolve("b")));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=2"))
                     .createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("orders"));
            for (int i = 1; i <= 50; i++) {
                p.send(s.createTextMessage("order " + i));
                assertThat(Math.min(a.counters().messagesStored.sum(), b.counters().messagesStored.sum()))
                        .isGreaterThanOrEqualTo(i);
            }
        }
        assertThat(Fjm2Store.readJournal(dir.resolve("a"))).hasSize(50);
        assertThat(Fjm2Store.readJournal(dir.resolve("b"))).hasSize(50);
    }

    @Test
    void nonPersistentSendsNeverWait() throws Exception {
        String url = TestGroups.url("storeQuorum=1&sendTimeoutMillis=20000");
        try (Connection c = new Fjm2ConnectionFactory(url).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("quotes"));
            p.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
            long start = System.nanoTime();
            for (int i = 0; i < 100; i++) {
                p.send(s.createTextMessage("quote " + i));
            }
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000L);
        }
    }

    @Test
    void anAsynchronousSendCompletesOnceTheStoreHasIt() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                     .createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("orders"));
            CountDownLatch completed = new CountDownLatch(1);
            AtomicLong storedAtCompletion = new AtomicLong(-1);
            AtomicReference<Exception> failure = new AtomicReference<>();
            p.send(s.createTextMessage("async"), new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    storedAtCompletion.set(store.counters().messagesStored.sum());
                    completed.countDown();
                }

                @Override
                public void onException(Message message, Exception exception) {
                    failure.set(exception);
                    completed.countDown();
                }
            });
            assertThat(completed.await(20, TimeUnit.SECONDS)).isTrue();
            assertThat(failure.get()).isNull();
            assertThat(storedAtCompletion.get()).isEqualTo(1);
        }
    }

    @Test
    void aCommitReturnsOnceTheStoreHasTheTransaction() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                     .createConnection()) {
            Session s = c.createSession(Session.SESSION_TRANSACTED);
            MessageProducer p = s.createProducer(s.createTopic("orders"));
            for (int i = 0; i < 20; i++) {
                p.send(s.createTextMessage("line " + i));
            }
            s.commit();
            assertThat(store.counters().messagesStored.sum()).isEqualTo(20);
        }
    }

    @Test
    void aStoreAcknowledgesOnlyTheTopicsItKeeps() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a"))
                .withTopics(TopicPattern.parse("kept.*")));
             Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group,
                     "storeQuorum=1&sendTimeoutMillis=1000")).createConnection()) {
            Session s = c.createSession();
            MessageProducer anonymous = s.createProducer(null);
            anonymous.send(s.createTopic("kept.one"), s.createTextMessage("kept"));
            assertThatThrownBy(() -> anonymous.send(s.createTopic("other"), s.createTextMessage("not kept")))
                    .hasMessageContaining("acknowledged by 0");
            // The same producer stream goes on: the run the store acknowledges starts after the message it skipped.
            anonymous.send(s.createTopic("kept.two"), s.createTextMessage("kept again"));
        }
        assertThat(Fjm2Store.readJournal(dir.resolve("a"))).extracting(StoredMessage::topic)
                .containsExactly("kept.one", "kept.two");
    }
}
