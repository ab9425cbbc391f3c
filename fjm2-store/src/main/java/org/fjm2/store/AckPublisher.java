package org.fjm2.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import org.fjm2.jms.transport.ObjectTransport;
import org.fjm2.jms.wire.BatchHeaderFlyweight;
import org.fjm2.jms.wire.StoreAckFlyweight;
import org.fjm2.norm.util.LogLimiter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The thread that tells publishers what is on disk: it takes the messages the journal completed or failed to write
 * (in append order, so a message's outcome follows those of every earlier one), folds the completed ones into one
 * range per producer stream and multicasts them as one acknowledgement record ({@link StoreAckFlyweight}) — as many
 * messages per record as completed while the previous one was sent, so acknowledgements cost little under load. A
 * range never spans a message whose write failed (a full disk): that message's send fails at its timeout, even when
 * later ones of its stream are written once room is made.
 */
final class AckPublisher extends WorkerThread implements JournalWriter.Durable {

    private static final Logger LOG = LoggerFactory.getLogger(AckPublisher.class);
    /** Ranges per acknowledgement record (33 bytes each: about 33 KB). */
    static final int MAX_ENTRIES_PER_RECORD = 1024;
    /** How long sending an acknowledgement may wait for room in the transport. */
    static final long SEND_TIMEOUT_MILLIS = 10_000;

    private final LinkedBlockingQueue<Outcome> outcomes = new LinkedBlockingQueue<>();
    /**
     * Per run that had a failed write: its last failed number (later messages of the run are acknowledged from the
     * one after). Owned by this thread; the runs that failed longest ago are forgotten beyond
     * {@link StreamTracker#MAX_STREAMS}.
     */
    private final Map<Run, Long> lastFailed = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Run, Long> eldest) {
            return size() > StreamTracker.MAX_STREAMS;
        }
    };
    private final ObjectTransport transport;
    private final String storeName;
    private final long epoch;
    private final StoreCounters counters;
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private final List<Outcome> drained = new ArrayList<>();
    /** Set while nothing may be acknowledged yet (a starting store catching up); outcomes wait in the queue. */
    private volatile CountDownLatch holding;
    private long sequence;

    /** @param epoch the store's connection epoch (in every batch it sends) */
    AckPublisher(ObjectTransport transport, String storeName, long epoch, StoreCounters counters) {
        super("fjm2-store-acks");
        this.transport = transport;
        this.storeName = storeName;
        this.epoch = epoch;
        this.counters = counters;
    }

    /** On the journal's completion thread: this message is on disk. */
    @Override
    public void onDurable(PendingWrite write) {
        outcomes.add(new Outcome(write, true));
    }

    /** On the journal's threads, in append order with {@link #onDurable}: this message could not be written. */
    @Override
    public void onFailed(PendingWrite write) {
        outcomes.add(new Outcome(write, false));
    }

    /** Acknowledges nothing until {@link #release}: what completes meanwhile is acknowledged then. */
    void hold() {
        holding = new CountDownLatch(1);
    }

    void release() {
        CountDownLatch h = holding;
        holding = null;
        if (h != null) {
            h.countDown();
        }
    }

    /** Sends what completed until closed, and what completed before. */
    @Override
    public void run() {
        while (running() || !outcomes.isEmpty()) {
            try {
                CountDownLatch held = holding;
                if (held != null && running()) {
                    held.await(100, TimeUnit.MILLISECONDS);
                    continue;
                }
                Outcome first = outcomes.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                drained.add(first);
                outcomes.drainTo(drained);
                Map<Run, long[]> ranges = ranges(drained);
                if (!ranges.isEmpty()) {
                    publish(ranges);
                }
            } catch (InterruptedException e) {
                break;
            } finally {
                drained.clear();
            }
        }
    }

    /**
     * One range per (stream, run): the run's start, or the number after its last failed write, to the highest number
     * completed after it.
     */
    Map<Run, long[]> ranges(List<Outcome> outcomesInOrder) {
        Map<Run, long[]> ranges = new LinkedHashMap<>();
        PendingWrite previous = null;
        long[] previousRange = null;
        for (Outcome o : outcomesInOrder) {
            PendingWrite w = o.write();
            if (previousRange != null && o.stored() && lastFailed.isEmpty() && w.runStart() == previous.runStart()
                    && w.stream().equals(previous.stream())) {
                previousRange[1] = Math.max(previousRange[1], w.sequence()); // the common case: the same run again
                continue;
            }
            previous = null;
            previousRange = null;
            Run run = new Run(w.stream(), w.runStart());
            if (!o.stored()) {
                lastFailed.merge(run, w.sequence(), Math::max);
                continue;
            }
            Long failed = lastFailed.get(run);
            long start = failed == null ? w.runStart() : failed + 1;
            if (w.sequence() < start) {
                continue;   // only if outcomes came out of order: never acknowledge across a failure
            }
            Run key = start == w.runStart() ? run : new Run(w.stream(), start);
            long[] range = ranges.computeIfAbsent(key, k -> new long[] {start, w.sequence()});
            range[1] = Math.max(range[1], w.sequence());
            if (key == run) {
                previous = w;
                previousRange = range;
            }
        }
        return ranges;
    }

    private void publish(Map<Run, long[]> ranges) throws InterruptedException {
        List<Map.Entry<Run, long[]>> all = new ArrayList<>(ranges.entrySet());
        for (int from = 0; from < all.size(); from += MAX_ENTRIES_PER_RECORD) {
            List<Map.Entry<Run, long[]>> chunk = all.subList(from,
                    Math.min(all.size(), from + MAX_ENTRIES_PER_RECORD));
            send(chunk);
        }
    }

    private void send(List<Map.Entry<Run, long[]>> entries) throws InterruptedException {
        ByteBuf batch = PooledByteBufAllocator.DEFAULT.directBuffer(BatchHeaderFlyweight.LENGTH + 128
                + entries.size() * StoreAckFlyweight.ENTRY_LENGTH);
        BatchHeaderFlyweight.writeEmpty(batch, epoch);
        int record = StoreAckFlyweight.beginRecord(batch, ++sequence, System.currentTimeMillis(), storeName);
        for (Map.Entry<Run, long[]> e : entries) {
            StreamKey stream = e.getKey().stream();
            StoreAckFlyweight.writeEntry(batch, stream.node(), stream.epoch(), stream.producer(), stream.priority(),
                    e.getValue()[0], e.getValue()[1]);
        }
        StoreAckFlyweight.endRecord(batch, record, entries.size());
        new BatchHeaderFlyweight().wrap(batch, 0).recordCount(1);
        boolean sent;
        try {
            sent = transport.send(batch, StoreAckFlyweight.PRIORITY, SEND_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        } catch (IllegalStateException closed) {
            sent = false;
        }
        if (sent) {
            counters.acknowledgementsSent.increment();
        } else if (failureLog.allow()) {
            // The publishers' sends time out; the messages are on disk all the same.
            LOG.warn("an acknowledgement of {} range(s) could not be sent within {} ms ({} more since the last "
                    + "line)", entries.size(), SEND_TIMEOUT_MILLIS, failureLog.takeSuppressed());
        }
    }

    /** A hole-free run of a stream, named by its first number. */
    record Run(StreamKey stream, long start) {
    }

    /** A message the journal wrote ({@code stored}) or failed to write. */
    record Outcome(PendingWrite write, boolean stored) {
    }
}
