package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.testkit.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Two stores in processes of their own, taking turns at being killed with -9 at seeded random points while a
 * publisher (storeQuorum=1) keeps sending: the other store acknowledges meanwhile, and the killed one, restarted on
 * its data directory, catches up from it. At the end each journal holds every acknowledged send, each once — so
 * every message survives the later loss of either store's disk, though only one store acknowledged it.
 */
class StoreCatchUpCrashTest {

    static final int ROUNDS = 4;
    static final long SEED = Long.getLong("fjm2.test.seed", 1717);

    @TempDir
    Path dir;

    @Test
    void storesKilledInTurnEachEndWithEveryAcknowledgedMessage() throws Exception {
        Random random = new Random(SEED);
        System.out.println("StoreCatchUpCrashTest seed " + SEED + " (rerun with -Dfjm2.test.seed=N)");
        String group = TestGroups.url("");
        Path[] data = {dir.resolve("a"), dir.resolve("b")};
        ChildJvm[] stores = {start(group, data[0]), start(group, data[1])};
        Set<Long> acknowledged = new ConcurrentSkipListSet<>();
        AtomicLong sent = new AtomicLong();
        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicReference<Throwable> publisherFailure = new AtomicReference<>();
        try (Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=1"))
                .createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("crash"));
            Thread publisher = new Thread(() -> {
                try {
                    while (sending.get()) {
                        long sequence = sent.incrementAndGet();
                        p.send(s.createTextMessage("message " + sequence));
                        acknowledged.add(sequence);
                    }
                } catch (JMSException | RuntimeException e) {
                    publisherFailure.set(e);
                }
            }, "publisher");
            publisher.start();
            try {
                for (int round = 0; round < ROUNDS; round++) {
                    int victim = round % 2;
                    long before = random.nextInt(600) + 200;
                    long down = random.nextInt(600) + 200;
                    Thread.sleep(before);
                    assertThat(stores[victim].kill(10)).as("store %d killed", victim).isTrue();
                    long killedAt = sent.get();
                    Thread.sleep(down);
                    stores[victim] = start(group, data[victim]);
                    System.out.printf("round %d: store %s killed at send %d after %d ms, back after %d ms (send %d)%n",
                            round, data[victim].getFileName(), killedAt, before, down, sent.get());
                    assertThat(publisherFailure.get()).as("the publisher, while one store is up").isNull();
                }
                Thread.sleep(300);
            } finally {
                sending.set(false);
                publisher.join(30_000);
            }
            assertThat(publisherFailure.get()).as("the publisher").isNull();
            // A last quorum of both: once it returns, each store has everything it appended before it.
            try (Connection both = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "storeQuorum=2"))
                    .createConnection()) {
                Session bs = both.createSession();
                bs.createProducer(bs.createTopic("crash")).send(bs.createTextMessage("barrier"));
            }
        } finally {
            for (ChildJvm store : stores) {
                store.kill(10);
            }
        }
        System.out.printf("%d sends acknowledged (of %d)%n", acknowledged.size(), sent.get());
        assertThat(acknowledged.size()).as("sends acknowledged").isGreaterThan(ROUNDS * 10);
        for (Path store : data) {
            List<StoredMessage> journal = Fjm2Store.readJournal(store);
            List<StoredMessage> mine = journal.stream().filter(m -> m.producerId() == journal.get(0).producerId()
                    && m.epoch() == journal.get(0).epoch()).toList();
            List<Long> sequences = mine.stream().map(StoredMessage::sequence).toList();
            assertThat(sequences).as("store %s: each message once", store.getFileName()).doesNotHaveDuplicates();
            assertThat(new TreeSet<>(sequences)).as("store %s holds every acknowledged send", store.getFileName())
                    .containsAll(acknowledged);
            assertThat(sequences).as("store %s: nothing but what was sent", store.getFileName())
                    .allSatisfy(n -> assertThat(n).isBetween(1L, sent.get()));
        }
    }

    private static ChildJvm start(String group, Path data) throws Exception {
        ChildJvm store = new ChildJvm("256m", StoreProcess.class, group, data.toString());
        String ready = store.awaitLine("READY", 30);
        assertThat(ready).as("store output:%n%s", store.output()).startsWith("READY");
        return store;
    }
}
