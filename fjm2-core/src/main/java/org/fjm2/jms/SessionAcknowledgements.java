package org.fjm2.jms;

import jakarta.jms.Session;
import org.fjm2.jms.message.Acknowledger;
import org.fjm2.jms.message.Fjm2Message;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Acknowledgement without a broker, for one session: local bookkeeping of what was handed to the application. AUTO
 * and DUPS_OK forget a message once delivered; CLIENT_ACKNOWLEDGE and transacted sessions keep delivered messages
 * until {@code acknowledge()}/{@code commit()} and give them back to their consumers on
 * {@code recover()}/{@code rollback()}, marked redelivered (JMSRedelivered, JMSXDeliveryCount + 1), in order.
 * Delivery runs on the listener thread or an application thread, acknowledgement on any: the list has a lock.
 */
final class SessionAcknowledgements {

    private record Delivered(Fjm2MessageConsumer consumer, Fjm2Message message) {
    }

    private final ConnectionCounters counters;
    /** CLIENT_ACKNOWLEDGE or transacted: delivered messages are kept. */
    private final boolean keepsDelivered;
    /** What Message.acknowledge() calls; null unless CLIENT_ACKNOWLEDGE. */
    private final Acknowledger acknowledger;
    /** Delivered, not yet acknowledged or committed. Guarded by itself. */
    private final List<Delivered> unacknowledged = new ArrayList<>();

    /**
     * @param acknowledgeMode the session's mode ({@code SESSION_TRANSACTED} for a transacted session)
     * @param acknowledger    what {@code Message.acknowledge()} of a CLIENT_ACKNOWLEDGE session calls
     */
    SessionAcknowledgements(int acknowledgeMode, Acknowledger acknowledger, ConnectionCounters counters) {
        this.counters = counters;
        this.keepsDelivered = acknowledgeMode == Session.SESSION_TRANSACTED
                || acknowledgeMode == Session.CLIENT_ACKNOWLEDGE;
        this.acknowledger = acknowledgeMode == Session.CLIENT_ACKNOWLEDGE ? acknowledger : null;
    }

    /** Whether delivered messages wait for acknowledge() or commit() (a listener that throws does not redeliver). */
    boolean keepsDelivered() {
        return keepsDelivered;
    }

    /** Bookkeeping for every message handed to the application (receive or listener). */
    void delivered(Fjm2MessageConsumer consumer, Fjm2Message message) {
        counters.messagesDelivered.increment();
        message.acknowledger(acknowledger);
        consumer.handedOver(message);
        if (keepsDelivered) {
            synchronized (unacknowledged) {
                unacknowledged.add(new Delivered(consumer, message));
            }
        }
    }

    /**
     * receive() returned the message, or its listener returned: in AUTO and DUPS_OK that acknowledges it (a durable
     * subscriber's position moves).
     */
    void returnedToApplication(Fjm2MessageConsumer consumer, Fjm2Message message) {
        if (!keepsDelivered) {
            consumer.acknowledged(message);
        }
    }

    /** acknowledge() or commit(): everything delivered so far is done with. */
    void acknowledgeAll() {
        List<Delivered> done;
        synchronized (unacknowledged) {
            done = new ArrayList<>(unacknowledged);
            unacknowledged.clear();
        }
        for (Delivered d : done) {
            d.consumer().acknowledged(d.message());
        }
    }

    /** recover() or rollback(): every unacknowledged message goes back to the front of its consumer's queue. */
    void redeliverUnacknowledged() {
        Map<Fjm2MessageConsumer, List<Fjm2Message>> byConsumer = new LinkedHashMap<>();
        synchronized (unacknowledged) {
            for (Delivered d : unacknowledged) {
                byConsumer.computeIfAbsent(d.consumer(), c -> new ArrayList<>()).add(d.message());
            }
            unacknowledged.clear();
        }
        byConsumer.forEach((consumer, messages) -> {
            if (consumer.isClosed()) {
                return;
            }
            for (Fjm2Message m : messages) {
                markRedelivered(m);
            }
            consumer.redeliver(messages);
        });
    }

    /** A closed consumer's messages are never redelivered. */
    void forget(Fjm2MessageConsumer consumer) {
        synchronized (unacknowledged) {
            unacknowledged.removeIf(d -> d.consumer() == consumer);
        }
    }

    static void markRedelivered(Fjm2Message m) {
        m.setJMSRedelivered(true);
        m.deliveryCount(m.deliveryCount() + 1);
        m.makeReadOnly();
    }
}
