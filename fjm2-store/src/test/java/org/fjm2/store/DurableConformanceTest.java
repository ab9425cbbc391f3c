package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import jakarta.jms.Topic;
import jakarta.jms.TopicConnection;
import jakarta.jms.TopicSession;
import jakarta.jms.TopicSubscriber;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;

/**
 * The behaviours the Jakarta Messaging TCK checks of durable and shared subscriptions through the classic API
 * (Connection, Session, TopicSession), each written here against FJM2 with one store (the TCK itself is not served
 * where FJM2 is built). As in the TCK, one connection factory has the client id "cts" configured, another none; each
 * test uses its own topics and names. Queues are outside FJM2 (publish/subscribe only), so the TCK's QueueSession
 * cases are not here.
 */
class DurableConformanceTest extends OneStorePerClass {

    /** The TCK's durable connection factory: client id "cts" configured administratively. */
    private static TopicConnection cts() throws JMSException {
        return new Fjm2ConnectionFactory(TestGroups.sameGroup(group, "clientID=cts")).createTopicConnection();
    }

    /** The TCK's plain connection factory: no client id. */
    private static TopicConnection plain() throws JMSException {
        return new Fjm2ConnectionFactory(group).createTopicConnection();
    }

    private static void send(Session s, Topic t, String text) throws JMSException {
        send(s, t, text, null, null);
    }

    private static void send(Session s, Topic t, String text, String property, String value) throws JMSException {
        try (MessageProducer p = s.createProducer(t)) {
            TextMessage m = s.createTextMessage(text);
            if (property != null) {
                m.setStringProperty(property, value);
            }
            p.send(m);
        }
    }

    private static String text(Message m) throws JMSException {
        return m == null ? null : ((TextMessage) m).getText();
    }

    private static String receive(MessageConsumer c) throws JMSException {
        return text(c.receive(SOME_MILLIS));
    }

    private static String receiveNothing(MessageConsumer c) throws JMSException {
        return text(c.receive(NOTHING_MILLIS));
    }

    // --------------------------------------------------------------- core/topictests, core20/sessiontests

    @Test
    void aDurableSubscriberReceivesWhatItsOwnConnectionPublishes() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.simple");
            TopicSubscriber sub = s.createDurableSubscriber(t, "simple");
            c.start();
            send(s, t, "one");
            assertThat(receive(sub)).isEqualTo("one");
            sub.close();
            s.unsubscribe("simple");
        }
    }

    @Test
    void anInactiveDurableSubscriberGetsOnItsReturnInANewConnectionWhatWasSentMeanwhile() throws Exception {
        Topic t;
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            t = s.createTopic("conf.inactive");
            TopicSubscriber sub = s.createDurableSubscriber(t, "inactive");
            c.start();
            send(s, t, "first");
            assertThat(receive(sub)).isEqualTo("first");
            sub.close();
            send(s, t, "second");
        }
        try (TopicConnection c = cts()) { // the client id is free again once the first connection closed
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            TopicSubscriber sub = s.createDurableSubscriber(t, "inactive");
            c.start();
            assertThat(receive(sub)).isEqualTo("second");
            assertThat(receiveNothing(sub)).isNull();
            sub.close();
            s.unsubscribe("inactive");
        }
    }

    @Test
    void noLocalKeepsTheOwnConnectionsMessagesOutOfTheSubscriptionEvenWhileInactive() throws Exception {
        try (TopicConnection c = cts(); TopicConnection other = plain()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.nolocal");
            TopicSubscriber sub = s.createDurableSubscriber(t, "nolocal", "", true);
            c.start();
            for (int i = 0; i < 11; i++) {
                send(s, t, "local " + i);
            }
            TopicSession os = other.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            send(os, t, "remote");
            assertThat(receive(sub)).as("the first message is the other connection's").isEqualTo("remote");
            sub.close();
            send(s, t, "local while inactive");
            send(os, t, "remote while inactive");
            TopicSubscriber back = s.createDurableSubscriber(t, "nolocal", "", true);
            assertThat(receive(back)).isEqualTo("remote while inactive");
            assertThat(receiveNothing(back)).isNull();
            back.close();
            s.unsubscribe("nolocal");
        }
    }

    @Test
    void changingNoLocalMakesANewSubscriptionWithoutTheOldMessages() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.nolocal2");
            TopicSubscriber sub = s.createDurableSubscriber(t, "nolocal2", "", true);
            c.start();
            send(s, t, "local");
            assertThat(receiveNothing(sub)).isNull();
            sub.close();
            send(s, t, "local while inactive");
            TopicSubscriber changed = s.createDurableSubscriber(t, "nolocal2", "", false);
            assertThat(receiveNothing(changed)).as("a new subscription: nothing from before").isNull();
            for (int i = 0; i < 10; i++) {
                send(s, t, "now " + i);
            }
            for (int i = 0; i < 10; i++) {
                assertThat(receive(changed)).isEqualTo("now " + i);
            }
            assertThat(receiveNothing(changed)).isNull();
            changed.close();
            s.unsubscribe("nolocal2");
        }
    }

    @Test
    void changingTheTopicMakesANewSubscriptionOnTheNewTopic() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic first = s.createTopic("conf.newtopic.a");
            Topic second = s.createTopic("conf.newtopic.b");
            s.createDurableSubscriber(first, "newtopic").close();
            send(s, first, "old topic");
            TopicSubscriber sub = s.createDurableSubscriber(second, "newtopic");
            c.start();
            send(s, second, "new topic");
            assertThat(receive(sub)).isEqualTo("new topic");
            assertThat(receiveNothing(sub)).isNull();
            sub.close();
            s.unsubscribe("newtopic");
        }
    }

    @Test
    void changingTheSelectorDiscardsWhatTheOldSelectorKept() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.selector");
            s.createDurableSubscriber(t, "selector", "TEST = 'test'", false).close();
            TopicSubscriber sub = s.createDurableSubscriber(t, "selector", "TEST = 'new one'", false);
            c.start();
            send(s, t, "old", "TEST", "test");
            send(s, t, "new", "TEST", "new one");
            assertThat(receive(sub)).isEqualTo("new");
            sub.close();
            s.unsubscribe("selector");
        }
    }

    @Test
    void aMessageTheOldSelectorFilteredOutDoesNotComeWithTheNewSelector() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.selector2");
            TopicSubscriber sub = s.createDurableSubscriber(t, "selector2", "TEST = 'test'", false);
            c.start();
            send(s, t, "matches", "TEST", "test");
            assertThat(receive(sub)).isEqualTo("matches");
            send(s, t, "does not", "TEST", "test again");
            assertThat(receiveNothing(sub)).isNull();
            sub.close();
            TopicSubscriber changed = s.createDurableSubscriber(t, "selector2", "TEST = 'test again'", false);
            assertThat(receiveNothing(changed)).isNull();
            changed.close();
            s.unsubscribe("selector2");
        }
    }

    // --------------------------------------------------------------- core/selectorTopic

    @Test
    void anEmptyOrNullSelectorIsNoSelectorAndKeepsTheSubscription() throws Exception {
        for (String none : new String[] {"", null}) {
            String name = none == null ? "nullsel" : "emptysel";
            Topic t;
            try (TopicConnection c = cts()) {
                TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
                t = s.createTopic("conf." + name);
                s.createDurableSubscriber(t, name, none, false).close();
            }
            try (TopicConnection other = plain()) {
                send(other.createTopicSession(false, Session.AUTO_ACKNOWLEDGE), t, "kept " + name);
            }
            try (TopicConnection c = cts()) {
                TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
                TopicSubscriber sub = s.createDurableSubscriber(t, name);
                c.start();
                assertThat(receive(sub)).as("selector %s", none == null ? "null" : "''").isEqualTo("kept " + name);
                sub.close();
                s.unsubscribe(name);
            }
        }
    }

    // --------------------------------------------------------------- core/sessiontests

    @Test
    void threeDurableSubscribersOfOneConnectionEachApplyTheirSelectorAndNoLocal() throws Exception {
        try (Connection c = cts(); Connection other = plain()) {
            Session s = c.createSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.three");
            TopicSubscriber noLocal = s.createDurableSubscriber(t, "three.nolocal", "", true);
            TopicSubscriber selecting = s.createDurableSubscriber(t, "three.selector", "TEST = 'test'", false);
            TopicSubscriber all = s.createDurableSubscriber(t, "three.all");
            c.start();
            send(s, t, "plain");
            send(s, t, "marked", "TEST", "test");
            assertThat(receive(all)).isEqualTo("plain");
            assertThat(receive(all)).isEqualTo("marked");
            assertThat(receive(selecting)).isEqualTo("marked");
            assertThat(receiveNothing(noLocal)).isNull();
            send(other.createSession(), t, "from elsewhere");
            assertThat(receive(noLocal)).isEqualTo("from elsewhere");
            noLocal.close();
            selecting.close();
            all.close();
            s.unsubscribe("three.nolocal");
            s.unsubscribe("three.selector");
            s.unsubscribe("three.all");
        }
    }

    @Test
    void anUnknownNameOrANullTopicIsAnInvalidDestination() throws Exception {
        try (Connection c = cts()) {
            Session s = c.createSession();
            assertThatThrownBy(() -> s.unsubscribe("foo")).isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createDurableSubscriber(null, "cts"))
                    .isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createDurableSubscriber(null, "cts", "TEST = 'test'", true))
                    .isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createDurableConsumer(null, "cts"))
                    .isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createDurableConsumer(null, "cts", "TEST = 'test'", true))
                    .isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createSharedConsumer(null, "cts"))
                    .isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createSharedConsumer(null, "cts", "TEST = 'test'"))
                    .isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createSharedDurableConsumer(null, "cts"))
                    .isInstanceOf(InvalidDestinationException.class);
            assertThatThrownBy(() -> s.createSharedDurableConsumer(null, "cts", "TEST = 'test'"))
                    .isInstanceOf(InvalidDestinationException.class);
            TopicSession ts = ((TopicConnection) c).createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(() -> ts.unsubscribe("invalidSubscriptionName"))
                    .isInstanceOf(InvalidDestinationException.class);
        }
    }

    @Test
    void aBadSelectorIsAnInvalidSelector() throws Exception {
        try (Connection c = cts()) {
            Session s = c.createSession();
            Topic t = s.createTopic("conf.badselector");
            String bad = "=TEST 'test'";
            assertThatThrownBy(() -> s.createDurableSubscriber(t, "badsel", bad, true))
                    .isInstanceOf(InvalidSelectorException.class);
            assertThatThrownBy(() -> s.createDurableConsumer(t, "badsel", bad, false))
                    .isInstanceOf(InvalidSelectorException.class);
            assertThatThrownBy(() -> s.createSharedConsumer(t, "badsel", bad))
                    .isInstanceOf(InvalidSelectorException.class);
            assertThatThrownBy(() -> s.createSharedDurableConsumer(t, "badsel", bad))
                    .isInstanceOf(InvalidSelectorException.class);
        }
    }

    // --------------------------------------------------------------- core/closedTopicSession

    @Test
    void aClosedSessionRefusesDurableCallsWithIllegalStateFirst() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.closed");
            s.close();
            assertThatThrownBy(() -> s.createDurableSubscriber(t, "closed")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> s.createDurableSubscriber(t, "closed", "TEST = 'test'", false))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> s.unsubscribe("TestDurableSubscription"))
                    .as("not InvalidDestinationException: the closed session comes first")
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    // --------------------------------------------------------------- core20/sessiontests

    @Test
    void withoutAClientIdUnsharedDurableCallsAreIllegalState() throws Exception {
        try (Connection c = plain()) {
            Session s = c.createSession();
            Topic t = s.createTopic("conf.nocid");
            assertThatThrownBy(() -> s.createDurableSubscriber(t, "nocid")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> s.createDurableSubscriber(t, "nocid", "TEST = 'test'", true))
                    .isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> s.createDurableConsumer(t, "nocid")).isInstanceOf(IllegalStateException.class);
            assertThatThrownBy(() -> s.createDurableConsumer(t, "nocid", "TEST = 'test'", true))
                    .isInstanceOf(IllegalStateException.class);
            TopicSession ts = ((TopicConnection) c).createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            assertThatThrownBy(() -> ts.createDurableSubscriber(t, "nocid", "TEST = 'test'", true))
                    .isInstanceOf(IllegalStateException.class);
        }
    }

    @Test
    void aDurableSubscriberWithASelectorThenNoLocal() throws Exception {
        try (Connection c = cts()) {
            Session s = c.createSession();
            Topic t = s.createTopic("conf.sel.nolocal");
            TopicSubscriber sub = s.createDurableSubscriber(t, "selnolocal", "lastMessage = TRUE", false);
            c.start();
            try (MessageProducer p = s.createProducer(t)) {
                for (int i = 1; i <= 3; i++) {
                    TextMessage m = s.createTextMessage("m" + i);
                    m.setBooleanProperty("lastMessage", i == 3);
                    p.send(m);
                }
            }
            assertThat(receive(sub)).isEqualTo("m3");
            assertThat(receiveNothing(sub)).isNull();
            sub.close();
            s.unsubscribe("selnolocal");
            MessageConsumer local = s.createDurableConsumer(t, "selnolocal", "lastMessage = TRUE", true);
            try (MessageProducer p = s.createProducer(t)) {
                for (int i = 1; i <= 3; i++) {
                    TextMessage m = s.createTextMessage("n" + i);
                    m.setBooleanProperty("lastMessage", i == 3);
                    p.send(m);
                }
            }
            assertThat(receiveNothing(local)).isNull();
            local.close();
            s.unsubscribe("selnolocal");
        }
    }

    @Test
    void aDurableConsumerGetsOnItsReturnWhatWasSentWhileItWasClosed() throws Exception {
        try (Connection c = cts()) {
            Session s = c.createSession();
            Topic t = s.createTopic("conf.consumer");
            MessageConsumer consumer = s.createDurableConsumer(t, "consumer");
            c.start();
            send(s, t, "one");
            assertThat(receive(consumer)).isEqualTo("one");
            consumer.close();
            send(s, t, "two");
            MessageConsumer back = s.createDurableConsumer(t, "consumer");
            assertThat(receive(back)).isEqualTo("two");
            back.close();
            s.unsubscribe("consumer");
        }
    }

    /** The message one of two shared consumers gets (polling both), the other getting nothing. */
    private static String receiveFromEither(MessageConsumer a, MessageConsumer b) throws JMSException {
        long deadline = System.nanoTime() + SOME_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            for (MessageConsumer c : new MessageConsumer[] {a, b}) {
                String got = text(c.receive(20));
                if (got != null) {
                    assertThat(receiveNothing(c == a ? b : a)).as("the other consumer").isNull();
                    return got;
                }
            }
        }
        return null;
    }

    /**
     * The TCK's createSharedConsumerTopicTest1: a message reaches whichever shared consumer of the session calls
     * receive (the first consumer gets the first message, the second the second), although FJM2 hashes each message
     * to one member: consumers of one connection that acknowledge on delivery borrow from each other's queues.
     */
    @Test
    void sharedConsumersOfOneSessionEachGetAMessageWhicheverAsksFirst() throws Exception {
        try (Connection c = plain()) {
            Session s = c.createSession();
            Topic t = s.createTopic("conf.shared.first");
            MessageConsumer one = s.createSharedConsumer(t, "sharedfirst");
            MessageConsumer two = s.createSharedConsumer(t, "sharedfirst");
            c.start();
            send(s, t, "m1");
            assertThat(receive(one)).isEqualTo("m1");
            assertThat(receiveNothing(two)).isNull();
            send(s, t, "m2");
            assertThat(receive(two)).isEqualTo("m2");
            assertThat(receiveNothing(one)).isNull();
            one.close();
            two.close();
        }
    }

    @Test
    void sharedDurableConsumersShareWithoutDuplicatesAcrossACloseWithAndWithoutClientId() throws Exception {
        for (boolean clientId : new boolean[] {true, false}) {
            try (Connection c = clientId ? cts() : plain()) {
                Session s = c.createSession();
                Topic t = s.createTopic("conf.shareddurable." + clientId);
                MessageConsumer one = s.createSharedDurableConsumer(t, "shareddurable");
                MessageConsumer two = s.createSharedDurableConsumer(t, "shareddurable");
                c.start();
                send(s, t, "m1");
                assertThat(receiveFromEither(one, two)).isEqualTo("m1");
                one.close();
                send(s, t, "m2");
                assertThat(receive(two)).as("the member left").isEqualTo("m2");
                one = s.createSharedDurableConsumer(t, "shareddurable");
                assertThat(receiveNothing(one)).as("no redelivery, client id %s", clientId).isNull();
                assertThat(receiveNothing(two)).isNull();
                one.close();
                two.close();
                s.unsubscribe("shareddurable");
            }
        }
    }

    @Test
    void sharedDurableConsumersWithASelectorGetOnlyWhatMatches() throws Exception {
        try (Connection c = cts()) {
            Session s = c.createSession();
            Topic t = s.createTopic("conf.shareddurable.selector");
            MessageConsumer one = s.createSharedDurableConsumer(t, "sdselector", "lastMessage = TRUE");
            MessageConsumer two = s.createSharedDurableConsumer(t, "sdselector", "lastMessage = TRUE");
            c.start();
            try (MessageProducer p = s.createProducer(t)) {
                for (int i = 1; i <= 3; i++) {
                    TextMessage m = s.createTextMessage("m" + i);
                    m.setBooleanProperty("lastMessage", i == 3);
                    p.send(m);
                }
            }
            assertThat(receiveFromEither(one, two)).isEqualTo("m3");
            one.close();
            two.close();
            s.unsubscribe("sdselector");
        }
    }

    @Test
    void aSecondConsumerOfAnActiveNameWithAnotherTopicOrSelectorIsRefused() throws Exception {
        try (Connection c = cts()) {
            Session s = c.createSession();
            Topic t = s.createTopic("conf.conflict.a");
            Topic t2 = s.createTopic("conf.conflict.b");
            TopicSubscriber durable = s.createDurableSubscriber(t, "conflict.durable");
            assertThatThrownBy(() -> s.createDurableSubscriber(t2, "conflict.durable"))
                    .isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> s.createDurableSubscriber(t2, "conflict.durable", "TEST = 'test'", false))
                    .isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> s.createDurableConsumer(t2, "conflict.durable"))
                    .isInstanceOf(JMSException.class);
            durable.close();
            s.unsubscribe("conflict.durable");

            MessageConsumer shared = s.createSharedConsumer(t, "conflict.shared");
            assertThatThrownBy(() -> s.createSharedConsumer(t2, "conflict.shared")).isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> s.createSharedConsumer(t2, "conflict.shared", "TEST = 'test'"))
                    .isInstanceOf(JMSException.class);
            shared.close();

            MessageConsumer sharedDurable = s.createSharedDurableConsumer(t, "conflict.sd", "TEST = 'test'");
            assertThatThrownBy(() -> s.createSharedDurableConsumer(t, "conflict.sd", "TEST = 'test2'"))
                    .as("same topic, another selector").isInstanceOf(JMSException.class);
            assertThatThrownBy(() -> s.createSharedDurableConsumer(t2, "conflict.sd"))
                    .isInstanceOf(JMSException.class);
            sharedDurable.close();
            s.unsubscribe("conflict.sd");

            MessageConsumer consumer = s.createDurableConsumer(t, "conflict.consumer", "TEST = 'test'", true);
            assertThatThrownBy(() -> s.createDurableConsumer(t, "conflict.consumer", "TEST = 'test2'", false))
                    .isInstanceOf(JMSException.class);
            consumer.close();
            s.unsubscribe("conflict.consumer");
        }
    }

    // --------------------------------------------------------------- core/appclient/txtopictests

    @Test
    void aCommitAcknowledgesForGoodAndTheNextSessionGetsTheNextMessage() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession tx = c.createTopicSession(true, Session.SESSION_TRANSACTED);
            Topic t = tx.createTopic("conf.tx.commit");
            TopicSubscriber sub = tx.createDurableSubscriber(t, "txcommit");
            c.start();
            send(tx, t, "m1");
            send(tx, t, "m2");
            tx.commit();
            assertThat(receive(sub)).isEqualTo("m1");
            tx.commit();
            tx.close();
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            TopicSubscriber back = s.createDurableSubscriber(t, "txcommit");
            assertThat(receive(back)).isEqualTo("m2");
            back.close();
            s.unsubscribe("txcommit");
        }
    }

    @Test
    void closingATransactedSessionOrItsConnectionWithoutCommitRollsTheReceiveBack() throws Exception {
        Topic t;
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            t = s.createTopic("conf.tx.rollback");
            s.createDurableSubscriber(t, "txrollback").close();
            send(s, t, "m1");
            TopicSession tx = c.createTopicSession(true, Session.SESSION_TRANSACTED);
            TopicSubscriber sub = tx.createDurableSubscriber(t, "txrollback");
            c.start();
            assertThat(receive(sub)).isEqualTo("m1");
            tx.close(); // no commit
            TopicSession tx2 = c.createTopicSession(true, Session.SESSION_TRANSACTED);
            TopicSubscriber again = tx2.createDurableSubscriber(t, "txrollback");
            assertThat(receive(again)).as("the session's close rolled the receive back").isEqualTo("m1");
            // the connection closes without a commit
        }
        try (TopicConnection c = cts()) {
            TopicSession tx = c.createTopicSession(true, Session.SESSION_TRANSACTED);
            TopicSubscriber sub = tx.createDurableSubscriber(t, "txrollback");
            c.start();
            assertThat(receive(sub)).as("the connection's close rolled the receive back").isEqualTo("m1");
            tx.commit();
            sub.close();
            tx.unsubscribe("txrollback");
        }
    }

    @Test
    void aRolledBackPublishNeverReachesTheDurableSubscription() throws Exception {
        try (TopicConnection c = cts()) {
            TopicSession s = c.createTopicSession(false, Session.AUTO_ACKNOWLEDGE);
            Topic t = s.createTopic("conf.tx.publish");
            TopicSubscriber sub = s.createDurableSubscriber(t, "txpublish");
            c.start();
            TopicSession tx = c.createTopicSession(true, Session.SESSION_TRANSACTED);
            send(tx, t, "m1");
            tx.commit();
            assertThat(receive(sub)).isEqualTo("m1");
            send(tx, t, "m2");
            tx.rollback();
            send(tx, t, "m3");
            tx.commit();
            assertThat(receive(sub)).isEqualTo("m3");
            sub.close();
            s.unsubscribe("txpublish");
        }
    }
}
