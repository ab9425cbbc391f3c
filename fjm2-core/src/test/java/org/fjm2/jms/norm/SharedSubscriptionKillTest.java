package org.fjm2.jms.norm;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.testkit.Await;
import org.fjm2.testkit.ChildJvm;
import org.fjm2.testkit.Receipts;
import org.junit.jupiter.api.Test;

/**
 * A shared subscription with members in three processes over NORM, one killed -9 mid-stream: every message still
 * reaches a member, the dead one's unacknowledged share goes to the living flagged redelivered, and no message
 * reaches two members unless the second copy says it may be a redelivery.
 */
class SharedSubscriptionKillTest {

    private static final int MESSAGES = 6_000;
    private static final int KILL_AT = 2_000;
    private static final int RATE = 3_000;

    @Test
    void aMemberKilledMidStreamLeavesItsUnacknowledgedShareToTheLiving() throws Exception {
        String base = NormUrls.fresh();
        String url = NormUrls.of(base, "");
        String topic = "shared-kill";
        Map<Integer, List<Boolean>> here = new ConcurrentHashMap<>();
        try (ChildJvm doomed = new ChildJvm("192m", SharedMemberProcess.class, url, topic, "crew");
             ChildJvm survivor = new ChildJvm("192m", SharedMemberProcess.class, url, topic, "crew");
             Connection member = new Fjm2ConnectionFactory(url).createConnection();
             Connection pub = new Fjm2ConnectionFactory(url).createConnection()) {
            assertThat(doomed.awaitLine("READY", 30)).as(doomed.outputTail(40)).startsWith("READY");
            assertThat(survivor.awaitLine("READY", 30)).as(survivor.outputTail(40)).startsWith("READY");
            Session ms = member.createSession();
            ms.createSharedConsumer(ms.createTopic(topic), "crew").setMessageListener(m -> {
                try {
                    here.computeIfAbsent(m.getIntProperty("seq"), k -> new CopyOnWriteArrayList<>())
                            .add(m.getJMSRedelivered());
                } catch (jakarta.jms.JMSException e) {
                    throw new IllegalStateException(e);
                }
            });
            member.start();
            // every member active (300 ms after joining) and heard by the others before the first message
            Thread.sleep(600);
            Session ps = pub.createSession();
            MessageProducer producer = ps.createProducer(ps.createTopic(topic));
            long start = System.nanoTime();
            for (int i = 0; i < MESSAGES; i++) {
                if (i == KILL_AT) {
                    doomed.close();     // SIGKILL
                }
                LockSupport.parkNanos(start + i * (TimeUnit.SECONDS.toNanos(1) / RATE) - System.nanoTime());
                Message m = ps.createTextMessage("task " + i);
                m.setIntProperty("seq", i);
                producer.send(m);
            }
            boolean all = Await.until(() -> union(Receipts.parse(doomed.output()), Receipts.parse(survivor.output()),
                    here).size()
                    == MESSAGES, Duration.ofSeconds(30));
            Map<Integer, List<Boolean>> dead = Receipts.parse(doomed.output());
            Map<Integer, List<Boolean>> living = Receipts.parse(survivor.output());
            Map<Integer, List<Boolean>> union = union(dead, living, here);
            System.out.printf("shared subscription, one of three members killed after %,d of %,d messages: the "
                    + "killed one got %,d, the other process %,d, this one %,d; %,d of them flagged redelivered%n",
                    KILL_AT, MESSAGES, dead.size(), living.size(), here.size(), redelivered(union));
            assertThat(all).as("every message reached a member: %d of %d; survivor's output:%n%s", union.size(),
                    MESSAGES, survivor.outputTail(30)).isTrue();
            assertThat(dead).as("the killed member's share before it died").isNotEmpty();
            assertThat(living.size()).as("the other process's share").isGreaterThan(MESSAGES / 6);
            assertThat(here.size()).as("this member's share").isGreaterThan(MESSAGES / 6);
            List<Integer> unflagged = new ArrayList<>();
            union.forEach((seq, copies) -> {
                if (copies.size() > 1 && copies.stream().filter(r -> !r).count() > 1) {
                    unflagged.add(seq);
                }
            });
            assertThat(unflagged).as("messages that reached two members, neither copy flagged redelivered")
                    .isEmpty();
        }
    }

    @SafeVarargs
    private static Map<Integer, List<Boolean>> union(Map<Integer, List<Boolean>>... members) {
        Map<Integer, List<Boolean>> all = new ConcurrentHashMap<>();
        for (Map<Integer, List<Boolean>> m : members) {
            m.forEach((seq, copies) -> all.computeIfAbsent(seq, k -> new ArrayList<>()).addAll(copies));
        }
        return all;
    }

    private static long redelivered(Map<Integer, List<Boolean>> union) {
        return union.values().stream().filter(copies -> copies.contains(true)).count();
    }
}
