package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.Topic;
import org.fjm2.jms.Fjm2ConnectionFactory;
import org.junit.jupiter.api.Test;

/**
 * The behaviours the Jakarta Messaging TCK checks of durable and shared subscriptions through JMSContext, written
 * here against FJM2 with one store (see {@link DurableConformanceTest}): a context with the client id "cts"
 * configured, another with none.
 */
class ContextDurableConformanceTest extends OneStorePerClass {

    private static JMSContext cts() {
        return context(TestGroups.sameGroup(group, "clientID=cts"));
    }

    private static JMSContext plain() {
        return context(group);
    }

    private static JMSContext context(String url) {
        try {
            return new Fjm2ConnectionFactory(url).createContext();
        } catch (jakarta.jms.JMSException e) {
            throw new AssertionError(e);
        }
    }

    private static String receive(JMSConsumer c) {
        return c.receiveBody(String.class, SOME_MILLIS);
    }

    private static String receiveNothing(JMSConsumer c) {
        return c.receiveBody(String.class, NOTHING_MILLIS);
    }

    /** The message one of two shared consumers gets (polling both), the other getting nothing. */
    private static String receiveFromEither(JMSConsumer a, JMSConsumer b) {
        long deadline = System.nanoTime() + SOME_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            for (JMSConsumer c : new JMSConsumer[] {a, b}) {
                String got = c.receiveBody(String.class, 20);
                if (got != null) {
                    assertThat(receiveNothing(c == a ? b : a)).as("the other consumer").isNull();
                    return got;
                }
            }
        }
        return null;
    }

    private static void sendLast(JMSContext context, Topic t, String prefix) {
        JMSProducer p = context.createProducer();
        for (int i = 1; i <= 3; i++) {
            p.setProperty("lastMessage", i == 3).send(t, prefix + i);
        }
    }

    @Test
    void clientIdConfiguredAdministrativelyIsTheOneGiven() {
        try (JMSContext context = cts()) {
            assertThat(context.getClientID()).isEqualTo("cts");
        }
    }

    @Test
    void aDurableConsumerGetsOnItsReturnWhatWasSentWhileItWasClosed() {
        try (JMSContext context = cts(); JMSContext other = plain()) {
            Topic t = context.createTopic("ctx.durable");
            JMSConsumer consumer = context.createDurableConsumer(t, "durable");
            other.createProducer().send(t, "one");
            assertThat(receive(consumer)).as("sent from a context without client id").isEqualTo("one");
            consumer.close();
            context.createProducer().send(t, "two");
            JMSConsumer back = context.createDurableConsumer(t, "durable");
            assertThat(receive(back)).isEqualTo("two");
            assertThat(receiveNothing(back)).isNull();
            back.close();
            context.unsubscribe("durable");
        }
    }

    @Test
    void reopeningWithNoLocalReplacesTheSubscriptionSilently() {
        try (JMSContext context = cts()) {
            Topic t = context.createTopic("ctx.selnolocal");
            JMSConsumer consumer = context.createDurableConsumer(t, "selnolocal", "lastMessage = TRUE", false);
            sendLast(context, t, "m");
            assertThat(receive(consumer)).isEqualTo("m3");
            assertThat(receiveNothing(consumer)).isNull();
            consumer.close(); // no unsubscribe
            JMSConsumer local = context.createDurableConsumer(t, "selnolocal", "lastMessage = TRUE", true);
            sendLast(context, t, "n");
            assertThat(receiveNothing(local)).isNull();
            local.close();
            context.unsubscribe("selnolocal");
        }
    }

    @Test
    void noLocalDurableConsumerBesideAPlainOneThenChangedToNoLocalFalse() {
        try (JMSContext context = cts()) {
            Topic t = context.createTopic("ctx.nolocal");
            JMSConsumer plainConsumer = context.createConsumer(t);
            JMSConsumer durable = context.createDurableConsumer(t, "nolocal", null, true);
            context.createProducer().send(t, "local");
            assertThat(receive(plainConsumer)).isEqualTo("local");
            assertThat(receiveNothing(durable)).isNull();
            durable.close();
            context.createProducer().send(t, "local while inactive");
            assertThat(receive(plainConsumer)).isEqualTo("local while inactive");
            JMSConsumer changed = context.createDurableConsumer(t, "nolocal", null, false);
            assertThat(receiveNothing(changed)).as("a new subscription: nothing from before").isNull();
            for (int i = 0; i < 10; i++) {
                context.createProducer().send(t, "now " + i);
            }
            for (int i = 0; i < 10; i++) {
                assertThat(receive(changed)).isEqualTo("now " + i);
            }
            assertThat(receiveNothing(changed)).isNull();
            changed.close();
            context.unsubscribe("nolocal");
        }
    }

    @Test
    void changingTheSelectorSkipsTheOldAndDiscardsWhatTheOldFilteredOut() {
        try (JMSContext context = cts()) {
            Topic t = context.createTopic("ctx.selector");
            context.createDurableConsumer(t, "selector", "TEST = 'test'", false).close();
            JMSConsumer changed = context.createDurableConsumer(t, "selector", "TEST = 'new one'", false);
            context.createProducer().setProperty("TEST", "test").send(t, "old");
            context.createProducer().setProperty("TEST", "new one").send(t, "new");
            assertThat(receive(changed)).isEqualTo("new");
            changed.close();
            context.unsubscribe("selector");

            JMSConsumer first = context.createDurableConsumer(t, "selector2", "TEST = 'test'", false);
            context.createProducer().setProperty("TEST", "test").send(t, "matches");
            assertThat(receive(first)).isEqualTo("matches");
            context.createProducer().setProperty("TEST", "test again").send(t, "does not");
            assertThat(receiveNothing(first)).isNull();
            first.close();
            JMSConsumer second = context.createDurableConsumer(t, "selector2", "TEST = 'test again'", false);
            assertThat(receiveNothing(second)).isNull();
            second.close();
            context.unsubscribe("selector2");
        }
    }

    @Test
    void sharedDurableConsumersWithAndWithoutClientIdShareWithoutRedelivery() {
        for (boolean clientId : new boolean[] {true, false}) {
            try (JMSContext context = clientId ? cts() : plain()) {
                Topic t = context.createTopic("ctx.shareddurable." + clientId);
                JMSConsumer one = context.createSharedDurableConsumer(t, "shareddurable");
                JMSConsumer two = context.createSharedDurableConsumer(t, "shareddurable");
                context.createProducer().send(t, "m1");
                assertThat(receiveFromEither(one, two)).isEqualTo("m1");
                one.close();
                context.createProducer().send(t, "m2");
                assertThat(receive(two)).as("the member left").isEqualTo("m2");
                one = context.createSharedDurableConsumer(t, "shareddurable");
                assertThat(receiveNothing(one)).isNull();
                assertThat(receiveNothing(two)).isNull();
                one.close();
                two.close();
                context.unsubscribe("shareddurable");
            }
        }
    }

    @Test
    void aSharedDurableConsumerWithASelectorGetsOnlyWhatMatches() {
        try (JMSContext context = cts()) {
            Topic t = context.createTopic("ctx.shareddurable.selector");
            JMSConsumer one = context.createSharedDurableConsumer(t, "sdselector", "lastMessage = TRUE");
            JMSConsumer two = context.createSharedDurableConsumer(t, "sdselector", "lastMessage = TRUE");
            sendLast(context, t, "m");
            assertThat(receiveFromEither(one, two)).isEqualTo("m3");
            one.close();
            two.close();
            context.unsubscribe("sdselector");
        }
    }

    /** As the TCK: the first consumer asks first and gets the first matching message, the second the next. */
    @Test
    void sharedConsumersEachGetAMessageWhicheverAsksFirst() {
        try (JMSContext context = plain()) {
            Topic t = context.createTopic("ctx.shared.first");
            JMSConsumer one = context.createSharedConsumer(t, "sharedfirst", "lastMessage = TRUE");
            JMSConsumer two = context.createSharedConsumer(t, "sharedfirst", "lastMessage = TRUE");
            sendLast(context, t, "m");
            assertThat(receive(one)).isEqualTo("m3");
            assertThat(receiveNothing(two)).isNull();
            sendLast(context, t, "n");
            assertThat(receive(two)).isEqualTo("n3");
            assertThat(receiveNothing(one)).isNull();
            one.close();
            two.close();
        }
    }

    /** As the TCK's createSharedDurableConsumerTest1: the first consumer gets the first message. */
    @Test
    void theSharedDurableConsumerThatAsksGetsTheMessage() {
        try (JMSContext context = cts()) {
            Topic t = context.createTopic("ctx.shareddurable.first");
            JMSConsumer one = context.createSharedDurableConsumer(t, "sdfirst");
            JMSConsumer two = context.createSharedDurableConsumer(t, "sdfirst");
            context.createProducer().send(t, "m1");
            assertThat(receive(one)).isEqualTo("m1");
            one.close();
            context.createProducer().send(t, "m2");
            assertThat(receive(two)).isEqualTo("m2");
            two.close();
            context.unsubscribe("sdfirst");
        }
    }

    @Test
    void aNullTopicOrAnUnknownNameIsAnInvalidDestinationEvenWithoutClientId() {
        try (JMSContext context = plain()) {
            assertThatThrownBy(() -> context.createDurableConsumer(null, "n"))
                    .isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> context.createDurableConsumer(null, "n", "TEST = 'test'", false))
                    .isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> context.createSharedDurableConsumer(null, "n"))
                    .isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> context.createSharedDurableConsumer(null, "n", "TEST = 'test'"))
                    .isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> context.createSharedConsumer(null, "n"))
                    .isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> context.createSharedConsumer(null, "n", "TEST = 'test'"))
                    .isInstanceOf(InvalidDestinationRuntimeException.class);
            assertThatThrownBy(() -> context.unsubscribe("InvalidSubscriptionName"))
                    .isInstanceOf(InvalidDestinationRuntimeException.class);
        }
    }

    @Test
    void aBadSelectorIsAnInvalidSelector() {
        String bad = "=TEST 'test'";
        try (JMSContext context = cts()) {
            Topic t = context.createTopic("ctx.badselector");
            assertThatThrownBy(() -> context.createDurableConsumer(t, "bad", bad, false))
                    .isInstanceOf(InvalidSelectorRuntimeException.class);
        }
        try (JMSContext context = plain()) {
            Topic t = context.createTopic("ctx.badselector");
            assertThatThrownBy(() -> context.createSharedDurableConsumer(t, "bad", bad))
                    .isInstanceOf(InvalidSelectorRuntimeException.class);
            assertThatThrownBy(() -> context.createSharedConsumer(t, "bad", bad))
                    .isInstanceOf(InvalidSelectorRuntimeException.class);
        }
    }

    @Test
    void aSecondConsumerOfAnActiveNameWithAnotherTopicOrSelectorIsRefused() {
        try (JMSContext context = cts()) {
            Topic t = context.createTopic("ctx.conflict.a");
            Topic t2 = context.createTopic("ctx.conflict.b");
            JMSConsumer shared = context.createSharedConsumer(t, "c.shared");
            assertThatThrownBy(() -> context.createSharedConsumer(t2, "c.shared"))
                    .isInstanceOf(JMSRuntimeException.class);
            shared.close();
            JMSConsumer sharedSel = context.createSharedConsumer(t, "c.sharedsel", "TEST = 'test'");
            assertThatThrownBy(() -> context.createSharedConsumer(t2, "c.sharedsel", "TEST = 'test'"))
                    .isInstanceOf(JMSRuntimeException.class);
            sharedSel.close();
            JMSConsumer sd = context.createSharedDurableConsumer(t, "c.sd", "TEST = 'test'");
            assertThatThrownBy(() -> context.createSharedDurableConsumer(t, "c.sd", "TEST = 'test2'"))
                    .isInstanceOf(JMSRuntimeException.class);
            sd.close();
            context.unsubscribe("c.sd");
            JMSConsumer durable = context.createDurableConsumer(t, "c.durable");
            assertThatThrownBy(() -> context.createDurableConsumer(t2, "c.durable"))
                    .isInstanceOf(JMSRuntimeException.class);
            durable.close();
            context.unsubscribe("c.durable");
            JMSConsumer sd2 = context.createSharedDurableConsumer(t, "c.sd2");
            assertThatThrownBy(() -> context.createSharedDurableConsumer(t2, "c.sd2"))
                    .isInstanceOf(JMSRuntimeException.class);
            sd2.close();
            context.unsubscribe("c.sd2");
            JMSConsumer local = context.createDurableConsumer(t, "c.local", "TEST = 'test'", true);
            assertThatThrownBy(() -> context.createDurableConsumer(t, "c.local", "TEST = 'test2'", false))
                    .isInstanceOf(JMSRuntimeException.class);
            local.close();
            context.unsubscribe("c.local");
        }
    }

    @Test
    void withoutAClientIdUnsharedDurableConsumersAreIllegalState() {
        try (JMSContext context = plain()) {
            Topic t = context.createTopic("ctx.nocid");
            assertThatThrownBy(() -> context.createDurableConsumer(t, "n"))
                    .isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(() -> context.createDurableConsumer(t, "n", "TEST = 'test'", false))
                    .isInstanceOf(IllegalStateRuntimeException.class);
            assertThatThrownBy(() -> context.createDurableConsumer(t, "n", "TEST = 'test'", true))
                    .isInstanceOf(IllegalStateRuntimeException.class);
        }
    }
}
