package org.fjm2.store;

import org.apache.activemq.artemis.core.io.IOCallback;
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
 * joins from the topics' tails, keeps the durable subscriptions' records ({@link DurableRecords}) with the messages
 * they still need ({@link DurableBacklog}), and answers a peer store's catch-up from the same memory. The hand-off is
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
    /** A store answers at most one peer's catch-up request per second. */
    static final long CATCH_UP_ANSWER_INTERVAL_NANOS = 1_000_000_000L;

    private final BlockingQueue<JournalTask> queue = new ArrayBlockingQueue<>(QUEUE_MESSAGES);
    private final TopicTails tails = new TopicTails();
    private final ArrayDeque<ReplayRequest> requests = new ArrayDeque<>();
    private final DurableBacklog backlog;
    private final DurableRecords durableRecords;
    private final ReplaySender replays;
    private final StoreJournal journal;
    private final MessageIndex index;
    private final Retention retention;
    private final Durable durable;
    private final StoreCounters counters;
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private final LogLimiter catchUpAnswers = new LogLimiter(CATCH_UP_ANSWER_INTERVAL_NANOS, System::nanoTime);
    private final LogLimiter refusedCatchUpLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private final JournalIds ids;
    private long nextRetentionCheck;

    /** @param recovered what the journal held at start, oldest first (for late joins) */
    JournalWriter(StoreJournal journal, MessageIndex index, List<StoredMessage> recovered, Retention retention,
                  Durable durable, ReplaySender replays, StoreCounters counters) {
        super("fjm2-store-journal");
        this.replays = replays;
        recovered.forEach(tails::add);
        DurableSubscriptions subscriptions = new DurableSubscriptions(journal.subscriptions());
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
        this.ids = new JournalIds(newest);
        this.durableRecords = new DurableRecords(journal, subscriptions, backlog, tails, replays, ids);
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
                    requests.addLast(request.joinedAt(ids.newest()));
                } else if (task instanceof DurableRequest request) {
                    durableRecords.apply(request);
                } else if (task instanceof CatchUpRequest request) {
                    answerCatchUp(request);
                }
                answerDueRequests();
                durableRecords.answerDue();
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
        due = Math.min(due, durableRecords.nextDueMillis());
        long wait = Retention.CHECK_INTERVAL_MILLIS;
        return due == Long.MAX_VALUE ? wait : Math.max(0, Math.min(wait, due - System.currentTimeMillis()));
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
        // before the answer's end: the peer reads them before it acknowledges
        int positions = durableRecords.sendTo(request.topics());
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
        long id = ids.allocate();
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
        durableRecords.expireTombstones(now);
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
