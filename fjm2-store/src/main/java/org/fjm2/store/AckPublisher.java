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
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The thread that tells publishers what is on disk: it takes the messages the journal completed (in append order,
 * so a message's completion follows those of every earlier one), folds them into one range per producer stream and
 * multicasts them as one acknowledgement record ({@link StoreAckFlyweight}) — as many messages per record as
 * completed while the previous one was sent, so acknowledgements cost little under load.
 */
final class AckPublisher extends WorkerThread {

    private static final Logger LOG = LoggerFactory.getLogger(AckPublisher.class);
    /** Ranges per acknowledgement record (33 bytes each: about 33 KB). */
    static final int MAX_ENTRIES_PER_RECORD = 1024;
    /** How long sending an acknowledgement may wait for room in the transport. */
    static final long SEND_TIMEOUT_MILLIS = 10_000;

    private final LinkedBlockingQueue<PendingWrite> durable = new LinkedBlockingQueue<>();
    private final ObjectTransport transport;
    private final String storeName;
    private final long epoch;
    private final StoreCounters counters;
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS, System::nanoTime);
    private final List<PendingWrite> drained = new ArrayList<>();
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
    void onDurable(PendingWrite write) {
        durable.add(write);
    }

    /** Sends what completed until closed, and what completed before. */
    @Override
    public void run() {
        while (running() || !durable.isEmpty()) {
            try {
                PendingWrite first = durable.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                drained.add(first);
                durable.drainTo(drained);
                publish(ranges(drained));
            } catch (InterruptedException e) {
                break;
            } finally {
                drained.clear();
            }
        }
    }

    /** One range per (stream, run): the run's start to the highest number completed in it. */
    private static Map<Run, long[]> ranges(List<PendingWrite> writes) {
        Map<Run, long[]> ranges = new LinkedHashMap<>();
        for (PendingWrite w : writes) {
            long[] range = ranges.computeIfAbsent(new Run(w.stream(), w.runStart()),
                    k -> new long[] {w.runStart(), w.sequence()});
            range[1] = Math.max(range[1], w.sequence());
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
    private record Run(StreamKey stream, long start) {
    }
}
