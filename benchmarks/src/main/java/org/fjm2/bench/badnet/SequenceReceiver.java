package org.fjm2.bench.badnet;

import jakarta.jms.ExceptionListener;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageListener;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.fjm2.jms.MessagesLostException;

/**
 * The subscriber side of a bad-network run: checks the sequence numbers a {@link StreamPublisher} put in its
 * messages and records, per message, when it arrived. It counts duplicates and out-of-order arrivals, keeps the
 * delivery latency (arrival minus the publisher's send time, both {@link System#nanoTime()} of this JVM), the gaps
 * between consecutive arrivals, and what the provider reported lost through the connection's ExceptionListener
 * ({@link MessagesLostException}). Thread-safe: the provider's delivery thread and the run's thread share it.
 */
public final class SequenceReceiver implements MessageListener, ExceptionListener {

    /** Highest delivery latency the histogram records exactly (longer values are clamped): a minute. */
    static final long MAX_LATENCY_MICROS = TimeUnit.MINUTES.toMicros(1);

    private final int expected;
    private final long[] arrivalNanos;
    private final Histogram latencyMicros = new Histogram(MAX_LATENCY_MICROS, 3);
    private int unique;
    private long duplicates;
    private long outOfOrder;
    private long bytes;
    private int lastSequence = -1;
    private long firstArrival;
    private long lastArrival;
    private long reportedLost;
    private long lossReports;
    private long unknownLossReports;
    private String otherProblem;

    public SequenceReceiver(int expected) {
        this.expected = expected;
        this.arrivalNanos = new long[expected];
    }

    @Override
    public void onMessage(Message message) {
        long now = System.nanoTime();
        try {
            int seq = message.getIntProperty(StreamPublisher.SEQUENCE_PROPERTY);
            long sent = message.getLongProperty(StreamPublisher.SENT_NANOS_PROPERTY);
            int size = message.getIntProperty(StreamPublisher.SIZE_PROPERTY);
            record(seq, sent, size, now);
        } catch (JMSException | RuntimeException e) {
            onException(e instanceof JMSException j ? j : new JMSException(e.toString()));
        }
    }

    private synchronized void record(int seq, long sentNanos, int size, long now) {
        if (seq < 0 || seq >= expected) {
            otherProblem = "sequence number " + seq + " outside 0.." + (expected - 1);
            return;
        }
        if (arrivalNanos[seq] != 0) {
            duplicates++;
            return;
        }
        if (seq < lastSequence) {
            outOfOrder++;
        }
        lastSequence = Math.max(lastSequence, seq);
        arrivalNanos[seq] = now;
        if (unique == 0) {
            firstArrival = now;
        }
        lastArrival = now;
        unique++;
        bytes += size;
        latencyMicros.recordValue(Math.min(MAX_LATENCY_MICROS, Math.max(0, (now - sentNanos) / 1000)));
        notifyAll();
    }

    @Override
    public synchronized void onException(JMSException exception) {
        if (exception instanceof MessagesLostException lost) {
            lossReports++;
            if (lost.lostMessages() < 0) {
                unknownLossReports++;
            } else {
                reportedLost += lost.lostMessages();
            }
            notifyAll();
        } else if (otherProblem == null) {
            otherProblem = exception.toString();
        }
    }

    /**
     * Waits until every message arrived or was reported lost, or until {@code timeoutNanos} passed.
     *
     * @return whether every message is accounted for
     */
    public synchronized boolean awaitAccounted(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (unique + reportedLost < expected) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** What arrived, frozen at the time of the call. */
    public synchronized Summary summary() {
        long[] arrivals = Arrays.stream(arrivalNanos).filter(t -> t != 0).sorted().toArray();
        long maxGap = 0;
        for (int i = 1; i < arrivals.length; i++) {
            maxGap = Math.max(maxGap, arrivals[i] - arrivals[i - 1]);
        }
        return new Summary(expected, unique, expected - unique, reportedLost, lossReports, unknownLossReports,
                duplicates, outOfOrder, bytes, lastArrival - firstArrival, latencyMicros.copy(), arrivals, maxGap,
                otherProblem);
    }

    /**
     * A frozen view of the run at the subscriber.
     *
     * @param missing      messages that never arrived (whether or not reported)
     * @param reportedLost messages the provider reported lost (MessagesLostException counts)
     * @param arrivalNanos arrival times of the unique messages, in arrival order
     * @param maxGapNanos  longest time between two consecutive arrivals
     */
    public record Summary(int expected, int received, int missing, long reportedLost, long lossReports,
                          long unknownLossReports, long duplicates, long outOfOrder, long bytes,
                          long spanNanos, Histogram latencyMicros, long[] arrivalNanos, long maxGapNanos,
                          String otherProblem) {

        /** Messages missing that no loss report covers: silent loss, which must never happen. */
        public long silentlyLost() {
            return unknownLossReports > 0 ? 0 : Math.max(0, missing - reportedLost);
        }

        /** J_n = t'_n - t'_(n-1) - T over consecutive arrivals, sorted ascending (the jitter of a periodic stream). */
        public long[] sortedJitterNanos(long periodNanos) {
            long[] j = new long[Math.max(0, arrivalNanos.length - 1)];
            for (int i = 1; i < arrivalNanos.length; i++) {
                j[i - 1] = arrivalNanos[i] - arrivalNanos[i - 1] - periodNanos;
            }
            Arrays.sort(j);
            return j;
        }

        /** The value at {@code percentile} (0..100) of a sorted array (nearest rank), NaN when empty. */
        public static double percentile(long[] sorted, double percentile) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            int rank = (int) Math.ceil(percentile / 100.0 * sorted.length);
            return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
        }

        public double latencyMillis(double percentile) {
            return latencyMicros.getTotalCount() == 0 ? Double.NaN
                    : latencyMicros.getValueAtPercentile(percentile) / 1000.0;
        }
    }
}
