package org.fjm2.jms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.jms.Connection;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.testkit.Await;
import org.junit.jupiter.api.Test;

/**
 * Shared non-durable subscriptions without a broker: the consumers of a name on several connections (each its own
 * member) and on one connection each get a disjoint share, together every message once; a member that closes
 * mid-stream leaves nothing behind; the specification's rules on names, topics and selectors hold.
 */
class SharedSubscriptionTest {

    /** What the members of one subscription received, by the "seq" property, and which came flagged redelivered. */
    private static final class Tally {
        final Map<Integer, Integer> times = new ConcurrentHashMap<>();
        final Map<Integer, Boolean> redelivered = new ConcurrentHashMap<>();
        final List<AtomicInteger> perMember = new CopyOnWriteArrayList<>();

        AtomicInteger member() {
            AtomicInteger n = new AtomicInteger();
            perMember.add(n);
            return n;
        }

        void got(Message m, AtomicInteger member) throws JMSException {
            int seq = m.getIntProperty("seq");
            if (times.merge(seq, 1, Integer::sum) > 1 && m.getJMSRedelivered()) {
                redelivered.put(seq, true);
            }
            member.incrementAndGet();
        }

        int deliveries() {
            return perMember.stream().mapToInt(AtomicInteger::get).sum();
        }

        List<Integer> unflaggedDuplicates() {
            List<Integer> out = new ArrayList<>();
            times.forEach((seq, n) -> {
                if (n > 1 && !redelivered.containsKey(seq)) {
                    out.add(seq);
                }
            });
            return out;
        }
    }

    private static void listen(MessageConsumer consumer, Tally tally) throws JMSException {
        AtomicInteger member = tally.member();
        consumer.setMessageListener(m -> {
            try {
                tally.got(m, member);
            } catch (JMSException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void publish(Session session, Topic topic, int from, int to) throws JMSException {
        MessageProducer producer = session.createProducer(topic);
        for (int i = from; i < to; i++) {
            Message m = session.createTextMessage("m" + i);
            m.setIntProperty("seq", i);
            producer.send(m);
        }
    }

    @Test
    void membersOnThreeConnectionsEachGetAShareAndTogetherEveryMessageOnce() throws Exception {
        String url = InMem.newUrl();
        int count = 3_000;
        Tally tally = new Tally();
        AtomicInteger everything = new AtomicInteger();
        try (Connection pub = InMem.connect(url); Connection a = InMem.connect(url); Connection b = InMem.connect(url);
             Connection c = InMem.connect(url); Connection plain = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("work");
            for (Connection member : List.of(a, b, c)) {
                Session s = member.createSession();
                listen(s.createSharedConsumer(topic, "workers"), tally);
            }
            plain.createSession().createConsumer(topic).setMessageListener(m -> everything.incrementAndGet());
            publish(ps, topic, 0, count);
            publishWhileActive(ps, topic, count, 2 * count);
            assertThat(Await.until(() -> tally.times.size() == 2 * count && everything.get() == 2 * count,
                    java.time.Duration.ofSeconds(20))).as("every message reached a member: %d of %d (plain %d)",
                    tally.times.size(), 2 * count, everything.get()).isTrue();
            assertThat(Await.until(() -> tally.deliveries() > 2 * count, java.time.Duration.ofMillis(500)))
                    .as("a message delivered twice").isFalse();
            assertThat(tally.times.values()).as("each message once").allMatch(n -> n == 1);
            assertThat(tally.perMember).as("each member's share").allMatch(n -> n.get() > count / 6);
        }
    }

    /** The second half goes out once every member is active (each has been for its join delay). */
    private static void publishWhileActive(Session ps, Topic topic, int from, int to) throws Exception {
        Thread.sleep(SharedSubscriptions.JOIN_DELAY_MILLIS + 2 * SharedSubscriptions.HEARTBEAT_MILLIS);
        publish(ps, topic, from, to);
    }

    @Test
    void consumersOfOneConnectionShareAsMembersOfTheirOwn() throws Exception {
        String url = InMem.newUrl();
        int count = 2_000;
        Tally tally = new Tally();
        try (Connection pub = InMem.connect(url); Connection sub = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("local-work");
            listen(sub.createSession().createSharedConsumer(topic, "pool"), tally);
            listen(sub.createSession().createSharedConsumer(topic, "pool"), tally);
            publish(ps, topic, 0, count);
            assertThat(Await.until(() -> tally.times.size() == count, java.time.Duration.ofSeconds(20)))
                    .as("received %d of %d", tally.times.size(), count).isTrue();
            assertThat(tally.times.values()).allMatch(n -> n == 1);
            assertThat(tally.perMember).allMatch(n -> n.get() > count / 4);
        }
    }

    /**
     * JMS: a message goes to whichever consumer asks. Of two consumers of one connection only one receives; it takes
     * the other's share too (borrowing from its queue), while a member in another connection gets its own. What it
     * borrowed is acknowledged as the other's: when the idle one closes, nothing of its share comes again anywhere
     * (without that, its whole share would be redelivered to the others as unacknowledged).
     */
    @Test
    void aConsumerThatAsksTakesWhatIsQueuedForAnIdleOneOfItsConnection() throws Exception {
        String url = InMem.newUrl();
        int count = 1_500;
        Tally tally = new Tally();
        try (Connection pub = InMem.connect(url); Connection x = InMem.connect(url); Connection y = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("borrow");
            Session xs = x.createSession();
            MessageConsumer asking = xs.createSharedConsumer(topic, "pool");
            MessageConsumer idle = x.createSession().createSharedConsumer(topic, "pool");
            listen(y.createSession().createSharedConsumer(topic, "pool"), tally);
            x.start();
            publishWhileActive(ps, topic, 0, count);
            AtomicInteger asked = tally.member();
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (tally.times.size() < count && System.nanoTime() < deadline) {
                Message m = asking.receive(100);
                if (m != null) {
                    tally.got(m, asked);
                }
            }
            assertThat(tally.times.size()).as("every message reached a member").isEqualTo(count);
            assertThat(asked.get()).as("the asking consumer took the idle one's share too").isGreaterThan(count / 2);
            idle.close();
            Thread.sleep(SharedSubscriptions.MEMBER_TIMEOUT_MILLIS);
            for (Message m; (m = asking.receive(50)) != null; ) {
                tally.got(m, asked);
            }
            assertThat(tally.deliveries()).as("deliveries after the idle consumer closed (%s redelivered)",
                    tally.redelivered.keySet().size()).isEqualTo(count);
        }
    }

    @Test
    void aMemberThatClosesMidStreamLeavesNoMessageBehind() throws Exception {
        String url = InMem.newUrl();
        int count = 4_000;
        Tally tally = new Tally();
        try (Connection pub = InMem.connect(url); Connection a = InMem.connect(url); Connection b = InMem.connect(url)) {
            Session ps = pub.createSession();
            Topic topic = ps.createTopic("handover");
            listen(a.createSession().createSharedConsumer(topic, "pool"), tally);
            Session leaving = b.createSession();
            MessageConsumer leaver = leaving.createSharedConsumer(topic, "pool");
            publishWhileActive(ps, topic, 0, count / 2);
            // the leaver takes a few by hand and closes with the rest of its share still queued
            AtomicInteger leaverCount = tally.member();
            for (int i = 0; i < 50; i++) {
                Message m = leaver.receive(10_000);
                assertThat(m).as("the leaver's message %d", i).isNotNull();
                tally.got(m, leaverCount);
            }
            leaver.close();
            publish(ps, topic, count / 2, count);
            assertThat(Await.until(() -> tally.times.size() == count, java.time.Duration.ofSeconds(20)))
                    .as("received %d of %d", tally.times.size(), count).isTrue();
            assertThat(tally.unflaggedDuplicates()).as("duplicates not flagged redelivered").isEmpty();
        }
    }

    @Test
    void theSameNameOnAnotherTopicOrSelectorIsRefusedWhileActive() throws Exception {
        try (Connection conn = InMem.connect(InMem.newUrl())) {
            Session s = conn.createSession();
            MessageConsumer first = s.createSharedConsumer(s.createTopic("t1"), "name", "a = 1");
            assertThatThrownBy(() -> s.createSharedConsumer(s.createTopic("t2"), "name"))
                    .isInstanceOf(JMSException.class).hasMessageContaining("same topic and selector");
            assertThatThrownBy(() -> s.createSharedConsumer(s.createTopic("t1"), "name", "a = 2"))
                    .isInstanceOf(JMSException.class);
            MessageConsumer second = s.createSharedConsumer(s.createTopic("t1"), "name", "a = 1");
            first.close();
            second.close();
            s.createSharedConsumer(s.createTopic("t2"), "name").close();     // none active: a new subscription
            assertThatThrownBy(() -> s.createSharedConsumer(s.createTopic("t1"), ""))
                    .isInstanceOf(JMSException.class).hasMessageContaining("name");
        }
    }

    @Test
    void theSimplifiedApiSharesToo() throws Exception {
        String url = InMem.newUrl();
        int count = 1_000;
        Tally tally = new Tally();
        Fjm2ConnectionFactory factory = new Fjm2ConnectionFactory(url);
        try (JMSContext pub = factory.createContext(); JMSContext a = factory.createContext();
             JMSContext b = factory.createContext()) {
            Topic topic = pub.createTopic("ctx-work");
            for (JMSContext member : List.of(a, b)) {
                JMSConsumer consumer = member.createSharedConsumer(topic, "ctx-pool");
                AtomicInteger n = tally.member();
                consumer.setMessageListener(m -> {
                    try {
                        tally.got(m, n);
                    } catch (JMSException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
            for (int i = 0; i < count; i++) {
                pub.createProducer().setProperty("seq", i).send(topic, "m" + i);
            }
            assertThat(Await.until(() -> tally.times.size() == count, java.time.Duration.ofSeconds(20)))
                    .as("received %d of %d", tally.times.size(), count).isTrue();
            assertThat(tally.times.values()).allMatch(n -> n == 1);
        }
    }
}
