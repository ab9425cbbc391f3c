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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 17: a store killed with -9 and restarted on the same data directory has lost nothing it acknowledged. One
 * publisher (storeQuorum=1) sends PERSISTENT messages through several store lifetimes; in each, a killer thread
 * kills the store process at a seeded random point while sends are in flight. After the last kill, the journal must
 * hold every message whose send returned, once, in sequence order (the producer's numbers: send k is sequence k).
 * Sends that failed may or may not be there (the kill can fall between fsync and acknowledgement).
 */
class StoreCrashTest {

    static final int ROUNDS = 3;
    static final long SEED = Long.getLong("fjm2.test.seed", 17);
    /** Short, so that the send in flight at the kill fails quickly. */
    static final int SEND_TIMEOUT_MILLIS = 2_000;

    @TempDir
    Path dir;

    @Test
    void aStoreKilledWithMinus9KeepsEverythingItAcknowledged() throws Exception {
        Random random = new Random(SEED);
        System.out.println("StoreCrashTest seed " + SEED + " (rerun with -Dfjm2.test.seed=N)");
        String group = TestGroups.url("");
        Path data = dir.resolve("store");
        TreeSet<Long> acknowledged = new TreeSet<>();
        List<Long> failed = new ArrayList<>();
        long sequence = 0;
        try (Connection c = new Fjm2ConnectionFactory(TestGroups.sameGroup(group,
                "storeQuorum=1&sendTimeoutMillis=" + SEND_TIMEOUT_MILLIS)).createConnection()) {
            Session s = c.createSession();
            MessageProducer p = s.createProducer(s.createTopic("crash"));
            for (int round = 0; round < ROUNDS; round++) {
                int killAfter = 100 + random.nextInt(400);
                try (ChildJvm store = new ChildJvm("256m", StoreProcess.class, group, data.toString())) {
                    String ready = store.awaitLine("READY", 30);
                    assertThat(ready).as("store output:%n%s", store.output()).startsWith("READY");
                    System.out.println("round " + round + ": " + ready + ", kill -9 after " + killAfter
                            + " more acknowledged sends");
                    AtomicLong acknowledgedThisRound = new AtomicLong();
                    CountDownLatch due = new CountDownLatch(1);
                    Thread killer = new Thread(() -> {
                        try {
                            due.await();
                            store.kill(10);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }, "store-killer");
                    killer.start();
                    // Send until a send fails: the store is dead (the killer fires while sends are in flight).
                    while (true) {
                        sequence++;
                        try {
                            p.send(s.createTextMessage("message " + sequence));
                        } catch (JMSException e) {
                            assertThat(e.getMessage()).contains("storeQuorum=1");
                            failed.add(sequence);
                            break;
                        }
                        acknowledged.add(sequence);
                        if (acknowledgedThisRound.incrementAndGet() == killAfter) {
                            due.countDown();
                        }
                        assertThat(acknowledgedThisRound.get()).as("sends acknowledged after the kill")
                                .isLessThan(killAfter + 10_000);
                    }
                    killer.join(20_000);
                    assertThat(store.awaitExit(10)).as("the store was killed").isNotZero();
                }
            }
        }
        List<StoredMessage> stored = Fjm2Store.readJournal(data);
        List<Long> sequences = stored.stream().map(StoredMessage::sequence).toList();
        System.out.printf("%d sends acknowledged, %d failed at a kill, %d in the journal%n", acknowledged.size(),
                failed.size(), stored.size());
        assertThat(sequences).as("journal order is send order, each message once").isSorted().doesNotHaveDuplicates();
        assertThat(new TreeSet<>(sequences)).as("every acknowledged send is in the journal")
                .containsAll(acknowledged);
        assertThat(stored.size()).as("nothing but what was sent").isLessThanOrEqualTo(acknowledged.size()
                + failed.size());
        assertThat(stored).allSatisfy(m -> assertThat(m.topic()).isEqualTo("crash"));
    }
}
