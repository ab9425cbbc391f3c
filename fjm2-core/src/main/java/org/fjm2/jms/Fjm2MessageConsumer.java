package org.fjm2.jms;

import jakarta.jms.IllegalStateException;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageListener;
import jakarta.jms.Topic;
import jakarta.jms.TopicSubscriber;
import org.fjm2.jms.message.Fjm2Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A subscriber of one topic: non-durable, durable (a name under the connection's client id, kept by the stores:
 * {@link DurableSubscriptions}, its acknowledgements moving its {@link DurablePosition}), or a member of a shared
 * subscription taking its share of the messages ({@link SharedSubscriptions}). Messages wait in a bounded
 * {@link ConsumerQueue}; they are taken by {@link #receive} or, when a MessageListener is set, by the session's
 * dispatcher thread. A message with a delivery delay waits on the connection's timer first (counted against the
 * same limit).
 */
public final class Fjm2MessageConsumer implements MessageConsumer, TopicSubscriber {

    /**
     * A shared subscription's consumer waiting in receive looks this often at the queues of the other members of its
     * connection (a message queued for one that does not ask is taken by one that does).
     */
    static final long BORROW_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private static final Logger LOG = LoggerFactory.getLogger(Fjm2MessageConsumer.class);

    private final Fjm2Session session;
    private final Fjm2Topic topic;
    private final SelectorFilter selector;
    private final boolean noLocal;
    private final ConsumerQueue queue;
    private final int delayedLimit;
    private final AtomicInteger delayed = new AtomicInteger();
    private final AtomicLong unreportedDrops = new AtomicLong();
    private final AtomicInteger reportScheduled = new AtomicInteger();
    private volatile MessageListener listener;
    private volatile boolean closed;
    /** Until the switch to live messages of a late join (lateJoin=N); null otherwise and after it. */
    private volatile LateJoin lateJoin;
    /**
     * After a switch from stored to live messages: per producer stream the last number the store's answer delivered;
     * a live message at or below it came to the store first and was delivered already. Null when there is none.
     */
    private volatile Map<LateJoin.Stream, Long> replayedThrough;
    /** The durable subscription's name; null for a non-durable consumer. */
    private final String durableName;
    /** Where the durable subscriber stands (acknowledged); null for a non-durable consumer. */
    private final DurablePosition position;
    /** The shared subscription this consumer is a member of, and its membership; null when it is not shared. */
    private final SharedGroup sharedGroup;
    private final SharedGroup.Member sharedMember;
    /** What a late join or a durable subscriber's return delivers to. */
    private final LateJoin.Target joinTarget = new LateJoin.Target() {
        @Override
        public Fjm2Topic topic() {
            return topic;
        }

        @Override
        public boolean wantsReplayed(Fjm2Message message, boolean local) {
            return wants(message, local);
        }

        @Override
        public void acceptJoined(Fjm2Message message, long deliveryTime) {
            acceptNow(message, deliveryTime, null);
        }

        @Override
        public void joined(Map<LateJoin.Stream, Long> replayed) {
            replayedThrough = replayed.isEmpty() ? null : replayed;
            lateJoin = null;
        }
    };
    /** This consumer as the stores' durable subscriber; null for a non-durable consumer. */
    private final DurableSubscriptions.Subscriber durableSubscriber;

    /**
     * @param durableName the durable subscription's name, or null for a non-durable consumer
     * @param shared      the shared subscription it joins, or null
     */
    Fjm2MessageConsumer(Fjm2Session session, Fjm2Topic topic, SelectorFilter selector, boolean noLocal,
                        ConnectionSettings settings, boolean paused, String durableName, SharedGroup shared) {
        this.session = session;
        this.topic = topic;
        this.selector = selector;
        this.noLocal = noLocal;
        this.queue = new ConsumerQueue(settings.consumerQueueMessages(), settings.consumerQueueBytes(),
                settings.overflowPolicy(), paused, session.connection().deliveryBacklog());
        this.delayedLimit = settings.consumerQueueMessages();
        this.durableName = durableName;
        this.position = durableName == null ? null : new DurablePosition();
        this.lateJoin = shared != null ? null
                : durableName == null ? session.connection().lateJoins().newJoin(joinTarget, topic)
                : session.connection().durableSubscriptions().newJoin(joinTarget, durableName);
        this.durableSubscriber = durableName == null ? null
                : new DurableSubscriptions.Subscriber(session.connection().durableSubscriptions().clientId(),
                        durableName, topic, lateJoin, position, false);
        this.sharedGroup = shared;
        // last: from here on the group may hand this consumer messages
        this.sharedMember = shared == null ? null : session.connection().sharedSubscriptions().join(shared, this);
    }

    /** The durable subscription's name, or null. */
    String durableName() {
        return durableName;
    }

    /** This consumer as the stores' durable subscriber, or null. */
    DurableSubscriptions.Subscriber durableSubscriber() {
        return durableSubscriber;
    }

    /** The message is handed to the application: should a durable subscription's store replay it, it is flagged. */
    void handedOver(Fjm2Message message) {
        if (position != null && !closed) {
            position.handed(message);
        }
    }

    /** The application acknowledged the message (by its session's mode): a durable subscription moves on. */
    void acknowledged(Fjm2Message message) {
        if (position != null && !closed) {
            position.acknowledged(message);
        }
        if (sharedMember != null && !closed) {
            sharedMember.position.acknowledged(message);
        }
    }

    /**
     * Whether another consumer of this connection may take a message queued for this one when its own queue is empty
     * (a shared subscription's member): only while this one has no listener and its session acknowledges on delivery,
     * so that the message, acknowledged as this member's at once, never lets this member's acknowledged position pass
     * one of its messages still unacknowledged.
     */
    boolean lendsOnReceive() {
        return !closed && listener == null && session.acknowledgesOnDelivery();
    }

    /** The late join this consumer starts with, or null. */
    LateJoin lateJoin() {
        return lateJoin;
    }

    Fjm2Topic topic() {
        return topic;
    }

    ConsumerQueue queue() {
        return queue;
    }

    // ------------------------------------------------------------------ called by the receive path

    /** True when this consumer takes the message: open, not excluded by noLocal, selector matches. */
    boolean wants(Fjm2Message message, boolean local) {
        if (sharedGroup != null) {
            return !closed && sharedGroup.route(message) == this;     // the group checks the selector
        }
        return !closed && !(local && noLocal) && (selector == null || selector.matches(message));
    }

    /** A message of the shared subscription the group decided later (joining) or took over from a member gone. */
    void acceptShared(Fjm2Message message) {
        if (!closed) {
            acceptNow(message, 0, null);
        }
    }

    /**
     * Queues a message; {@code deliveryTime} != 0 holds it until then (delivery delay). Never blocks. With
     * {@code wakes} the listener's dispatcher is added there, to be woken once the caller has queued a whole batch;
     * without (null), it is woken now.
     */
    void accept(Fjm2Message message, long deliveryTime, PendingWakes wakes) {
        LateJoin join = lateJoin;
        if (join != null && join.holdLive(message, deliveryTime)) {
            return;
        }
        Map<LateJoin.Stream, Long> replayed = replayedThrough;
        if (replayed != null) {
            Long through = replayed.get(LateJoin.Stream.of(message));
            if (through != null && message.originSequence() <= through) {
                return; // the store's answer delivered it
            }
        }
        acceptNow(message, deliveryTime, wakes);
    }

    private void acceptNow(Fjm2Message message, long deliveryTime, PendingWakes wakes) {
        long wait = deliveryTime == 0 ? 0 : deliveryTime - System.currentTimeMillis();
        if (wait > 0) {
            if (delayed.incrementAndGet() > delayedLimit) {
                delayed.decrementAndGet();
                dropped(1);
                return;
            }
            try {
                session.connection().timer().schedule(() -> {
                    delayed.decrementAndGet();
                    enqueue(message, null);
                }, wait, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                delayed.decrementAndGet();
            }
            return;
        }
        enqueue(message, wakes);
    }

    private void enqueue(Fjm2Message message, PendingWakes wakes) {
        if (closed) {
            return;
        }
        if (queue.offer(message) != null) {
            dropped(1);
        }
        if (listener != null) {
            if (wakes != null) {
                wakes.add(session.dispatcher());
            } else {
                session.dispatcher().wake();
            }
        }
    }

    /** Counts drops and reports them: the first at once, then at most once a second with the sum. */
    private void dropped(long count) {
        session.connection().counters().consumerOverflowDrops.add(count);
        unreportedDrops.addAndGet(count);
        if (reportScheduled.compareAndSet(0, 1)) {
            reportDrops();
            scheduleFollowUpReport();
        }
    }

    private void scheduleFollowUpReport() {
        try {
            session.connection().timer().schedule(() -> {
                if (unreportedDrops.get() > 0) {
                    reportDrops();
                    scheduleFollowUpReport();
                    return;
                }
                reportScheduled.set(0);
                if (unreportedDrops.get() > 0 && reportScheduled.compareAndSet(0, 1)) {
                    reportDrops();
                    scheduleFollowUpReport();
                }
            }, 1, TimeUnit.SECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            reportScheduled.set(0);
        }
    }

    /** Logged as well as reported: drops are never only counted, also when no ExceptionListener is set. */
    private void reportDrops() {
        long n = unreportedDrops.getAndSet(0);
        if (n > 0) {
            ConsumerOverflowException overflow = new ConsumerOverflowException(topic.name(), toString(), n,
                    session.connection().settings().overflowPolicy());
            LOG.warn(overflow.getMessage());
            session.connection().reportAsync(overflow);
        }
    }

    // ------------------------------------------------------------------ JMS API

    @Override
    public String getMessageSelector() throws JMSException {
        checkOpen();
        return selector == null ? null : selector.text();
    }

    @Override
    public MessageListener getMessageListener() throws JMSException {
        checkOpen();
        return listener;
    }

    @Override
    public void setMessageListener(MessageListener messageListener) throws JMSException {
        checkOpen();
        listener = messageListener;
        session.listenerChanged(this, messageListener != null);
    }

    MessageListener listener() {
        return listener;
    }

    @Override
    public Message receive() throws JMSException {
        return receive(-1);
    }

    @Override
    public Message receive(long timeout) throws JMSException {
        return receiveNanos(timeout == 0 ? -1 : TimeUnit.MILLISECONDS.toNanos(timeout));
    }

    @Override
    public Message receiveNoWait() throws JMSException {
        return receiveNanos(0);
    }

    private Message receiveNanos(long timeoutNanos) throws JMSException {
        checkOpen();
        if (listener != null) {
            throw new IllegalStateException("this consumer has a MessageListener; receive() is not allowed");
        }
        long deadline = System.nanoTime() + Math.max(timeoutNanos, 0);
        boolean mayBorrow = sharedGroup != null && session.acknowledgesOnDelivery();
        try {
            while (true) {
                long remaining = timeoutNanos < 0 ? -1 : Math.max(0, deadline - System.nanoTime());
                boolean borrows = mayBorrow && sharedGroup.localMemberCount() > 1;
                Fjm2MessageConsumer deliveredFor = this;
                Fjm2Message m;
                // not once closing: a receive in progress then returns null and takes nothing
                SharedGroup.Borrowed borrowed = borrows && !closed && queue.size() == 0
                        ? sharedGroup.borrowFor(this) : null;
                if (borrowed != null) {
                    m = borrowed.message();
                    deliveredFor = borrowed.owner();
                } else if (borrows) {
                    // in slices: a sibling's queue may fill while this one waits
                    m = queue.poll(remaining < 0 ? BORROW_CHECK_NANOS : Math.min(remaining, BORROW_CHECK_NANOS));
                    if (m == null && !closed && (remaining < 0 || remaining > BORROW_CHECK_NANOS)) {
                        continue;
                    }
                } else {
                    m = queue.poll(remaining);
                }
                if (m == null) {
                    return null;
                }
                if (m.isExpired(System.currentTimeMillis())) {
                    session.connection().counters().messagesExpired.increment();
                    continue;
                }
                // a borrowed message is the owner's: its acknowledgement (now, on delivery) moves the owner's share
                session.delivered(deliveredFor, m);
                return m;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** Next message for the listener dispatcher, skipping expired ones; null when none. */
    Fjm2Message pollForListener() {
        for (Fjm2Message m; (m = queue.pollNow()) != null; ) {
            if (!m.isExpired(System.currentTimeMillis())) {
                return m;
            }
            session.connection().counters().messagesExpired.increment();
        }
        return null;
    }

    /** Puts messages back in front for redelivery, in order. */
    void redeliver(List<Fjm2Message> messages) {
        queue.pushFront(messages);
        if (listener != null) {
            session.dispatcher().wake();
        }
    }

    @Override
    public Topic getTopic() throws JMSException {
        checkOpen();
        return topic;
    }

    @Override
    public boolean getNoLocal() throws JMSException {
        checkOpen();
        return noLocal;
    }

    boolean isClosed() {
        return closed;
    }

    /**
     * Closes: a receive() in progress returns null; a listener running on another thread is waited for. May be
     * called from this consumer's own listener.
     */
    @Override
    public void close() throws JMSException {
        if (closed) {
            return;
        }
        closed = true;
        queue.close();
        session.consumerClosed(this);
        if (durableName != null) {
            session.connection().durableSubscriptions().closed(durableSubscriber);
        }
        if (sharedMember != null && session.connection().sharedSubscriptions().leave(sharedGroup, sharedMember)
                && sharedGroup.storeSubscriber() != null) {
            session.connection().durableSubscriptions().closed(sharedGroup.storeSubscriber());
        }
    }

    private void checkOpen() throws IllegalStateException {
        if (closed) {
            throw new IllegalStateException("consumer closed");
        }
    }

    @Override
    public String toString() {
        return "consumer[topic=" + topic.name() + (selector == null ? "" : ", selector=" + selector.text())
                + ", session=" + session.id() + "]";
    }
}
