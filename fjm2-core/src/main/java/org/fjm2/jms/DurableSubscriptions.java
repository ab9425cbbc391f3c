package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A connection's durable subscriptions (client id + name), kept by the stores (fjm2-store): a durable consumer's
 * creation asks them for what the subscription has not acknowledged ({@link DurableSubscriptionFlyweight} subscribe)
 * and switches from their answer to live messages like a late join ({@link LateJoin}, every message of the answer);
 * its acknowledgements move its {@link DurablePosition}, which a timer sends to the stores every
 * {@link #POSITION_FLUSH_MILLIS} (one record for all that moved, not one per message) and which closing the consumer
 * sends and waits for, each time after a delivered record of the streams handed further than acknowledged (so the
 * stores flag what they replay of those redelivered); {@code unsubscribe} removes the subscription at the stores.
 * Every record goes out through the connection's normal send path, from a producer of its own.
 */
final class DurableSubscriptions {

    private static final Logger LOG = LoggerFactory.getLogger(DurableSubscriptions.class);
    /** How long a durable consumer's creation, its close and unsubscribe wait for a store's first answer. */
    static final long STORE_ANSWER_TIMEOUT_MILLIS = LateJoin.REPLY_TIMEOUT_MILLIS;
    /**
     * How long a returning subscriber's live messages are held for the store's complete answer; then it carries on
     * with what it has (WARN), and what the answer lacked is redelivered on its next return.
     */
    static final long REPLAY_TIMEOUT_MILLIS = 30_000;
    /** Acknowledged positions go to the stores at most this often. */
    static final long POSITION_FLUSH_MILLIS = 50;
    private static final long HOLD_REFRESH_NANOS =
            TimeUnit.MILLISECONDS.toNanos(DurableSubscriptionFlyweight.HOLD_REFRESH_MILLIS);
    /** How to run a store, for the error without one. */
    static final String HOW_TO_RUN_A_STORE = "run one on the group (bin/fjm2 store --url URL --data DIR)";

    /**
     * A subscriber as the stores see it: a durable consumer, or the members here of a shared durable subscription
     * ({@link SharedGroup}). {@code clientId}: what its records name ("" none: a shared durable subscription may
     * have no client id); {@code join}: its return, the store's answer then live messages; {@code position}: what
     * the position records say; {@code shared}: the members here of a shared one.
     */
    record Subscriber(String clientId, String name, Fjm2Topic topic, LateJoin join, DurablePosition position,
                      boolean shared) {
    }

    private final Supplier<String> clientId;
    private final int nodeId;
    private final ProducerState records;
    private final LateJoins answers;
    private final Supplier<Outbound> outbound;
    private final ScheduledExecutorService timer;
    /** Names with a consumer of this connection (being created or active): one consumer per subscription. */
    private final Set<String> claimed = ConcurrentHashMap.newKeySet();
    /** The active subscriber of each subscription name of this connection (whose positions the timer sends). */
    private final Map<String, Subscriber> active = new ConcurrentHashMap<>();
    /**
     * When this connection last told the stores that it holds each active subscription (its subscribe or held
     * record; System.nanoTime()): the timer says so again every {@link DurableSubscriptionFlyweight#HOLD_REFRESH_MILLIS}.
     */
    private final Map<String, Long> lastSaid = new ConcurrentHashMap<>();
    /** Requests (unsubscribe, a closing subscriber's release) waiting for a store's answer, by request id. */
    private final Map<Long, CompletableFuture<Integer>> confirmations = new ConcurrentHashMap<>();
    /** Random start: an answer to an earlier connection with the same node id does not match ours. */
    private final AtomicLong nextRequestId = new AtomicLong(new SecureRandom().nextLong() >>> 1);
    private ScheduledFuture<?> flusher;
    /** Held from taking a position to sending it, so that position records leave in the order they were taken. */
    private final Object flushLock = new Object();

    /**
     * @param clientId the connection's client id (null: unset)
     * @param nodeId   this connection's node id: answers name it
     * @param records  the producer the records are sent from
     * @param answers  where the stores' answers to subscribe records are found by the receive path
     */
    DurableSubscriptions(Supplier<String> clientId, int nodeId, ProducerState records, LateJoins answers,
                         Supplier<Outbound> outbound, ScheduledExecutorService timer) {
        this.clientId = clientId;
        this.nodeId = nodeId;
        this.records = records;
        this.answers = answers;
        this.outbound = outbound;
        this.timer = timer;
    }

    /** The switch of a new durable subscriber: every message of the store's answer, then live ones. */
    LateJoin newJoin(LateJoin.Target subscriber, String name) {
        return new LateJoin(subscriber, nextRequestId.incrementAndGet(), Integer.MAX_VALUE,
                "durable subscription '" + name + "'");
    }

    /**
     * The client id of a shared durable subscription's records: the connection's, or none ("", the specification
     * lets a shared durable subscription be named without a client id).
     */
    String sharedClientId() {
        String id = clientId.get();
        return id == null ? "" : id;
    }

    /** A durable consumer's client id (set: {@link #requireClientId} was asked first). */
    String clientId() {
        return clientId.get();
    }

    /** The client id a durable subscription needs: IllegalStateException without one (the specification's rule). */
    String requireClientId(String method) throws IllegalStateException {
        String id = clientId.get();
        if (id == null) {
            throw new IllegalStateException(method + " needs a client id: set one with Connection.setClientID, "
                    + "JMSContext.setClientID or the URL's clientID parameter");
        }
        return id;
    }

    static void checkName(String name) throws JMSException {
        if (name == null || name.isEmpty()) {
            throw new InvalidDestinationException("a durable subscription needs a name");
        }
        if (name.getBytes(StandardCharsets.UTF_8).length > DurableSubscriptionFlyweight.MAX_NAME_BYTES) {
            throw new JMSException("durable subscription name longer than "
                    + DurableSubscriptionFlyweight.MAX_NAME_BYTES + " bytes");
        }
    }

    /**
     * Claims the name for a new durable consumer (or the first member here of a shared durable subscription):
     * IllegalStateException while another consumer of it is active.
     */
    void claim(String name) throws IllegalStateException {
        if (!claimed.add(name)) {
            throw new IllegalStateException("durable subscription '" + name + "' of client id '" + clientId.get()
                    + "' has an active consumer already (unshared, or shared with another topic or selector); "
                    + "close it first");
        }
    }

    /** A consumer that could not be made: the name is free again. */
    void releaseName(String name) {
        claimed.remove(name);
    }

    /**
     * A subscriber whose creation failed: the name is free again, and a store that took its subscribe record does not
     * count this connection as holding the subscription (best effort: it would for at most
     * {@link DurableSubscriptionFlyweight#HOLD_TIMEOUT_MILLIS}).
     */
    void release(Subscriber subscriber) {
        active.remove(subscriber.name(), subscriber);
        answers.finished(subscriber.join());
        if (lastSaid.remove(subscriber.name()) != null) {
            ByteBuf record = holdRecord(subscriber, false, 0);
            try {
                send(record);
            } catch (JMSException e) {
                LOG.debug("durable subscription '{}': release not sent ({})", subscriber.name(), e.getMessage());
            } finally {
                record.release();
            }
        }
        claimed.remove(subscriber.name());
    }

    /**
     * Starts the consumer's return: registered already (live messages are held), it asks the stores for what the
     * subscription did not acknowledge and waits for the first answer.
     *
     * @throws JMSException when no store answered within {@link #STORE_ANSWER_TIMEOUT_MILLIS}
     */
    void subscribe(Subscriber subscriber, String selector, boolean noLocal) throws JMSException {
        String name = subscriber.name();
        active.put(name, subscriber);
        LateJoin join = subscriber.join();
        answers.track(join);
        try {
            timer.schedule(() -> {
                join.giveUp();
                answers.finished(join);
            }, REPLAY_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            throw new IllegalStateException("connection closing");
        }
        ByteBuf record = Unpooled.buffer();
        try {
            DurableSubscriptionFlyweight.writeSubscribe(record, records.id, join.requestId(), subscriber.clientId(), name,
                    subscriber.topic().name(), selector, noLocal, subscriber.shared());
            send(record);
            lastSaid.put(name, System.nanoTime());
            String method = subscriber.shared() ? "createSharedDurableConsumer" : "createDurableConsumer";
            if (!join.awaitFirstAnswer(STORE_ANSWER_TIMEOUT_MILLIS)) {
                throw noStore(method + " of subscription '" + name + "'");
            }
            if (join.otherKind()) {
                throw new JMSException(method + ": durable subscription '" + name + "'"
                        + (subscriber.clientId().isEmpty() ? "" : " of client id '" + subscriber.clientId() + "'")
                        + " is " + (subscriber.shared() ? "an unshared one (createDurableConsumer)"
                        : "a shared one (createSharedDurableConsumer)") + "; JMS keeps the two kinds apart: "
                        + "unsubscribe it first, or use another name", "FJM2_DURABLE_KIND");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while waiting for a store's answer");
        } finally {
            record.release();
        }
        startFlusher();
    }

    /**
     * Removes the subscription at the stores; IllegalStateException while a consumer of it is active here. Without a
     * client id it names a shared durable subscription made without one.
     */
    void unsubscribe(String name) throws JMSException {
        String id = sharedClientId();
        checkName(name);
        if (claimed.contains(name)) {
            throw new IllegalStateException("unsubscribe('" + name + "'): the durable subscription has an active "
                    + "consumer; close it first");
        }
        long requestId = nextRequestId.incrementAndGet();
        ByteBuf record = Unpooled.buffer();
        try {
            DurableSubscriptionFlyweight.writeUnsubscribe(record, records.id, requestId, id, name);
            int flags = request(requestId, record, "unsubscribe('" + name + "')");
            if ((flags & StoreReplayFlyweight.FLAG_HELD_ELSEWHERE) != 0) {
                throw new IllegalStateException("unsubscribe('" + name + "'): the durable subscription has an active "
                        + "consumer in another connection (or had one that stopped less than "
                        + DurableSubscriptionFlyweight.HOLD_TIMEOUT_MILLIS + " ms ago without closing); close it "
                        + "first");
            }
            if ((flags & StoreReplayFlyweight.FLAG_UNKNOWN_SUBSCRIPTION) != 0) {
                throw new InvalidDestinationException("unsubscribe('" + name + "'): client id '" + id + "' has no "
                        + "durable subscription of that name");
            }
        } finally {
            record.release();
        }
    }

    /**
     * A durable subscriber closed: what it acknowledged goes to the stores, then its release, and its close waits (at
     * most {@link #STORE_ANSWER_TIMEOUT_MILLIS}) until a store took them, so that its return, or an unsubscribe, from
     * any connection, comes after them. Then the name is free.
     */
    void closed(Subscriber subscriber) {
        String name = subscriber.name();
        if (!active.remove(name, subscriber)) {
            return;
        }
        try {
            flushClosing(subscriber);
        } finally {
            claimed.remove(name);
        }
    }

    /**
     * Sends the whole position, not only what moved: a record of the timer sent just before may still be on its way,
     * and the store's answer to the release after it (same producer, so taken after them) says that all arrived.
     */
    private void flushClosing(Subscriber subscriber) {
        String name = subscriber.name();
        answers.finished(subscriber.join());
        long requestId = nextRequestId.incrementAndGet();
        List<ByteBuf> positionRecords = new ArrayList<>();
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        try {
            synchronized (flushLock) { // not between the timer's take and send: ours would overtake its record
                Map<DurablePosition.Stream, Long> handed = subscriber.position().takeHandedBeyondAcknowledged(true);
                Map<DurablePosition.Stream, Long> all = subscriber.position().takeAll();
                positionRecords.addAll(positionRecords(subscriber, handed, all));
                positionRecords.add(holdRecord(subscriber, false, requestId));
                lastSaid.remove(name);
                confirmations.put(requestId, answer);
                for (ByteBuf r : positionRecords) {
                    send(r);
                }
            }
            awaitAnswer(requestId, answer, "closing durable subscriber '" + name + "'");
        } catch (JMSException e) {
            confirmations.remove(requestId);
            LOG.warn("durable subscription '{}': its last acknowledgements may not have reached a store ({}); the "
                    + "messages they covered come again on its return", name, e.getMessage());
        } finally {
            positionRecords.forEach(ByteBuf::release);
        }
    }

    /** On the receive thread: a store's answer to one of our requests; false when it is not one. */
    boolean confirm(int requesterNode, long requestId, int flags) {
        if (requesterNode != nodeId) {
            return false;
        }
        CompletableFuture<Integer> waiting = confirmations.remove(requestId);
        if (waiting == null) {
            return false;
        }
        waiting.complete(flags);
        return true;
    }

    private synchronized void startFlusher() {
        if (flusher != null) {
            return;
        }
        try {
            flusher = timer.scheduleWithFixedDelay(this::flushPositions, POSITION_FLUSH_MILLIS,
                    POSITION_FLUSH_MILLIS, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // the connection is closing: its consumers' close flushes
        }
    }

    /** On the timer: every active subscriber's moved position, one record per subscriber (no answer wanted). */
    private void flushPositions() {
        synchronized (flushLock) {
            flushPositionsLocked();
        }
    }

    private void flushPositionsLocked() {
        long now = System.nanoTime();
        for (Subscriber subscriber : active.values()) {
            DurablePosition position = subscriber.position();
            Map<DurablePosition.Stream, Long> moved = position.takeChanged();
            Map<DurablePosition.Stream, Long> handed = position.takeHandedBeyondAcknowledged(false);
            List<ByteBuf> positionRecords = positionRecords(subscriber, handed, moved);
            Long said = lastSaid.get(subscriber.name());
            if (said == null || now - said >= HOLD_REFRESH_NANOS) {
                positionRecords.add(holdRecord(subscriber, true, 0));
                lastSaid.put(subscriber.name(), now);
            }
            if (positionRecords.isEmpty()) {
                continue;
            }
            try {
                for (ByteBuf r : positionRecords) {
                    send(r);
                }
            } catch (JMSException e) {
                LOG.warn("durable subscription '{}': a position record could not be sent ({}); the next one "
                        + "covers it", subscriber.name(), e.getMessage());
            } finally {
                positionRecords.forEach(ByteBuf::release);
            }
        }
    }

    /**
     * The delivered records of the streams handed further than acknowledged, then the position records of
     * {@code acknowledged} (none for no streams): the store flags what it replays at or below a delivered number.
     */
    private List<ByteBuf> positionRecords(Subscriber subscriber, Map<DurablePosition.Stream, Long> handed,
                                          Map<DurablePosition.Stream, Long> acknowledged) {
        List<ByteBuf> out = encodeEntries(DurableSubscriptionFlyweight.TYPE_DELIVERED, subscriber, handed);
        out.addAll(encodeEntries(DurableSubscriptionFlyweight.TYPE_POSITION, subscriber, acknowledged));
        return out;
    }

    /**
     * Position (or delivered) records of at most {@link DurableSubscriptionFlyweight#MAX_POSITION_ENTRIES} streams
     * each; none for no streams.
     */
    private List<ByteBuf> encodeEntries(int type, Subscriber subscriber, Map<DurablePosition.Stream, Long> moved) {
        List<ByteBuf> out = new ArrayList<>();
        List<Map.Entry<DurablePosition.Stream, Long>> entries = new ArrayList<>(moved.entrySet());
        for (int from = 0; from < entries.size(); from += DurableSubscriptionFlyweight.MAX_POSITION_ENTRIES) {
            int to = Math.min(entries.size(), from + DurableSubscriptionFlyweight.MAX_POSITION_ENTRIES);
            ByteBuf record = Unpooled.buffer();
            int start = DurableSubscriptionFlyweight.beginEntries(record, records.id, type, 0, subscriber.clientId(),
                    subscriber.name());
            for (Map.Entry<DurablePosition.Stream, Long> e : entries.subList(from, to)) {
                DurablePosition.Stream s = e.getKey();
                DurableSubscriptionFlyweight.writePositionEntry(record, s.epoch(), s.producer(), s.priority(),
                        e.getValue());
            }
            DurableSubscriptionFlyweight.endPosition(record, start, to - from);
            out.add(record);
        }
        return out;
    }

    /** A held (still active here) or released (closed) record of the subscriber. */
    private ByteBuf holdRecord(Subscriber subscriber, boolean held, long requestId) {
        ByteBuf record = Unpooled.buffer();
        DurableSubscriptionFlyweight.writeHold(record, records.id, held, requestId, subscriber.clientId(),
                subscriber.name());
        return record;
    }

    /** Sends a record and waits for a store's answer; its flags. */
    private int request(long requestId, ByteBuf record, String what) throws JMSException {
        CompletableFuture<Integer> answer = new CompletableFuture<>();
        confirmations.put(requestId, answer);
        try {
            send(record);
        } catch (JMSException e) {
            confirmations.remove(requestId);
            throw e;
        }
        return awaitAnswer(requestId, answer, what);
    }

    /** Waits for a store's answer to a request sent; its flags. */
    private int awaitAnswer(long requestId, CompletableFuture<Integer> answer, String what) throws JMSException {
        try {
            return answer.get(STORE_ANSWER_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw noStore(what);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException(what + ": interrupted while waiting for a store's answer");
        } catch (ExecutionException e) {
            throw new JMSException(what + ": " + e.getCause());
        } finally {
            confirmations.remove(requestId);
        }
    }

    private void send(ByteBuf record) throws JMSException {
        try {
            outbound.get().sendEncoded(record, 0, record.readableBytes(), records,
                    DurableSubscriptionFlyweight.PRIORITY);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JMSException("interrupted while sending to the stores");
        }
    }

    private static JMSException noStore(String what) {
        return new JMSException(what + ": no store answered within " + STORE_ANSWER_TIMEOUT_MILLIS + " ms; durable "
                + "subscriptions are kept by an FJM2 store: " + HOW_TO_RUN_A_STORE, "FJM2_NO_STORE");
    }
}
