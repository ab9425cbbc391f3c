package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.Connection;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Shared durable subscriptions (issue 17) over NORM with a store: members in several connections share what the
 * store kept while none was there and the live messages after it, each message to exactly one member; what the
 * members had not acknowledged when the last one left comes to the next member; without a client id; unsubscribe.
 */
class SharedDurableSubscriptionTest {

    private static final long SILENCE_MILLIS = 1500;

    @TempDir
    Path dir;

    private static Connection connect(String url) throws JMSException {
        return new Fjm2ConnectionFactory(url).createConnection();
    }

    @Test
    void membersShareWhatTheStoreKeptThenLiveOnesEachMessageToExactlyOneMember() throws Exception {
        String group = TestGroups.url("");
        int away = 600;
        int live = 900;
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group)) {
            try (Connection first = connect(group)) {
                Session s = first.createSession();
                s.createSharedDurableConsumer(s.createTopic("jobs"), "workers").close();
            }
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("jobs"));
            for (int i = 1; i <= away; i++) {
                LateJoinTest.send(ps, p, i);
            }
            DurableSubscriptionTest.awaitStored(store, away);
            try (Connection a = connect(group); Connection b = connect(group)) {
                Session sa = a.createSession();
                Session sb = b.createSession();
                MessageConsumer ca = sa.createSharedDurableConsumer(sa.createTopic("jobs"), "workers");
                MessageConsumer cb = sb.createSharedDurableConsumer(sb.createTopic("jobs"), "workers");
                a.start();
                b.start();
                Thread.sleep(600); // both members active and known to each other before the live messages
                AtomicReference<Exception> failed = new AtomicReference<>();
                Thread liveSender = DurableSubscriptionTest.publishPaced(ps, p, away + 1, away + live, 25, failed);
                List<Integer> gotA = new ArrayList<>();
                List<Integer> gotB = new ArrayList<>();
                receiveBoth(ca, cb, gotA, gotB, away + live);
                liveSender.join(30_000);
                assertThat(failed.get()).as("live publisher").isNull();
                System.out.printf("shared durable subscription: %d kept by the store while away, %d live; member a "
                        + "got %d, member b %d%n", away, live, gotA.size(), gotB.size());
                assertEachExactlyOnce(gotA, gotB, away + live);
                assertThat(gotA).as("member a's share, in order").isSorted().isNotEmpty();
                assertThat(gotB).as("member b's share, in order").isSorted().isNotEmpty();
                assertThat(gotA.stream().filter(n -> n > away).count()).as("live messages member a got")
                        .isGreaterThan(live / 5);
                assertThat(gotB.stream().filter(n -> n > away).count()).as("live messages member b got")
                        .isGreaterThan(live / 5);
            }
        }
    }

    @Test
    void whatTheMembersHadNotAcknowledgedWhenTheLastLeftComesToTheNextMember() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group)) {
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("jobs"));
            try (Connection first = connect(group)) {
                first.setClientID("crew");
                Session s = first.createSession(Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer c = s.createSharedDurableConsumer(s.createTopic("jobs"), "workers");
                first.start();
                for (int i = 1; i <= 100; i++) {
                    LateJoinTest.send(ps, p, i);
                }
                List<Message> got = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    Message m = c.receive(10_000);
                    assertThat(m).as("message %d of 100", i + 1).isNotNull();
                    got.add(m);
                    if (i == 59) {
                        m.acknowledge();     // 1..60 acknowledged; 61..100 delivered, not acknowledged
                    }
                }
                assertThat(got.get(99).getIntProperty("seq")).isEqualTo(100);
            }
            for (int i = 101; i <= 150; i++) {
                LateJoinTest.send(ps, p, i);
            }
            DurableSubscriptionTest.awaitStored(store, 150);
            try (Connection next = connect(group)) {
                next.setClientID("crew");
                Session s = next.createSession();
                MessageConsumer c = s.createSharedDurableConsumer(s.createTopic("jobs"), "workers");
                next.start();
                List<Integer> got = LateJoinTest.receive(c, 200, SILENCE_MILLIS);
                assertThat(got).as("the unacknowledged 61..100, then 101..150 sent while no member was there")
                        .containsExactlyElementsOf(range(61, 150));
            }
        }
    }

    @Test
    void aSubscriptionWithoutClientIdIsNamedAloneAndUnsubscribeRemovesIt() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             JMSContext publisher = new Fjm2ConnectionFactory(group).createContext()) {
            Topic topic = publisher.createTopic("jobs");
            try (JMSContext member = new Fjm2ConnectionFactory(group).createContext()) {
                member.createSharedDurableConsumer(topic, "workers").close();
                assertThatThrownBy(() -> member.createSharedDurableConsumer(topic, ""))
                        .isInstanceOf(jakarta.jms.InvalidDestinationRuntimeException.class);
            }
            for (int i = 1; i <= 20; i++) {
                publisher.createProducer().setProperty("seq", i).send(topic, "m" + i);
            }
            DurableSubscriptionTest.awaitStored(store, 20);
            try (JMSContext member = new Fjm2ConnectionFactory(group).createContext()) {
                JMSConsumer c = member.createSharedDurableConsumer(topic, "workers");
                List<Integer> got = new ArrayList<>();
                for (Message m; got.size() < 20 && (m = c.receive(SILENCE_MILLIS)) != null; ) {
                    got.add(m.getIntProperty("seq"));
                }
                assertThat(got).as("kept while no member was there").containsExactlyElementsOf(range(1, 20));
                assertThatThrownBy(() -> member.unsubscribe("workers"))
                        .as("unsubscribe while a member is active here")
                        .isInstanceOf(jakarta.jms.IllegalStateRuntimeException.class);
                c.close();
                member.unsubscribe("workers");
                assertThatThrownBy(() -> member.unsubscribe("workers"))
                        .isInstanceOf(jakarta.jms.InvalidDestinationRuntimeException.class);
            }
        }
    }

    @Test
    void aSharedAndAnUnsharedDurableSubscriptionCannotHaveOneNameEvenAcrossProcessesAndStoreRestarts()
            throws Exception {
        String group = TestGroups.url("");
        Path data = dir.resolve("a");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, data));
             Connection c = connect(group)) {
            c.setClientID("crew");
            Session s = c.createSession();
            Topic t = s.createTopic("jobs");
            MessageConsumer shared = s.createSharedDurableConsumer(t, "workers");
            MessageConsumer second = s.createSharedDurableConsumer(t, "workers");
            assertThatThrownBy(() -> s.createDurableConsumer(t, "workers")).as("in the same connection")
                    .isInstanceOf(JMSException.class).hasMessageContaining("active consumer");
            assertThatThrownBy(() -> s.createSharedDurableConsumer(s.createTopic("other"), "workers"))
                    .isInstanceOf(JMSException.class).hasMessageContaining("same topic and selector");
            shared.close();
            second.close();
            s.createDurableConsumer(t, "audit").close();
        }
        // Another connection (as another process would), with the store restarted in between: the store says.
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, data));
             Connection c = connect(group)) {
            c.setClientID("crew");
            Session s = c.createSession();
            Topic t = s.createTopic("jobs");
            assertThatThrownBy(() -> s.createDurableConsumer(t, "workers")).isInstanceOf(JMSException.class)
                    .hasMessageContaining("is a shared one (createSharedDurableConsumer)");
            assertThatThrownBy(() -> s.createSharedDurableConsumer(t, "audit")).isInstanceOf(JMSException.class)
                    .hasMessageContaining("is an unshared one (createDurableConsumer)");
            s.createSharedDurableConsumer(t, "workers").close();    // each of its own kind still works
            s.createDurableConsumer(t, "audit").close();
            s.unsubscribe("workers");
            s.createDurableConsumer(t, "workers").close();          // the name is free once unsubscribed
            assertThat(store.counters().messagesStored.sum()).isZero();
        }
    }

    /** Receives on both consumers until {@code total} arrived or both were silent {@link #SILENCE_MILLIS}. */
    private static void receiveBoth(MessageConsumer a, MessageConsumer b, List<Integer> gotA, List<Integer> gotB,
                                    int total) throws JMSException {
        long silentSince = System.nanoTime();
        while (gotA.size() + gotB.size() < total
                && System.nanoTime() - silentSince < SILENCE_MILLIS * 1_000_000L) {
            boolean any = false;
            for (Message m; (m = a.receive(5)) != null; any = true) {
                gotA.add(m.getIntProperty("seq"));
            }
            for (Message m; (m = b.receive(5)) != null; any = true) {
                gotB.add(m.getIntProperty("seq"));
            }
            if (any) {
                silentSince = System.nanoTime();
            }
        }
    }

    private static void assertEachExactlyOnce(List<Integer> a, List<Integer> b, int total) {
        Set<Integer> both = new HashSet<>(a);
        both.retainAll(new HashSet<>(b));
        assertThat(both).as("messages both members got").isEmpty();
        List<Integer> all = new ArrayList<>(a);
        all.addAll(b);
        assertThat(all).as("every message once").hasSize(total).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(range(1, total));
    }

    private static List<Integer> range(int from, int to) {
        List<Integer> out = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            out.add(i);
        }
        return out;
    }
}
