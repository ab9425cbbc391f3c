package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.testkit.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Durable subscriptions (issue 17) over NORM with a store: what a subscriber missed while away comes back in order,
 * exactly once, then live messages without a gap or duplicate at the switch; acknowledgement modes move its position;
 * the subscription survives the store's kill -9; unsubscribe; no store; selector and noLocal on the replay.
 */
class DurableSubscriptionTest {

    private static final long SILENCE_MILLIS = 1500;
    /** How long an expected message is waited for at most. */
    private static final long EXPECTED_MILLIS = 10_000;
    /** After the expected messages, how long an extra one is looked for (a duplicate arrives with them). */
    private static final long QUIET_MILLIS = 300;

    /** Messages sent after a killed subscriber's crash margin passed. */
    static final int LATE = 10;

    @TempDir
    Path dir;

    private static Connection connect(String url, String clientId) throws JMSException {
        Connection c = new Fjm2ConnectionFactory(url).createConnection();
        if (clientId != null) {
            c.setClientID(clientId);
        }
        return c;
    }

    /** Waits (bounded) until the store journaled {@code count} messages in all. */
    static void awaitStored(Fjm2Store store, long count) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (store.counters().messagesStored.sum() < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(store.counters().messagesStored.sum()).as("messages the store journaled").isEqualTo(count);
    }

    private static List<Integer> receive(MessageConsumer consumer, int max) throws JMSException {
        return LateJoinTest.receive(consumer, max, SILENCE_MILLIS);
    }

    /**
     * The {@code expected} messages a consumer gets (each waited for up to {@link #EXPECTED_MILLIS}), then any more
     * that come within {@link #QUIET_MILLIS}: the caller's assertion on the list sees a missing and an extra one.
     */
    private static List<Integer> receiveExpecting(MessageConsumer consumer, int expected) throws JMSException {
        List<Integer> seqs = LateJoinTest.receive(consumer, expected, EXPECTED_MILLIS);
        if (seqs.size() == expected) {
            seqs.addAll(LateJoinTest.receive(consumer, Integer.MAX_VALUE, QUIET_MILLIS));
        }
        return seqs;
    }

    private static List<Integer> receiveExpecting(JMSConsumer consumer, int expected) {
        List<Integer> seqs = receive(consumer, expected, EXPECTED_MILLIS);
        if (seqs.size() == expected) {
            seqs.addAll(receive(consumer, Integer.MAX_VALUE, QUIET_MILLIS));
        }
        return seqs;
    }

    private static List<Integer> receive(JMSConsumer consumer, int max, long timeoutMillis) {
        List<Integer> seqs = new ArrayList<>();
        Message m;
        while (seqs.size() < max && (m = consumer.receive(timeoutMillis)) != null) {
            seqs.add(seqOrFail(m));
        }
        return seqs;
    }

    private static int seqOf(Message m) throws JMSException {
        assertThat(m).as("a message").isNotNull();
        return m.getIntProperty("seq");
    }

    private static int seqOrFail(Message m) {
        try {
            return seqOf(m);
        } catch (JMSException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aReturningSubscriberGetsWhatItMissedInOrderThenLiveOnesWithoutGapOrDuplicate() throws Exception {
        String group = TestGroups.url("");
        int away = 1000;
        int live = 500;
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group, null)) {
            try (Connection first = connect(group, "subscriber")) {
                Session s = first.createSession();
                s.createDurableConsumer(s.createTopic("orders"), "audit").close();
            }
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("orders"));
            for (int i = 1; i <= away; i++) {
                LateJoinTest.send(ps, p, i);
            }
            awaitStored(store, away);
            // Live messages go out while the subscriber comes back: some reach it live, some only through the store.
            AtomicReference<Exception> failed = new AtomicReference<>();
            Thread liveSender = new Thread(() -> {
                try {
                    for (int i = away + 1; i <= away + live; i++) {
                        LateJoinTest.send(ps, p, i);
                        if (i % 25 == 0) {
                            Thread.sleep(2);
                        }
                    }
                } catch (Exception e) {
                    failed.set(e);
                }
            }, "live-publisher");
            try (Connection back = connect(group, "subscriber")) {
                Session s = back.createSession();
                liveSender.start();
                MessageConsumer c = s.createDurableConsumer(s.createTopic("orders"), "audit");
                back.start();
                List<Integer> got = receiveExpecting(c, away + live);
                liveSender.join(30_000);
                assertThat(failed.get()).isNull();
                assertThat(got).as("replayed then live, in order, exactly once").isEqualTo(
                        LateJoinTest.range(1, away + live));
            }
        }
    }

    @Test
    void acknowledgementMovesThePositionAndUnacknowledgedMessagesComeAgain() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group, null)) {
            Session ps = publisher.createSession();
            Topic topic = ps.createTopic("t");
            MessageProducer p = ps.createProducer(topic);
            try (Connection c = connect(group, "ack")) {
                Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer consumer = s.createDurableConsumer(topic, "d");
                c.start();
                for (int i = 1; i <= 20; i++) {
                    LateJoinTest.send(ps, p, i);
                }
                Message tenth = null;
                for (int i = 1; i <= 10; i++) {
                    tenth = consumer.receive(5000);
                    assertThat(seqOf(tenth)).isEqualTo(i);
                }
                tenth.acknowledge(); // 1..10: all this session delivered so far
                assertThat(receive(consumer, 10)).isEqualTo(LateJoinTest.range(11, 20));
                // 11..20 delivered, never acknowledged
            }
            awaitStored(store, 20);
            try (JMSContext context = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "clientID=ack"))
                .createContext(JMSContext.AUTO_ACKNOWLEDGE)) {
                JMSConsumer consumer = context.createDurableConsumer(topic, "d");
                assertThat(receiveExpecting(consumer, 10)).as("CLIENT_ACKNOWLEDGE without acknowledge(): they come again")
                        .isEqualTo(LateJoinTest.range(11, 20));
                // AUTO_ACKNOWLEDGE acknowledged them
            }
            try (Connection c = connect(group, "ack")) {
                Session s = c.createSession(true, Session.SESSION_TRANSACTED);
                MessageConsumer consumer = s.createDurableConsumer(topic, "d");
                c.start();
                assertThat(consumer.receive(SILENCE_MILLIS)).as("acknowledged in AUTO_ACKNOWLEDGE: not again")
                        .isNull();
                for (int i = 21; i <= 25; i++) {
                    LateJoinTest.send(ps, p, i);
                }
                assertThat(receive(consumer, 3)).isEqualTo(LateJoinTest.range(21, 23));
                s.commit();
                assertThat(receive(consumer, 2)).isEqualTo(LateJoinTest.range(24, 25));
                // closed without commit: 24 and 25 come again
            }
            try (JMSContext context = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "clientID=ack"))
                .createContext(JMSContext.DUPS_OK_ACKNOWLEDGE)) {
                JMSConsumer consumer = context.createDurableConsumer(topic, "d");
                assertThat(receiveExpecting(consumer, 2)).as("after a commit of 21..23").isEqualTo(List.of(24, 25));
            }
            try (Connection c = connect(group, "ack")) {
                Session s = c.createSession();
                MessageConsumer consumer = s.createDurableConsumer(topic, "d");
                c.start();
                assertThat(consumer.receive(SILENCE_MILLIS)).as("acknowledged in DUPS_OK_ACKNOWLEDGE").isNull();
            }
        }
    }

    /**
     * A return's answer flags what the subscriber was handed before and did not acknowledge: JMSRedelivered and a
     * JMSXDeliveryCount of 2 on those, not on the messages it never got to see (they were in its queue only), nor on
     * live messages after the switch.
     */
    @Test
    void messagesHandedOverBeforeComeBackFlaggedRedelivered() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group, null)) {
            Session ps = publisher.createSession();
            Topic topic = ps.createTopic("again");
            MessageProducer p = ps.createProducer(topic);
            try (Connection c = connect(group, "redo")) {
                Session s = c.createSession(Session.CLIENT_ACKNOWLEDGE);
                MessageConsumer consumer = s.createDurableConsumer(topic, "d");
                c.start();
                for (int i = 1; i <= 20; i++) {
                    LateJoinTest.send(ps, p, i);
                }
                Message m = null;
                for (int i = 1; i <= 15; i++) {
                    m = consumer.receive(5000);
                    assertThat(seqOf(m)).isEqualTo(i);
                    assertThat(m.getJMSRedelivered()).as("first delivery of %d", i).isFalse();
                    if (i == 10) {
                        m.acknowledge();        // 1..10; 11..15 handed over, never acknowledged
                    }
                }
            }
            awaitStored(store, 20);
            try (Connection c = connect(group, "redo")) {
                Session s = c.createSession();
                MessageConsumer consumer = s.createDurableConsumer(topic, "d");
                c.start();
                for (int i = 11; i <= 20; i++) {
                    Message m = consumer.receive(5000);
                    assertThat(seqOf(m)).isEqualTo(i);
                    assertThat(m.getJMSRedelivered()).as("JMSRedelivered of %d (handed over before: 11..15)", i)
                            .isEqualTo(i <= 15);
                    assertThat(m.getIntProperty("JMSXDeliveryCount")).as("JMSXDeliveryCount of %d", i)
                            .isEqualTo(i <= 15 ? 2 : 1);
                }
                LateJoinTest.send(ps, p, 21);
                Message live = consumer.receive(5000);
                assertThat(seqOf(live)).isEqualTo(21);
                assertThat(live.getJMSRedelivered()).as("a live message after the switch").isFalse();
            }
        }
    }

    @Test
    void aMessageListenerAcknowledgesWhenItReturns() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group, null)) {
            Session ps = publisher.createSession();
            Topic topic = ps.createTopic("l");
            MessageProducer p = ps.createProducer(topic);
            java.util.concurrent.CountDownLatch five = new java.util.concurrent.CountDownLatch(5);
            List<Integer> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
            try (Connection c = connect(group, "listener")) {
                Session s = c.createSession();
                s.createDurableConsumer(topic, "d").setMessageListener(m -> {
                    heard.add(seqOrFail(m));
                    five.countDown();
                });
                c.start();
                for (int i = 1; i <= 5; i++) {
                    LateJoinTest.send(ps, p, i);
                }
                assertThat(five.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            }
            assertThat(heard).isEqualTo(LateJoinTest.range(1, 5));
            for (int i = 6; i <= 8; i++) {
                LateJoinTest.send(ps, p, i);
            }
            awaitStored(store, 8);
            try (Connection c = connect(group, "listener")) {
                Session s = c.createSession();
                MessageConsumer back = s.createDurableConsumer(topic, "d");
                c.start();
                assertThat(receiveExpecting(back, 3)).as("what the listener returned from is acknowledged")
                        .isEqualTo(List.of(6, 7, 8));
            }
        }
    }

    /**
     * A durable subscriber in a process of its own, killed with -9 at a seeded point while messages stream in: its
     * return gets a run without gap or duplicate from at most one past the last message it had received (what it
     * acknowledged within the last flush period before the kill comes again: at least once across a crash) to the end,
     * every message it had been handed before flagged redelivered, none that arrived well after the kill.
     */
    /**
     * Starts a thread that publishes messages {@code from..to}, pausing 1 ms after every {@code pauseEvery}-th; what
     * fails it goes to {@code failed}.
     */
    static Thread publishPaced(Session ps, MessageProducer p, int from, int to, int pauseEvery,
                               AtomicReference<Exception> failed) {
        Thread sender = new Thread(() -> {
            try {
                for (int i = from; i <= to; i++) {
                    LateJoinTest.send(ps, p, i);
                    if (i % pauseEvery == 0) {
                        Thread.sleep(1);
                    }
                }
            } catch (Exception e) {
                failed.set(e);
            }
        }, "publisher");
        sender.start();
        return sender;
    }

    @Test
    void aKilledSubscriberReturnsWithoutLossFromAtMostItsLastMessage() throws Exception {
        String group = TestGroups.url("");
        int total = 1500;
        long seed = Long.getLong("fjm2.test.seed", System.nanoTime());
        int killAt = 100 + new java.util.Random(seed).nextInt(800);
        System.out.println("seed " + seed + ": the subscriber is killed once it received " + killAt);
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group, null)) {
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("crash"));
            int lastGot;
            try (ChildJvm subscriber = new ChildJvm("256m", DurableSubscriberProcess.class, group, "victim", "d",
                    "crash")) {
                assertThat(subscriber.awaitLine("READY", 30)).as(subscriber.output()).isEqualTo("READY");
                AtomicReference<Exception> failed = new AtomicReference<>();
                // about 5,000 a second: the kill falls mid-stream
                Thread sender = publishPaced(ps, p, 1, total, 10, failed);
                assertThat(subscriber.awaitLine("GOT " + killAt + ";", 30)).isEqualTo("GOT " + killAt + ";");
                assertThat(subscriber.kill(10)).as("subscriber killed").isTrue();
                sender.join(60_000);
                assertThat(failed.get()).isNull();
                lastGot = subscriber.output().lines().filter(l -> l.startsWith("GOT ")).mapToInt(
                        l -> Integer.parseInt(l.substring(4, l.length() - 1))).max().orElseThrow();
            }
            awaitStored(store, total);
            // what arrives well after the crash was handed to nobody: not flagged
            Thread.sleep(DurableRecords.CRASH_HANDED_MARGIN_MILLIS + 500);
            for (int i = total + 1; i <= total + LATE; i++) {
                LateJoinTest.send(ps, p, i);
            }
            awaitStored(store, total + LATE);
            try (Connection c = connect(group, "victim")) {
                Session s = c.createSession();
                MessageConsumer back = s.createDurableConsumer(s.createTopic("crash"), "d");
                c.start();
                List<Integer> got = new ArrayList<>();
                List<Integer> flagged = new ArrayList<>();
                Message m;
                while (got.size() <= total + LATE && (m = back.receive(SILENCE_MILLIS)) != null) {
                    got.add(seqOf(m));
                    if (m.getJMSRedelivered()) {
                        flagged.add(seqOf(m));
                    }
                }
                assertThat(got).isNotEmpty();
                int from = got.get(0);
                System.out.println("received " + lastGot + " before the kill; the return starts at " + from
                        + "; flagged redelivered: " + flagged.size() + (flagged.isEmpty() ? "" : ", "
                        + flagged.get(0) + ".." + flagged.get(flagged.size() - 1)));
                assertThat(from).as("no message lost at the crash").isLessThanOrEqualTo(lastGot + 1);
                int handedBefore = lastGot;
                assertThat(flagged).as("every message it had been handed before the kill comes flagged redelivered")
                        .containsAll(got.stream().filter(seq -> seq <= handedBefore).toList());
                assertThat(flagged).as("nothing that arrived well after the kill is flagged")
                        .allMatch(seq -> seq <= total);
                assertThat(got).as("in order, exactly once from there")
                        .isEqualTo(LateJoinTest.range(from, total + LATE));
            }
        }
    }

    /**
     * The same, in a loop: one durable subscriber process after another, each killed with -9 at a seeded point
     * while messages stream in. Each life gets a run without gap or duplicate that starts at most one past the
     * last message of the life before; a last return in this JVM ends the run at the last message sent.
     */
    @Test
    void aSubscriberKilledAgainAndAgainMissesNothingAndGetsEachLifeInOrder() throws Exception {
        String group = TestGroups.url("");
        int total = 4000;
        int lives = 5;
        long seed = Long.getLong("fjm2.test.seed", System.nanoTime());
        java.util.Random random = new java.util.Random(seed);
        System.out.println("seed " + seed + " (rerun with -Dfjm2.test.seed=N)");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group, null)) {
            try (Connection first = connect(group, "loop")) { // the subscription exists before the first message
                Session fs = first.createSession();
                fs.createDurableConsumer(fs.createTopic("crash"), "d").close();
            }
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("crash"));
            AtomicReference<Exception> failed = new AtomicReference<>();
            // about 1,000 a second: the lives fall mid-stream
            Thread sender = publishPaced(ps, p, 1, total, 2, failed);
            int lastGot = 0;
            for (int life = 0; life < lives && lastGot < total; life++) {
                int killAt = Math.min(total, lastGot + 50 + random.nextInt(400));
                try (ChildJvm subscriber = new ChildJvm("256m", DurableSubscriberProcess.class, group, "loop", "d",
                        "crash")) {
                    assertThat(subscriber.awaitLine("READY", 30)).as(subscriber.output()).isEqualTo("READY");
                    assertThat(subscriber.awaitLine("GOT " + killAt + ";", 60)).as(subscriber.output())
                            .isEqualTo("GOT " + killAt + ";");
                    assertThat(subscriber.kill(10)).as("subscriber killed").isTrue();
                    List<Integer> got = subscriber.output().lines().filter(l -> l.startsWith("GOT ")
                            && l.endsWith(";")).map(l -> Integer.parseInt(l.substring(4, l.length() - 1))).toList();
                    System.out.printf("life %d: %d..%d, killed once it had %d%n", life, got.get(0),
                            got.get(got.size() - 1), killAt);
                    assertThat(got.get(0)).as("life %d starts where the one before ended", life)
                            .isLessThanOrEqualTo(lastGot + 1);
                    assertThat(got).as("life %d: in order, each once", life)
                            .isEqualTo(LateJoinTest.range(got.get(0), got.get(got.size() - 1)));
                    lastGot = got.get(got.size() - 1);
                }
            }
            sender.join(60_000);
            assertThat(failed.get()).isNull();
            awaitStored(store, total);
            try (Connection c = connect(group, "loop")) {
                Session s = c.createSession();
                MessageConsumer back = s.createDurableConsumer(s.createTopic("crash"), "d");
                c.start();
                List<Integer> got = receive(back, total + 1);
                System.out.printf("last return: %s%n", got.isEmpty() ? "nothing" : got.get(0) + ".." + total);
                if (lastGot < total || !got.isEmpty()) {
                    // what the last life acknowledged in its last flush period comes again (at least once)
                    assertThat(got).as("the last return").isNotEmpty();
                    assertThat(got.get(0)).isLessThanOrEqualTo(lastGot + 1);
                    assertThat(got).as("to the end, in order, each once")
                            .isEqualTo(LateJoinTest.range(got.get(0), total));
                }
            }
        }
    }

    /** A store in a process of its own, killed with -9 and restarted on the same data directory. */
    @Test
    void theSubscriptionAndItsMessagesSurviveTheStoresKill() throws Exception {
        String group = TestGroups.url("");
        Path data = dir.resolve("store");
        long seed = Long.getLong("fjm2.test.seed", System.nanoTime());
        int acknowledged = 20 + new java.util.Random(seed).nextInt(60);
        System.out.println("seed " + seed + ": " + acknowledged + " messages acknowledged before the subscriber leaves");
        try (Connection publisher = connect(TestGroups.sameGroup(group, "storeQuorum=1"), null)) {
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("k"));
            try (ChildJvm store = startStoreProcess(group, data)) {
                try (Connection c = connect(group, "survivor")) {
                    Session s = c.createSession();
                    MessageConsumer consumer = s.createDurableSubscriber(s.createTopic("k"), "d");
                    c.start();
                    for (int i = 1; i <= 100; i++) {
                        LateJoinTest.send(ps, p, i);
                    }
                    assertThat(receive(consumer, acknowledged)).isEqualTo(LateJoinTest.range(1, acknowledged));
                }
                for (int i = 101; i <= 150; i++) {
                    LateJoinTest.send(ps, p, i);
                }
                assertThat(store.kill(10)).as("store killed").isTrue();
            }
            try (ChildJvm store = startStoreProcess(group, data)) {
                try (Connection c = connect(group, "survivor")) {
                    Session s = c.createSession();
                    MessageConsumer consumer = s.createDurableConsumer(s.createTopic("k"), "d");
                    c.start();
                    assertThat(receiveExpecting(consumer, 150 - acknowledged)).as("store output:%n%s", store.output())
                            .isEqualTo(LateJoinTest.range(acknowledged + 1, 150));
                }
            }
        }
    }

    private static ChildJvm startStoreProcess(String group, Path data) throws Exception {
        ChildJvm store = new ChildJvm("256m", StoreProcess.class, group, data.toString());
        try {
            assertThat(store.awaitLine("READY", 30)).as("store output:%n%s", store.output()).startsWith("READY");
        } catch (Exception | AssertionError e) {
            store.close();
            throw e;
        }
        return store;
    }

    @Test
    void unsubscribeFailsWhileActiveAndAReturnAfterItStartsFresh() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection publisher = connect(group, null);
             Connection c = connect(group, "u")) {
            Session ps = publisher.createSession();
            MessageProducer p = ps.createProducer(ps.createTopic("t"));
            Session s = c.createSession();
            Topic topic = s.createTopic("t");
            MessageConsumer consumer = s.createDurableConsumer(topic, "d");
            assertThatThrownBy(() -> s.createDurableConsumer(topic, "d")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("active consumer");
            assertThatThrownBy(() -> s.unsubscribe("d")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("active consumer");
            consumer.close();
            for (int i = 1; i <= 5; i++) {
                LateJoinTest.send(ps, p, i);
            }
            awaitStored(store, 5);
            s.unsubscribe("d");
            assertThatThrownBy(() -> s.unsubscribe("d")).isInstanceOf(InvalidDestinationException.class)
                    .hasMessageContaining("no durable subscription");
            MessageConsumer fresh = s.createDurableConsumer(topic, "d");
            c.start();
            LateJoinTest.send(ps, p, 6);
            assertThat(receiveExpecting(fresh, 1)).as("a new subscription: nothing from before").isEqualTo(List.of(6));
            fresh.close();
            try (JMSContext context = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "clientID=u2"))
                .createContext()) {
                JMSConsumer active = context.createDurableConsumer(topic, "d2");
                assertThatThrownBy(() -> context.unsubscribe("d2")).isInstanceOf(IllegalStateRuntimeException.class);
                active.close();
                context.unsubscribe("d2");
            }
        }
    }

    @Test
    void aStoreThatDoesNotKeepTheTopicDoesNotTakeItsSubscriptions() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store ordersOnly = Fjm2Store.start(StoreSettings.of(group, dir.resolve("orders-only"))
                     .withTopics(TopicPattern.parse("orders")));
             Connection c = connect(group, "prices-reader")) {
            Session s = c.createSession();
            // its empty answer would have hidden the backlog a store that keeps prices holds
            assertThatThrownBy(() -> s.createDurableConsumer(s.createTopic("prices"), "d"))
                    .isInstanceOf(JMSException.class).hasMessageContaining("no store answered");
            s.createDurableConsumer(s.createTopic("orders"), "o").close();
            assertThat(ordersOnly.counters().messagesStored.sum()).isZero();
        }
    }

    @Test
    void withoutAStoreCreationFailsNamingTheMissingStore() throws Exception {
        String group = TestGroups.url("");
        try (Connection c = connect(group, "nobody")) {
            Session s = c.createSession();
            Topic topic = s.createTopic("t");
            long start = System.nanoTime();
            assertThatThrownBy(() -> s.createDurableConsumer(topic, "d")).isInstanceOf(JMSException.class)
                    .hasMessageContaining("no store answered").hasMessageContaining("fjm2 store");
            assertThat((System.nanoTime() - start) / 1_000_000).as("ms waited").isBetween(1900L, 10_000L);
            // the name is free again (no consumer left behind)
            assertThatThrownBy(() -> s.createDurableSubscriber(topic, "d")).hasMessageContaining("no store answered");
            assertThatThrownBy(() -> s.unsubscribe("d")).hasMessageContaining("no store answered");
        }
        try (Connection c = connect(group, null)) {
            Session s = c.createSession();
            assertThatThrownBy(() -> s.createDurableConsumer(s.createTopic("t"), "d"))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("client id");
        }
        try (JMSContext context = new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "clientID=nobody2"))
                .createContext()) {
            assertThatThrownBy(() -> context.createDurableConsumer(context.createTopic("t"), "d"))
                    .isInstanceOf(JMSRuntimeException.class).hasMessageContaining("no store answered");
        }
    }

    @Test
    void selectorAndNoLocalApplyToTheReplay() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection other = connect(group, null);
             Connection own = connect(group, "sel")) {
            Session s = own.createSession();
            Topic topic = s.createTopic("t");
            TopicSubscriber first = s.createDurableSubscriber(topic, "d", "seq % 2 = 0", true);
            first.close();
            MessageProducer local = s.createProducer(topic);
            for (int i = 1; i <= 10; i++) {
                LateJoinTest.send(s, local, i);
            }
            Session os = other.createSession();
            MessageProducer remote = os.createProducer(topic);
            for (int i = 11; i <= 20; i++) {
                LateJoinTest.send(os, remote, i);
            }
            awaitStored(store, 20);
            MessageConsumer back = s.createDurableConsumer(topic, "d", "seq % 2 = 0", true);
            own.start();
            assertThat(receiveExpecting(back, 5)).as("even, and not from this connection").isEqualTo(
                    List.of(12, 14, 16, 18, 20));
        }
    }
}
