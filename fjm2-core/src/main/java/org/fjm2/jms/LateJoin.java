package org.fjm2.jms;

import org.fjm2.jms.message.Fjm2Message;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One consumer's late join ({@code lateJoin=N}): from its creation until a store's answer is complete (or
 * {@link #REPLY_TIMEOUT_MILLIS} passed), live messages for the consumer are held here, with the first number each
 * producer stream brought; then the newest N of the answer's messages that no held live message of the same stream
 * covers (its number or later) go to the consumer, then the held live ones, in arrival order. So the switch from the
 * store to the group neither repeats nor reorders a producer's messages.
 *
 * <p>A durable subscriber's return ({@link DurableSubscriptions}) is the same switch with every stored message the
 * store sends (count unbounded): the store's answer holds what the subscription did not acknowledge.
 *
 * <p>The receive thread (live messages, the store's answer) and the timer (no answer in time) meet here, under this
 * object's monitor; after the switch live messages bypass it, except those at or below a number the answer brought
 * for their stream (a message the store got before this connection did: {@link Fjm2MessageConsumer#joined}).
 */
final class LateJoin {

    private static final Logger LOG = LoggerFactory.getLogger(LateJoin.class);
    /** How long a joining consumer waits for a store's complete answer before it carries on with live ones only. */
    static final long REPLY_TIMEOUT_MILLIS = 2000;

    /** A message waiting for the switch, with its delivery time (delivery delay) as the receive path gave it. */
    record Held(Fjm2Message message, long deliveryTime) {
    }

    /** Who a join delivers to: a consumer, or a durable shared subscription's members here ({@link SharedGroup}). */
    interface Target {
        Fjm2Topic topic();

        /** Whether a message of the store's answer is for it (selector, noLocal). */
        boolean wantsReplayed(Fjm2Message message, boolean local);

        /** A message of the switch (stored ones, then held live ones), in order. */
        void acceptJoined(Fjm2Message message, long deliveryTime);

        /** The switch is over; {@code replayedThrough}: per stream the last number the store's answer brought. */
        void joined(Map<Stream, Long> replayedThrough);
    }

    /** A producer stream: connection epoch, producer, priority. */
    record Stream(long epoch, int producer, int priority) {
        static Stream of(Fjm2Message m) {
            return new Stream(m.originEpoch(), m.originProducer(), m.originPriority());
        }
    }

    private final Target consumer;
    private final long requestId;
    private final int count;
    private final List<Held> live = new ArrayList<>();
    private final List<Held> replayed = new ArrayList<>();
    private final Map<Stream, Long> firstLive = new HashMap<>();
    private final String what;
    private final CountDownLatch firstAnswer = new CountDownLatch(1);
    private boolean done;
    /** The answer said it lacks messages the store no longer held. */
    private boolean incomplete;
    /** The store keeps the durable subscription as the other kind (shared or not): nothing is replayed. */
    private boolean otherKind;
    /** The store whose answer is taken (the first to answer); others are ignored. */
    private Integer answeringStore;

    LateJoin(Target consumer, long requestId, int count) {
        this(consumer, requestId, count, "late join");
    }

    /** @param what how logs name it ("late join", "durable subscription 'x'") */
    LateJoin(Target consumer, long requestId, int count, String what) {
        this.consumer = consumer;
        this.requestId = requestId;
        this.count = count;
        this.what = what;
    }

    /** Waits for a store's first answer record; false when none came in time. */
    boolean awaitFirstAnswer(long timeoutMillis) throws InterruptedException {
        return firstAnswer.await(timeoutMillis, TimeUnit.MILLISECONDS) && answered();
    }

    private synchronized boolean answered() {
        return answeringStore != null;
    }

    /** The store's answer says it keeps the durable subscription as the other kind (shared or unshared). */
    synchronized boolean otherKind() {
        return otherKind;
    }

    /** The store's answer lacked messages it no longer held (known once complete). */
    synchronized boolean incomplete() {
        return incomplete;
    }

    Target target() {
        return consumer;
    }

    long requestId() {
        return requestId;
    }

    int count() {
        return count;
    }

    /** On the receive thread: a live message for the consumer; true when it is held for the switch. */
    synchronized boolean holdLive(Fjm2Message message, long deliveryTime) {
        if (done) {
            return false;
        }
        live.add(new Held(message, deliveryTime));
        firstLive.putIfAbsent(Stream.of(message), message.originSequence());
        return true;
    }

    /**
     * On the receive thread: messages of one answer record of {@code storeNode} (oldest first); with {@code last}
     * the answer is complete and the consumer switches. {@code incompleteAnswer}: the store says it lacks messages it
     * no longer held; {@code otherKindAnswer}: it keeps the durable subscription as the other kind (shared or not).
     *
     * @return true when the join is over (the caller forgets it)
     */
    synchronized boolean replayed(int storeNode, List<Held> messages, boolean last, boolean incompleteAnswer,
                                  boolean otherKindAnswer) {
        if (done) {
            return true;
        }
        if (answeringStore == null) {
            answeringStore = storeNode;
            firstAnswer.countDown();
        } else if (answeringStore != storeNode) {
            return false;
        }
        incomplete |= incompleteAnswer;
        otherKind |= otherKindAnswer;
        replayed.addAll(messages);
        if (last) {
            switchToLive();
        }
        return last;
    }

    /** On the timer: no complete answer in time; the consumer carries on with what it has. */
    synchronized void giveUp() {
        if (done) {
            return;
        }
        LOG.warn("{} of a consumer of topic '{}': {} in time; it starts with {}", what,
                consumer.topic().name(), answeringStore == null ? "no store answered" : "the store's answer was "
                        + "incomplete", replayed.isEmpty() ? "live messages only"
                        : replayed.size() + " stored message(s), then live ones");
        switchToLive();
    }

    /** Delivers the stored messages no live one covers, then the held live ones; later ones go straight through. */
    private void switchToLive() {
        done = true;
        // The answer may reach past the join (what the store received while it let in-flight messages arrive):
        // what a held live message covers goes, and of the rest the newest 'count' are what came before the join.
        List<Held> before = new ArrayList<>();
        Map<Stream, Long> replayedThrough = new HashMap<>();
        for (Held h : replayed) {
            Stream stream = Stream.of(h.message());
            Long first = firstLive.get(stream);
            if (first == null || h.message().originSequence() < first) {
                before.add(h);
                replayedThrough.merge(stream, h.message().originSequence(), Math::max);
            }
        }
        for (Held h : before.subList(Math.max(0, before.size() - count), before.size())) {
            consumer.acceptJoined(h.message(), h.deliveryTime());
        }
        for (Held h : live) {
            consumer.acceptJoined(h.message(), h.deliveryTime());
        }
        replayed.clear();
        live.clear();
        firstAnswer.countDown();
        consumer.joined(replayedThrough);
    }
}
