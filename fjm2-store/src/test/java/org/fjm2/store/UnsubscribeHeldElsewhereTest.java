package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.testkit.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

/**
 * JMS: unsubscribe fails while the durable subscription has an active consumer — also when that consumer is in
 * another connection or process (the stores know who holds a subscription: its subscribe, then a held record every
 * second, a released record on close), and no longer once it closed or, killed, stopped saying so.
 */
class UnsubscribeHeldElsewhereTest {

    @TempDir
    Path dir;

    private static Connection connect(String url) throws JMSException {
        return new Fjm2ConnectionFactory(url).createConnection();
    }

    @Test
    void aSharedDurableSubscriptionWithMembersInAnotherConnectionCannotBeUnsubscribedUntilTheyClose()
            throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")));
             Connection members = connect(group);
             Connection other = connect(group)) {
            Session ms = members.createSession();
            MessageConsumer first = ms.createSharedDurableConsumer(ms.createTopic("jobs"), "workers");
            MessageConsumer second = ms.createSharedDurableConsumer(ms.createTopic("jobs"), "workers");
            Session os = other.createSession();
            assertThatThrownBy(() -> os.unsubscribe("workers")).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("active consumer in another connection");
            first.close();
            assertThatThrownBy(() -> os.unsubscribe("workers")).as("one member is still there")
                    .isInstanceOf(IllegalStateException.class);
            second.close();
            os.unsubscribe("workers");
            assertThatThrownBy(() -> os.unsubscribe("workers")).hasMessageContaining("no durable subscription");
        }
    }

    /**
     * A store that has just started (here without the catch-up wait, which would hide this) has not yet heard the
     * holders' next held record: it decides an unsubscribe only once it has (without that wait it would remove a
     * subscription the other stores keep).
     */
    @Test
    void aStoreThatJustStartedWaitsToKnowTheHoldersBeforeItDecides() throws Exception {
        String group = TestGroups.url("");
        Path data = dir.resolve("a");
        try (Connection members = connect(group); Connection other = connect(group)) {
            Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, data));
            Session ms = members.createSession();
            MessageConsumer member = ms.createSharedDurableConsumer(ms.createTopic("jobs"), "restart");
            store.close();
            try (Fjm2Store restarted = Fjm2Store.start(StoreSettings.of(group, data).withCatchUpWait(Duration.ZERO))) {
                long start = System.nanoTime();
                assertThatThrownBy(() -> other.createSession().unsubscribe("restart"))
                        .isInstanceOf(IllegalStateException.class).hasMessageContaining("another connection");
                long waited = (System.nanoTime() - start) / 1_000_000;
                System.out.println("the unsubscribe to a store that had just started waited " + waited + " ms");
                member.close();
                other.createSession().unsubscribe("restart");
            }
        }
    }

    /**
     * An unshared durable subscriber in a process of its own (the same client id cannot be used twice in one JVM):
     * unsubscribe fails while it runs; killed with -9, it stops saying it holds the subscription, and the unsubscribe
     * succeeds within {@link DurableSubscriptionFlyweight#HOLD_TIMEOUT_MILLIS} of its last held record.
     */
    @Test
    void aDurableSubscriberInAnotherProcessBlocksUnsubscribeUntilItIsKilledAndSilent() throws Exception {
        String group = TestGroups.url("");
        try (Fjm2Store store = Fjm2Store.start(StoreSettings.of(group, dir.resolve("a")))) {
            long killedAt;
            try (ChildJvm subscriber = new ChildJvm("256m", DurableSubscriberProcess.class, group, "elsewhere", "d",
                    "t")) {
                assertThat(subscriber.awaitLine("READY", 30)).as(subscriber.output()).isEqualTo("READY");
                try (Connection c = connect(TestGroups.sameGroup(group, "clientID=elsewhere"))) {
                    Session s = c.createSession();
                    for (int i = 0; i < 3; i++) { // across several of the holder's refresh periods
                        assertThatThrownBy(() -> s.unsubscribe("d")).isInstanceOf(IllegalStateException.class)
                                .hasMessageContaining("active consumer in another connection");
                        Thread.sleep(DurableSubscriptionFlyweight.HOLD_REFRESH_MILLIS / 2);
                    }
                }
                assertThat(subscriber.kill(10)).as("subscriber killed").isTrue();
                killedAt = System.nanoTime();
            }
            try (Connection c = connect(TestGroups.sameGroup(group, "clientID=elsewhere"))) {
                Session s = c.createSession();
                long deadline = killedAt + (DurableSubscriptionFlyweight.HOLD_TIMEOUT_MILLIS + 3_000) * 1_000_000;
                boolean removed = false;
                while (!removed && System.nanoTime() < deadline) {
                    try {
                        s.unsubscribe("d");
                        removed = true;
                    } catch (IllegalStateException stillHeld) {
                        Thread.sleep(200);
                    }
                }
                long after = (System.nanoTime() - killedAt) / 1_000_000;
                System.out.println("unsubscribed " + after + " ms after the holder's kill");
                assertThat(removed).as("unsubscribed once the killed holder went silent").isTrue();
                assertThatThrownBy(() -> s.unsubscribe("d")).hasMessageContaining("no durable subscription");
            }
        }
    }
}
