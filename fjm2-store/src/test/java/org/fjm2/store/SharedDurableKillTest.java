package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.testkit.Await;
import org.fjm2.testkit.ChildJvm;
import org.fjm2.testkit.Receipts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A shared durable subscription with members in two processes, a store, and kill -9 (issue 17): one member killed
 * mid-stream leaves its unacknowledged share to the other (flagged redelivered); then the other is killed mid-stream
 * too, and the next member gets from the store every message no member got, once, in order, and of those the killed
 * members had got only what their last acknowledgements had not yet told the stores.
 */
class SharedDurableKillTest {

    private static final int MESSAGES = 4_000;
    private static final int KILL_AT = 1_500;
    private static final int RATE = 2_000;
    private static final int AFTER = 1_000;
    private static final int KILL_LAST_AT = 300;
    /** The surviving member takes at most ~1,000 messages/s: it has messages waiting when it is killed. */
    private static final String SLOW_MEMBER_PAUSE_MICROS = "1000";

    @TempDir
    Path dir;

    @Test
    void killedMembersLoseNothingAndTheNextMemberGetsWhatNoneAcknowledged() throws Exception {
        String group = TestGroups.url("");
        String topic = "jobs";
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             ChildJvm doomed = new ChildJvm("192m", SharedDurableMemberProcess.class, group, "crew", topic);
             ChildJvm survivor = new ChildJvm("192m", SharedDurableMemberProcess.class, group, "crew", topic,
                     SLOW_MEMBER_PAUSE_MICROS);
             Connection pub = new Fjm2ConnectionFactory(group).createConnection()) {
            assertThat(doomed.awaitLine("READY", 30)).as(doomed.outputTail(40)).startsWith("READY");
            assertThat(survivor.awaitLine("READY", 30)).as(survivor.outputTail(40)).startsWith("READY");
            Thread.sleep(600);  // both active and known to each other before the first message
            Session ps = pub.createSession();
            MessageProducer producer = ps.createProducer(ps.createTopic(topic));
            long start = System.nanoTime();
            for (int i = 1; i <= MESSAGES; i++) {
                if (i == KILL_AT) {
                    doomed.close();     // SIGKILL
                }
                LockSupport.parkNanos(start + i * (TimeUnit.SECONDS.toNanos(1) / RATE) - System.nanoTime());
                LateJoinTest.send(ps, producer, i);
            }
            boolean all = Await.until(() -> Receipts.parse(doomed.output(), survivor.output()).size() == MESSAGES,
                    Duration.ofSeconds(30));
            Map<Integer, List<Boolean>> dead = Receipts.parse(doomed.output());
            Map<Integer, List<Boolean>> living = Receipts.parse(survivor.output());
            Map<Integer, List<Boolean>> union = Receipts.parse(doomed.output(), survivor.output());
            System.out.printf("shared durable subscription, one of two members killed after %,d of %,d messages: "
                    + "the killed one got %,d, the other %,d; %,d flagged redelivered%n", KILL_AT, MESSAGES,
                    dead.size(), living.size(), union.values().stream().filter(c -> c.contains(true)).count());
            assertThat(all).as("every message reached a member: %d of %d; survivor's output:%n%s", union.size(),
                    MESSAGES, survivor.outputTail(30)).isTrue();
            assertThat(dead).as("the killed member's share before it died").isNotEmpty();
            assertThat(living.size()).as("the other member's share").isGreaterThan(MESSAGES / 3);
            List<Integer> unflagged = new ArrayList<>();
            union.forEach((seq, copies) -> {
                if (copies.size() > 1 && copies.stream().filter(r -> !r).count() > 1) {
                    unflagged.add(seq);
                }
            });
            assertThat(unflagged).as("messages that reached both members, neither copy flagged redelivered")
                    .isEmpty();

            // The other member is killed mid-stream too, with messages waiting in it: no member lives for the rest.
            int total = MESSAGES + AFTER;
            start = System.nanoTime();
            for (int i = MESSAGES + 1; i <= total; i++) {
                if (i == MESSAGES + KILL_LAST_AT) {
                    survivor.close();   // SIGKILL
                }
                LockSupport.parkNanos(start + (i - MESSAGES) * (TimeUnit.SECONDS.toNanos(1) / RATE)
                        - System.nanoTime());
                LateJoinTest.send(ps, producer, i);
            }
            DurableSubscriptionTest.awaitStored(store, total);
            Map<Integer, List<Boolean>> before = Receipts.parse(doomed.output(), survivor.output());
            try (Connection next = new Fjm2ConnectionFactory(group).createConnection()) {
                Session s = next.createSession();
                MessageConsumer c = s.createSharedDurableConsumer(s.createTopic(topic), "crew");
                next.start();
                List<Integer> got = new ArrayList<>();
                for (Message m; (m = c.receive(2000)) != null; ) {
                    got.add(m.getIntProperty("seq"));
                }
                long again = got.stream().filter(before::containsKey).count();
                System.out.printf("the last member killed at message %,d; the next member got %,d, %,d of them "
                        + "printed by a killed member before%n", MESSAGES + KILL_LAST_AT, got.size(), again);
                List<Integer> missing = new ArrayList<>();
                for (int i = 1; i <= total; i++) {
                    if (!before.containsKey(i) && !got.contains(i)) {
                        missing.add(i);
                    }
                }
                assertThat(missing).as("messages no member got").isEmpty();
                assertThat(got).as("the next member's messages: from the store, once each, in order")
                        .doesNotHaveDuplicates().isSorted();
                assertThat(again).as("messages the killed members had printed that came again (acknowledged in "
                        + "their last position flush periods, 50 ms each)").isLessThan(500);
            }
        }
    }
}
