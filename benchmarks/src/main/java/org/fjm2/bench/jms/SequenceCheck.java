package org.fjm2.bench.jms;

/**
 * What one subscriber received of one publisher's numbered messages (0, 1, 2...): how many, how many numbers were
 * skipped (gaps: lost) and how many arrived again or out of order (duplicates). Updated by the subscriber's
 * delivery thread, read by others (volatile fields, one writer).
 */
public final class SequenceCheck {

    private volatile long received;
    private volatile long gaps;
    private volatile long duplicates;
    private volatile long next;

    /** Records message number {@code seq}. */
    public void record(long seq) {
        if (seq == next) {
            next = seq + 1;
        } else if (seq > next) {
            gaps += seq - next;
            next = seq + 1;
        } else {
            duplicates++;
        }
        received++;
    }

    public long received() {
        return received;
    }

    public long gaps() {
        return gaps;
    }

    public long duplicates() {
        return duplicates;
    }

    /** The number after the highest one received: everything below it was received or counted as a gap. */
    public long next() {
        return next;
    }
}
