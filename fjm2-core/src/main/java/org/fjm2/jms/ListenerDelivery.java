package org.fjm2.jms;

import jakarta.jms.MessageListener;
import org.fjm2.jms.message.Fjm2Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BooleanSupplier;

/**
 * A session's MessageListeners: which consumers have one, the session's one listener thread
 * ({@link ListenerDispatcher}, started with the first listener), and what happens around each call — the
 * acknowledgement bookkeeping, and a listener that throws: in AUTO and DUPS_OK the message is redelivered (marked so)
 * up to {@code maxRedeliveries} times, then dropped and counted; in CLIENT_ACKNOWLEDGE and transacted sessions it stays
 * unacknowledged, for recover() or rollback().
 */
final class ListenerDelivery implements ListenerDispatcher.Deliveries {

    private static final Logger LOG = LoggerFactory.getLogger(ListenerDelivery.class);

    private final List<Fjm2MessageConsumer> listenerConsumers = new CopyOnWriteArrayList<>();
    private final SessionAcknowledgements acknowledgements;
    private final ConnectionCounters counters;
    private final int maxRedeliveries;
    private final String threadName;
    private final BooleanSupplier deliveryRuns;
    private volatile ListenerDispatcher dispatcher;

    /**
     * @param threadName   the listener thread's name
     * @param deliveryRuns whether the connection is started (a dispatcher made while it is stopped starts paused)
     */
    ListenerDelivery(SessionAcknowledgements acknowledgements, ConnectionCounters counters, int maxRedeliveries,
                     String threadName, BooleanSupplier deliveryRuns) {
        this.acknowledgements = acknowledgements;
        this.counters = counters;
        this.maxRedeliveries = maxRedeliveries;
        this.threadName = threadName;
        this.deliveryRuns = deliveryRuns;
    }

    @Override
    public List<Fjm2MessageConsumer> listenerConsumers() {
        return listenerConsumers;
    }

    /** Calls a consumer's listener and does the acknowledgement work around it (listener thread). */
    @Override
    public void deliverToListener(Fjm2MessageConsumer consumer, MessageListener listener, Fjm2Message message) {
        acknowledgements.delivered(consumer, message);
        try {
            listener.onMessage(message);
            acknowledgements.returnedToApplication(consumer, message);
        } catch (RuntimeException e) {
            if (acknowledgements.keepsDelivered()) {
                LOG.warn("MessageListener of {} threw; the message stays unacknowledged", consumer, e);
                return;
            }
            if (message.deliveryCount() > maxRedeliveries) {
                counters.redeliveryDrops.increment();
                LOG.error("MessageListener of {} threw on {} deliveries of {}; dropping it (maxRedeliveries={})",
                        consumer, message.deliveryCount(), message.getJMSMessageID(), maxRedeliveries, e);
                return;
            }
            LOG.warn("MessageListener of {} threw; redelivering {}", consumer, message.getJMSMessageID(), e);
            SessionAcknowledgements.markRedelivered(message);
            consumer.redeliver(List.of(message));
        }
    }

    /** The listener thread, started on first use. */
    ListenerDispatcher dispatcher() {
        ListenerDispatcher d = dispatcher;
        if (d == null) {
            synchronized (this) {
                d = dispatcher;
                if (d == null) {
                    d = new ListenerDispatcher(this, threadName, !deliveryRuns.getAsBoolean());
                    dispatcher = d;
                }
            }
        }
        return d;
    }

    boolean isListenerThread() {
        ListenerDispatcher d = dispatcher;
        return d != null && d.isDispatcherThread();
    }

    void listenerChanged(Fjm2MessageConsumer consumer, boolean hasListener) {
        if (hasListener) {
            if (!listenerConsumers.contains(consumer)) {
                listenerConsumers.add(consumer);
            }
            dispatcher().wake();
        } else {
            listenerConsumers.remove(consumer);
        }
    }

    void consumerClosed(Fjm2MessageConsumer consumer) {
        listenerConsumers.remove(consumer);
    }

    /** Connection start/stop. */
    void paused(boolean paused) {
        ListenerDispatcher d = dispatcher;
        if (d != null) {
            d.paused(paused);
        }
    }

    /** Waits for a listener in progress on another thread (stop, close). */
    void awaitIdle() throws InterruptedException {
        ListenerDispatcher d = dispatcher;
        if (d != null && !d.isDispatcherThread()) {
            d.awaitIdle();
        }
    }

    /** Stops the listener thread, waiting for a listener in progress unless called from it. */
    void close() {
        ListenerDispatcher d = dispatcher;
        if (d != null) {
            d.close();
        }
    }
}
