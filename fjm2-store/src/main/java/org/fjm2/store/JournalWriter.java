package org.fjm2.store;

import org.apache.activemq.artemis.core.io.IOCallback;
import org.fjm2.norm.util.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The thread that owns the journal: appends what the receive thread hands over (fsync'd, with group commit), tells
 * the acknowledgement publisher when each message is on disk, keeps the index and applies retention. The hand-off is
 * bounded: while it is more than a quarter full the store holds back its NORM acknowledgements (publishers then slow
 * down, as for a slow subscriber), and when full the receive thread waits rather than drop a message.
 */
final class JournalWriter extends WorkerThread {

    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);
    /** Messages waiting for the journal before the receive thread waits. */
    static final int QUEUE_MESSAGES = 16_384;

    /** Where a message goes once it is on disk. */
    interface Durable {
        void onDurable(PendingWrite write);
    }

    private final BlockingQueue<PendingWrite> queue = new ArrayBlockingQueue<>(QUEUE_MESSAGES);
    private final StoreJournal journal;
    private final MessageIndex index;
    private final Retention retention;
    private final Durable durable;
    private final StoreCounters counters;
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private long nextId;
    private long nextRetentionCheck;

    JournalWriter(StoreJournal journal, MessageIndex index, Retention retention, Durable durable,
                  StoreCounters counters) {
        super("fjm2-store-journal");
        this.journal = journal;
        this.index = index;
        this.retention = retention;
        this.durable = durable;
        this.counters = counters;
        this.nextId = index.newestId() + 1;
    }

    /** On the receive thread: waits while the hand-off is full (the store never drops what it was sent). */
    void submit(PendingWrite write) throws InterruptedException {
        queue.put(write);
    }

    /** More than a quarter of the hand-off waits: publishers should wait for the store. */
    boolean backedUp() {
        return queue.size() > QUEUE_MESSAGES / 4;
    }

    /** Journals what was handed over, then returns (the journal's pending fsyncs complete when it closes). */
    @Override
    public void run() {
        while (running() || !queue.isEmpty()) {
            PendingWrite write;
            try {
                write = queue.poll(Retention.CHECK_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                break;
            }
            if (write != null) {
                append(write);
            }
            applyRetention();
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
        } catch (Exception e) {
            writeFailed(write, e.toString());
        }
    }

    /** Not acknowledged: the publisher's send fails at its timeout instead of a silent loss. */
    private void writeFailed(PendingWrite write, String reason) {
        counters.writeFailures.increment();
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
        int dropped = 0;
        while (retention.dropOldest(index, now)) {
            MessageIndex.Entry oldest = index.removeOldest();
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
