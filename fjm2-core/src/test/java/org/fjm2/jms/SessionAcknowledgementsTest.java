package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.Session;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link SessionAcknowledgements}: what each mode keeps, and recover/rollback giving messages back in order. */
class SessionAcknowledgementsTest {

    private Connection connection;
    private Fjm2MessageConsumer a;
    private Fjm2MessageConsumer b;
    private final ConnectionCounters counters = new ConnectionCounters();

    @BeforeEach
    void consumers() throws Exception {
        connection = InMem.connect(InMem.newUrl());
        Session s = connection.createSession();
        a = (Fjm2MessageConsumer) s.createConsumer(s.createTopic("a"));
        b = (Fjm2MessageConsumer) s.createConsumer(s.createTopic("b"));
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    private static Fjm2Message received(String text) throws Exception {
        Fjm2TextMessage m = new Fjm2TextMessage(text);
        m.deliveryCount(1);
        m.makeReadOnly();
        return m;
    }

    @Test
    void autoAcknowledgeKeepsNothing() throws Exception {
        SessionAcknowledgements acks = new SessionAcknowledgements(Session.AUTO_ACKNOWLEDGE, () -> { }, counters);
        acks.delivered(a, received("x"));
        acks.redeliverUnacknowledged();
        assertThat(a.pollForListener()).as("nothing to redeliver").isNull();
        assertThat(counters.messagesDelivered.sum()).isEqualTo(1);
        assertThat(acks.keepsDelivered()).isFalse();
    }

    @Test
    void clientAcknowledgeRedeliversWhatWasNotAcknowledgedInOrderPerConsumer() throws Exception {
        SessionAcknowledgements acks = new SessionAcknowledgements(Session.CLIENT_ACKNOWLEDGE, () -> { }, counters);
        acks.delivered(a, received("a1"));
        acks.acknowledgeAll();
        acks.delivered(a, received("a2"));
        acks.delivered(b, received("b1"));
        acks.delivered(a, received("a3"));
        acks.redeliverUnacknowledged();

        assertThat(texts(a)).containsExactly("a2:true:2", "a3:true:2");
        assertThat(texts(b)).containsExactly("b1:true:2");
        acks.redeliverUnacknowledged();
        assertThat(a.pollForListener()).as("given back once").isNull();
    }

    @Test
    void aClosedOrForgottenConsumerGetsNothingBack() throws Exception {
        SessionAcknowledgements acks = new SessionAcknowledgements(Session.SESSION_TRANSACTED, null, counters);
        acks.delivered(a, received("a1"));
        acks.delivered(b, received("b1"));
        acks.forget(a);
        b.close();
        acks.redeliverUnacknowledged();
        assertThat(a.pollForListener()).isNull();
        assertThat(b.pollForListener()).isNull();
    }

    @Test
    void onlyClientAcknowledgeMessagesCarryTheAcknowledger() throws Exception {
        List<String> acknowledged = new ArrayList<>();
        Fjm2Message client = received("c");
        new SessionAcknowledgements(Session.CLIENT_ACKNOWLEDGE, () -> acknowledged.add("session"), counters)
                .delivered(a, client);
        client.acknowledge();
        assertThat(acknowledged).containsExactly("session");

        Fjm2Message transacted = received("t");
        new SessionAcknowledgements(Session.SESSION_TRANSACTED, () -> acknowledged.add("wrong"), counters)
                .delivered(a, transacted);
        transacted.acknowledge();
        assertThat(acknowledged).containsExactly("session");
    }

    private static List<String> texts(Fjm2MessageConsumer consumer) throws Exception {
        List<String> out = new ArrayList<>();
        for (Fjm2Message m; (m = consumer.pollForListener()) != null; ) {
            out.add(((Fjm2TextMessage) m).getText() + ":" + m.getJMSRedelivered() + ":"
                    + m.getIntProperty("JMSXDeliveryCount"));
        }
        return out;
    }
}
