package org.fjm2.norm.receiver;

/**
 * A receiver's loss event fraction for one sender (RFC 5740 section 5.5.2, TFMCC's loss intervals, RFC 5348 section
 * 5): losses are found as gaps in the sender's 16-bit message sequence numbers; all losses within one round trip of
 * the first belong to one loss event; a loss interval is the number of messages (sequence numbers, lost ones
 * included) from one event to the next. The fraction is the inverse of the weighted mean of the last
 * {@link #INTERVALS} closed intervals (weights 1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2), or of the open interval and the
 * seven newest closed ones when that mean is larger (a long loss-free run lowers the fraction at once).
 *
 * <p>A jump of more than {@link #RESYNC_GAP} sequence numbers, forwards or backwards, is a restart or a forgery, not
 * loss: the estimator resynchronises without an event. Late (reordered) and duplicate messages are ignored. No
 * allocation after construction; owned by the session's event loop.
 */
final class LossIntervals {

    /** Closed loss intervals averaged. */
    static final int INTERVALS = 8;
    /** Sequence jump beyond which the estimator resynchronises instead of counting loss. */
    static final int RESYNC_GAP = 1000;
    private static final double[] WEIGHTS = {1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2};

    /** history[0]: the open interval; history[1..INTERVALS]: closed ones, newest first; 0 = none yet. */
    private final long[] history = new long[INTERVALS + 1];
    private boolean started;
    private int highest;
    private boolean inEvent;
    private long eventStartNanos;
    private long eventWindowNanos;

    LossIntervals(long eventWindowNanos) {
        this.eventWindowNanos = eventWindowNanos;
    }

    /** Losses within this long of an event's first loss are the same event: the round trip to the sender. */
    void eventWindow(long nanos) {
        this.eventWindowNanos = nanos;
    }

    /** A message with {@code sequence} arrived at {@code now}; true when it revealed a new loss event. */
    boolean onMessage(int sequence, long now) {
        int seq = sequence & 0xFFFF;
        if (!started) {
            started = true;
            highest = seq;
            history[0] = 1;
            return false;
        }
        int delta = (short) (seq - highest);
        if (delta > RESYNC_GAP || delta < -RESYNC_GAP) {
            highest = seq;
            return false;
        }
        if (delta <= 0) {
            return false;       // late or duplicate: not counted twice
        }
        highest = seq;
        boolean newEvent = false;
        if (delta > 1) {
            if (inEvent && now - eventStartNanos > eventWindowNanos) {
                inEvent = false;
            }
            if (!inEvent) {
                System.arraycopy(history, 0, history, 1, INTERVALS);
                history[0] = 0;
                inEvent = true;
                eventStartNanos = now;
                newEvent = true;
            }
        }
        history[0] += delta;
        return newEvent;
    }

    /** Whether a loss event was ever seen (or seeded). */
    boolean hasLoss() {
        return history[1] > 0;
    }

    /** Length of the newest closed interval (0 before the first loss event). */
    long lastInterval() {
        return history[1];
    }

    /**
     * Replaces the history by one synthetic interval of 1/{@code loss} messages: at the first loss event the
     * fraction is seeded from the rate received so far (RFC 5348 section 6.3.1), not from the messages counted
     * since the receiver joined.
     */
    void seed(double loss) {
        long interval = Math.max(1, Math.round(1.0 / Math.max(loss, 1e-9)));
        java.util.Arrays.fill(history, 1, history.length, 0);
        history[1] = interval;
    }

    /** The loss event fraction, 0 before the first loss event. */
    double lossFraction() {
        if (history[1] == 0) {
            return 0.0;
        }
        double closed = weightedMean(1);
        double withOpen = weightedMean(0);
        return 1.0 / Math.max(closed, withOpen);
    }

    private double weightedMean(int from) {
        double sum = 0;
        double weights = 0;
        for (int i = 0; i < INTERVALS; i++) {
            long interval = history[from + i];
            if (interval == 0 && from + i > 0) {
                break;
            }
            sum += interval * WEIGHTS[i];
            weights += WEIGHTS[i];
        }
        return weights == 0 ? 0 : sum / weights;
    }
}
