package org.fjm2.jms;

import jakarta.jms.Connection;
import jakarta.jms.MessageListener;
import jakarta.jms.Session;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link ListenerDelivery}: what happens to a message whose MessageListener throws, per acknowledgement mode. */
class ListenerDeliveryTest {

    private static final int MAX_REDELIVERIES = 2;

    private Connection connection;
    private Fjm2MessageConsumer consumer;
    private final ConnectionCounters counters = new ConnectionCounters();
    private final List<Integer> deliveryCounts = new ArrayList<>();
    private final MessageListener failing = m -> {
        deliveryCounts.add(((Fjm2Message) m).deliveryCount());
        throw new IllegalStateException("listener fails (test)");
    };

    @BeforeEach
    void consumer() throws Exception {
        connection = InMem.connect(InMem.newUrl());
        Session s = connection.createSession();
        consumer = (Fjm2MessageConsumer) s.createConsumer(s.createTopic("t"));
    }

    @AfterEach
    void close() throws Exception {
        connection.close();
    }

    private ListenerDelivery delivery(SessionAcknowledgements acks) {
        return new ListenerDelivery(acks, counters, MAX_REDELIVERIES, "fjm2-listener-test", () -> true);
    }

    private static Fjm2Message received() {
        Fjm2TextMessage m = new Fjm2TextMessage("x");
        m.deliveryCount(1);
        m.makeReadOnly();
        return m;
    }

    @Test
    void autoAcknowledgeRedeliversUpToMaxRedeliveriesThenDropsAndCounts() {
        ListenerDelivery delivery = delivery(new SessionAcknowledgements(Session.AUTO_ACKNOWLEDGE, null, counters));
        Fjm2Message m = received();
        while (m != null) {
            delivery.deliverToListener(consumer, failing, m);
            m = consumer.pollForListener();
        }
        assertThat(deliveryCounts).containsExactly(1, 2, 3);
        assertThat(counters.redeliveryDrops.sum()).isEqualTo(1);
        assertThat(counters.messagesDelivered.sum()).isEqualTo(3);
    }

    @Test
    void clientAcknowledgeLeavesTheMessageUnacknowledgedForRecover() throws Exception {
        SessionAcknowledgements acks = new SessionAcknowledgements(Session.CLIENT_ACKNOWLEDGE, () -> { }, counters);
        ListenerDelivery delivery = delivery(acks);
        delivery.deliverToListener(consumer, failing, received());
        assertThat(consumer.pollForListener()).as("not redelivered at once").isNull();
        acks.redeliverUnacknowledged();
        Fjm2Message again = consumer.pollForListener();
        assertThat(again).isNotNull();
        assertThat(again.getJMSRedelivered()).isTrue();
        assertThat(counters.redeliveryDrops.sum()).isZero();
    }
}
