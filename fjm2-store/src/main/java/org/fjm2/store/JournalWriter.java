package org.fjm2.store;

import org.apache.activemq.artemis.core.io.IOCallback;
import org.fjm2.jms.wire.DurableSubscriptionFlyweight;
import org.fjm2.jms.wire.StoreReplayFlyweight;
import org.fjm2.norm.util.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The thread that owns the journal: appends what the receive thread hands over (fsync'd, with group commit), tells
 * the acknowledgement publisher when each message is on disk, keeps the index and applies retention, answers late
 * joins from the topics' tails, and keeps the durable subscriptions ({@link DurableSubscriptions}: journaled, their
 * positions moved by their subscribers' position records) with the messages they still need ({@link DurableBacklog}),
 * which it replays to a returning subscriber, and answers a peer store's catch-up from the same memory. The hand-off is
 * bounded: while it is more than a quarter full the store holds back its NORM acknowledgements (publishers then slow
 * down, as for a slow subscriber), and when full the receive thread waits rather than drop a message.
 */
final class JournalWriter extends WorkerThread implements JournalTasks {

    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);
    /** Messages waiting for the journal before the receive thread waits. */
    static final int QUEUE_MESSAGES = 16_384;

    /** Where a message goes once it is on disk, or once its write failed: in append order either way. */
    interface Durable {
        void onDurable(PendingWrite write);

        void onFailed(PendingWrite write);
    }

    /**
     * A late join is answered this long after its request arrived, so that messages its publisher sent before the
     * consumer subscribed, still on their way to the store, are in the answer (the consumer got them neither live
     * nor from the store otherwise). A heuristic bound, not a guarantee: see the README.
     */
    static final long LATE_JOIN_SETTLE_MILLIS = 50;
    /**
     * A durable subscriber that crashed may have been handed messages after its last delivered record (sent every
     * 50 ms while it runs): on its return, what the store received up to this long after it last heard from it is
     * flagged redelivered. Twenty flush periods: a subscriber stalled longer than that between handing a message
     * over and its next flush leaves that message unflagged.
     */
    static final long CRASH_HANDED_MARGIN_MILLIS = 1_000;
    /** A store answers at most one peer's catch-up request per second. */
    static final long CATCH_UP_ANSWER_INTERVAL_NANOS = 1_000_000_000L;

    private final BlockingQueue<JournalTask> queue = new ArrayBlockingQueue<>(QUEUE_MESSAGES);
    private final TopicTails tails = new TopicTails();
    private final ArrayDeque<ReplayRequest> requests = new ArrayDeque<>();
    /** Returning durable subscribers, answered once due (the same settle time as late joins). */
    private final ArrayDeque<DurableRequest> returning = new ArrayDeque<>();
    private final DurableSubscriptions subscriptions;
    private final DurableBacklog backlog;
    private final ReplaySender replays;
    private final StoreJournal journal;
    private final MessageIndex index;
    private final Retention retention;
    private final Durable durable;
    private final StoreCounters counters;
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private final LogLimiter catchUpAnswers = new LogLimiter(CATCH_UP_ANSWER_INTERVAL_NANOS, System::nanoTime);
    private final LogLimiter refusedCatchUpLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private long nextId;
    /** The newest journal record when the store started: what a subscription learnt from a peer starts after. */
    private final long startedAfterId;
    private long nextRetentionCheck;

    /** @param recovered what the journal held at start, oldest first (for late joins) */
    JournalWriter(StoreJournal journal, MessageIndex index, List<StoredMessage> recovered, Retention retention,
                  Durable durable, ReplaySender replays, StoreCounters counters) {
        super("fjm2-store-journal");
        this.replays = replays;
        recovered.forEach(tails::add);
        this.subscriptions = new DurableSubscriptions(journal.subscriptions());
        this.backlog = new DurableBacklog(subscriptions);
        recovered.forEach(backlog::add);
        this.journal = journal;
        this.index = index;
        this.retention = retention;
        this.durable = durable;
        this.counters = counters;
        long newest = index.newestId();
        for (Subscription s : journal.subscriptions()) {
            newest = Math.max(newest, s.journalId());
        }
        this.nextId = newest + 1;
        this.startedAfterId = newest;
        if (subscriptions.size() > 0) {
            LOG.info("{} durable subscription(s); {} message(s) ({} bytes) pending for them in memory",
                    subscriptions.size(), backlog.size(), backlog.bytes());
        }
    }

    /** On the receive thread: waits while the hand-off is full (the store never drops what it was sent). */
    @Override
    public void submit(JournalTask task) throws InterruptedException {
        queue.put(task);
    }

    /** More than a quarter of the hand-off waits: publishers should wait for the store. */
    boolean backedUp() {
        return queue.size() > QUEUE_MESSAGES / 4;
    }

    /** Journals what was handed over, then returns (the journal's pending fsyncs complete when it closes). */
    @Override
    public void run() {
        while (running() || !queue.isEmpty()) {
            JournalTask task;
            try {
                task = queue.poll(pollMillis(), TimeUnit.MILLISECONDS);
                if (task instanceof PendingWrite write) {
                    append(write);
                } else if (task instanceof ReplayRequest request) {
                    requests.addLast(request.joinedAt(nextId - 1));
                } else if (task instanceof DurableRequest request) {
                    durable(request);
                } else if (task instanceof CatchUpRequest request) {
                    answerCatchUp(request);
                }
                answerDueRequests();
                answerReturningSubscribers();
            } catch (InterruptedException e) {
                break;
            }
            applyRetention();
        }
    }

    /** Until the next retention check, or the next late join due, whichever comes first. */
    private long pollMillis() {
        long due = Long.MAX_VALUE;
        if (!requests.isEmpty()) {
            due = requests.peekFirst().dueMillis();
        }
        if (!returning.isEmpty()) {
            due = Math.min(due, returning.peekFirst().dueMillis());
        }
        long wait = Retention.CHECK_INTERVAL_MILLIS;
        return due == Long.MAX_VALUE ? wait : Math.max(0, Math.min(wait, due - System.currentTimeMillis()));
    }

    /**
     * A durable subscription record: a subscriber's subscribe (answered when due), position, delivered, unsubscribe;
     * a peer store's definition or removed record (its catch-up answer to a store that was down).
     */
    private void durable(DurableRequest request) throws InterruptedException {
        Subscription s = subscriptions.get(request.key());
        try {
            switch (request.type()) {
                case DurableSubscriptionFlyweight.TYPE_SUBSCRIBE -> {
                    if (s == null) {
                        s = create(request, nextId - 1, true);
                        if (s == null) {
                            return;
                        }
                        LOG.info("durable subscription {} on topic '{}' created", request.key(), request.topic());
                    } else if (!s.sameAs(request.topic(), request.selector(), request.noLocal())) {
                        // JMS: another topic, selector or noLocal makes it a new subscription
                        replace(s, request, nextId - 1, true);
                        LOG.info("durable subscription {} replaced: now on topic '{}'", request.key(),
                                request.topic());
                    } else if (s.incarnation() == 0) {
                        s.named(request.incarnation(), request.createdMillis());
                        journal.updateSubscription(s);
                    }
                    s.returning(System.currentTimeMillis(), CRASH_HANDED_MARGIN_MILLIS);
                    returning.addLast(request);
                }
                case DurableSubscriptionFlyweight.TYPE_DEFINITION -> learn(request, s);
                case DurableSubscriptionFlyweight.TYPE_REMOVED -> {
                    if (s != null && s.incarnation() == request.incarnation()) {
                        bury(s);
                        LOG.info("durable subscription {} removed: a peer store says it was unsubscribed while "
                                + "this store was down", request.key());
                    }
                }
                case DurableSubscriptionFlyweight.TYPE_POSITION -> {
                    if (s == null) {
                        confirm(request, StoreReplayFlyweight.FLAG_UNKNOWN_SUBSCRIPTION);
                        return;
                    }
                    for (DurableRequest.Position p : request.positions()) {
                        s.acknowledged(p.stream(), p.sequence());
                    }
                    s.heard(System.currentTimeMillis(), request.requestId() != 0); // a close asks for an answer
                    journal.updateSubscription(s);
                    confirm(request, 0);
                }
                case DurableSubscriptionFlyweight.TYPE_DELIVERED -> {
                    if (s != null) {    // in memory only: what a return's answer flags redelivered
                        for (DurableRequest.Position p : request.positions()) {
                            s.handed(p.stream(), p.sequence());
                        }
                        s.heard(System.currentTimeMillis(), false);
                    }
                }
                case DurableSubscriptionFlyweight.TYPE_UNSUBSCRIBE -> {
                    if (s == null) {
                        confirm(request, StoreReplayFlyweight.FLAG_UNKNOWN_SUBSCRIPTION);
                        return;
                    }
                    bury(s);
                    LOG.info("durable subscription {} removed (unsubscribe)", request.key());
                    confirm(request, 0);
                }
                default -> { }
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            LOG.error("could not journal durable subscription {}: {}; not answered", request.key(), e.toString());
        }
    }

    /**
     * A new subscription as the request defines it, journaled, its messages those after {@code createdAfterId};
     * null when the store keeps as many as it may. {@code startsNow}: it starts at the newest message held of each
     * stream of its topic (a subscriber's subscribe), so that a peer that was down and learns it takes nothing older
     * as pending; otherwise the peer that defined it sends its position next.
     */
    private Subscription create(DurableRequest request, long createdAfterId, boolean startsNow) throws Exception {
        if (subscriptions.full()) {
            LOG.warn("durable subscription {} refused: the store keeps {} already", request.key(),
                    DurableSubscriptions.MAX_SUBSCRIPTIONS);
            return null;
        }
        Subscription earlier = subscriptions.unbury(request.key());
        if (earlier != null) {
            journal.deleteSubscription(earlier);
        }
        Subscription s = new Subscription(request.key(), nextId++, request.topic(), request.selector(),
                request.noLocal(), createdAfterId, request.incarnation(), request.createdMillis());
        if (startsNow) {
            tails.lastSequences(request.topic()).forEach(s::acknowledged);
        }
        subscriptions.add(s);
        journal.addSubscription(s);
        return s;
    }

    /** JMS: another topic, selector or noLocal makes it a new subscription, of the request's incarnation. */
    private void replace(Subscription s, DurableRequest request, long createdAfterId, boolean startsNow)
            throws Exception {
        subscriptions.remove(s);
        s.replace(request.topic(), request.selector(), request.noLocal(), createdAfterId, request.incarnation(),
                request.createdMillis());
        if (startsNow) {
            tails.lastSequences(request.topic()).forEach(s::acknowledged);
        }
        subscriptions.add(s);
        journal.updateSubscription(s);
    }

    /**
     * A peer's definition: a subscription made (or replaced) while this store was down is taken, its messages those
     * this store received since it started (what it journaled before is older than the subscription); the peer's
     * position records follow. One this store knows as removed, or knows in a later incarnation, is not.
     */
    private void learn(DurableRequest request, Subscription s) throws Exception {
        Subscription tombstone = subscriptions.tombstone(request.key());
        if (s == null && tombstone != null && !tombstone.olderThan(request.createdMillis(), request.incarnation())) {
            return;
        }
        if (s == null) {
            if (create(request, startedAfterId, false) != null) {
                LOG.info("durable subscription {} on topic '{}' learnt from a peer store (made while this store was "
                        + "down)", request.key(), request.topic());
            }
        } else if (s.incarnation() == 0 && s.sameAs(request.topic(), request.selector(), request.noLocal())) {
            s.named(request.incarnation(), request.createdMillis());
            journal.updateSubscription(s);
        } else if (s.incarnation() != request.incarnation()
                && s.olderThan(request.createdMillis(), request.incarnation())) {
            replace(s, request, startedAfterId, false);
            LOG.info("durable subscription {} replaced as a peer store says (now on topic '{}')", request.key(),
                    request.topic());
        }
    }

    /** Unsubscribed: kept as a tombstone a while (peers that missed it learn it from this store's catch-up answer). */
    private void bury(Subscription s) throws Exception {
        subscriptions.remove(s);
        s.remove(System.currentTimeMillis());
        journal.updateSubscription(s);
        Subscription evicted = subscriptions.bury(s);
        if (evicted != null) {
            journal.deleteSubscription(evicted);
        }
    }

    /** Answers a request that wants an answer with an empty one (its flags say how it went). */
    private void confirm(DurableRequest request, int flags) throws InterruptedException {
        if (request.requestId() != 0) {
            replays.answer(new ReplayRequest(request.requesterNode(), request.requestId(), "", 0, 0, 0), List.of(),
                    flags);
        }
    }

    /** Returning durable subscribers whose settle time passed: their pending messages, oldest first. */
    private void answerReturningSubscribers() throws InterruptedException {
        long now = System.currentTimeMillis();
        while (!returning.isEmpty() && returning.peekFirst().dueMillis() <= now) {
            DurableRequest request = returning.removeFirst();
            Subscription s = subscriptions.get(request.key());
            if (s == null) {
                confirm(request, StoreReplayFlyweight.FLAG_UNKNOWN_SUBSCRIPTION);
                continue;
            }
            List<StoredMessage> pending = backlog.pending(s);
            long lost = s.takeLost();
            if (lost > 0) {
                LOG.warn("durable subscription {}: {} message(s) it had not consumed were dropped (retention or the "
                        + "memory bound of {} bytes) before it came back", s.key(), lost, DurableBacklog.MAX_BYTES);
            }
            replays.answer(new ReplayRequest(request.requesterNode(), request.requestId(), s.topic(), 0, 0, 0),
                    pending, lost > 0 ? StoreReplayFlyweight.FLAG_INCOMPLETE : 0, s::handedBefore);
            LOG.debug("durable subscription {} returned (node {}): replayed {} message(s)", s.key(),
                    Integer.toUnsignedString(request.requesterNode()), pending.size());
        }
    }

    /**
     * A peer store that was down: what this one received since, of the topics it keeps, from memory. At most one
     * answer per {@link #CATCH_UP_ANSWER_INTERVAL_NANOS}: a request of a few bytes may bring up to 64 MiB, so a
     * stream of (forged) requests must not turn the store into a flood; a store refused here takes another peer's
     * answer or waits out its catch-up time.
     */
    private void answerCatchUp(CatchUpRequest request) throws InterruptedException {
        if (!catchUpAnswers.allow()) {
            counters.catchUpRequestsRefused.increment();
            if (refusedCatchUpLog.allow()) {
                LOG.warn("catch-up request of node {} not answered: this store answers one per {} ms ({} more "
                        + "since the last line)", Integer.toUnsignedString(request.requesterNode()),
                        CATCH_UP_ANSWER_INTERVAL_NANOS / 1_000_000, refusedCatchUpLog.takeSuppressed());
            }
            return;
        }
        MessageIndex.Entry oldest = index.oldest();
        List<StoredMessage> missed = tails.since(request.sinceMillis(), request.topics(),
                oldest == null ? Long.MAX_VALUE : oldest.id());
        int positions = 0;
        // before the answer's end: the peer reads them before it acknowledges; a definition before its position
        for (Subscription s : subscriptions.all()) {
            if (request.topics().matches(s.topic())) {
                replays.sendDefinition(s);
                replays.sendPositions(s);
                positions++;
            }
        }
        for (Subscription t : subscriptions.tombstones()) {
            if (request.topics().matches(t.topic())) {
                replays.sendRemoved(t);
            }
        }
        replays.answer(new ReplayRequest(request.requesterNode(), request.requestId(), "", 0, 0, 0), missed);
        LOG.info("catch-up of store node {} (topics '{}', since {}): answered with {} message(s) and the positions "
                + "of {} durable subscription(s)", Integer.toUnsignedString(request.requesterNode()),
                request.topics(), java.time.Instant.ofEpochMilli(request.sinceMillis()), missed.size(), positions);
    }

    private void answerDueRequests() throws InterruptedException {
        long now = System.currentTimeMillis();
        while (!requests.isEmpty() && requests.peekFirst().dueMillis() <= now) {
            ReplayRequest request = requests.removeFirst();
            MessageIndex.Entry oldest = index.oldest();
            List<StoredMessage> newest = tails.answer(request.topic(), Math.min(request.count(),
                    TopicTails.MESSAGES_PER_TOPIC), request.joinedAtId(), oldest == null ? Long.MAX_VALUE
                    : oldest.id());
            replays.answer(request, newest);
            LOG.debug("late join of node {} on topic '{}': answered with {} message(s)",
                    Integer.toUnsignedString(request.requesterNode()), request.topic(), newest.size());
        }
    }

    private void append(PendingWrite write) {
        long id = nextId++;
        long now = System.currentTimeMillis();
        byte[] data = write.journalRecord();
        try {
            journal.append(id, data, new IOCallback() {
                @Override
                public void done() {
                    counters.messagesStored.increment();
                    counters.bytesStored.add(data.length);
                    durable.onDurable(write);
                }

                @Override
                public void onError(int errorCode, String errorMessage) {
                    writeFailed(write, errorMessage);
                }
            });
            index.add(id, now, data.length);
            StoredMessage stored = JournalRecordCodec.decode(id, data);
            tails.add(stored);
            backlog.add(stored);
        } catch (Exception e) {
            writeFailed(write, e.toString());
        }
    }

    /** Never acknowledged: the publisher's send fails at its timeout instead of a silent loss. */
    private void writeFailed(PendingWrite write, String reason) {
        counters.writeFailures.increment();
        durable.onFailed(write);
        if (failureLog.allow()) {
            LOG.error("could not journal a message (producer stream {}, sequence {}): {}; it is not acknowledged ({} "
                    + "more failures since the last line)", write.stream(), write.sequence(), reason,
                    failureLog.takeSuppressed());
        }
    }

    private void applyRetention() {
        long now = System.currentTimeMillis();
        if (now < nextRetentionCheck) {
            return;
        }
        nextRetentionCheck = now + Retention.CHECK_INTERVAL_MILLIS;
        backlog.dropConsumed();
        for (Subscription t : subscriptions.expireTombstones(now - DurableSubscriptions.TOMBSTONE_MILLIS)) {
            try {
                journal.deleteSubscription(t);
            } catch (Exception e) {
                LOG.error("could not drop the tombstone of durable subscription {}: {}", t.key(), e.toString());
            }
        }
        int dropped = 0;
        while (retention.dropOldest(index, now)) {
            MessageIndex.Entry oldest = index.removeOldest();
            backlog.droppedFromJournal(oldest.id());
            try {
                journal.delete(oldest.id());
                dropped++;
            } catch (Exception e) {
                LOG.error("could not drop journal record {} (retention): {}", oldest.id(), e.toString());
                break;
            }
        }
        if (dropped > 0) {
            counters.messagesExpired.add(dropped);
            LOG.info("retention dropped the {} oldest message(s); the journal holds {} ({} bytes)", dropped,
                    index.size(), index.bytes());
        }
    }
}
