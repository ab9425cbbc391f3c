package org.fjm2.jms;

/**
 * What a receiver knows of one (sender, producer, priority) stream: the last sequence number it accepted, and the
 * rule that turns the next number into a verdict (docs/wire-format.md, "Ordering, duplicates and loss"). A number
 * further than {@code maxJump} from the last one, forwards or back, is implausible: a forged or corrupted record,
 * a producer that started numbering again, or the first record after a loss larger than the bound. Accepting it
 * would turn every later genuine message into a "duplicate" (or a huge false gap), so it is dropped and held as a
 * suspect; the stream moves there (a new incarnation) only when the next record continues from the suspect, and
 * stays where it was when the next record continues from the last one.
 */
final class ProducerStream extends LruTable.Entry {

    /** Verdict: the number was accepted before (a repair or tunnel copy): discard. */
    static final long DUPLICATE = -1;
    /** Verdict: the number jumped beyond the bound: dropped and held as a suspect. */
    static final long IMPLAUSIBLE = -2;
    /** Verdict: the number continues from the suspect: the stream starts again from it, loss count unknown. */
    static final long RESTARTED = -3;

    /** The last number accepted; 0 before the first. */
    private long last;
    /** The last implausible number, until the next record confirms or refutes it; 0 when none. */
    private long suspect;

    long last() {
        return last;
    }

    /**
     * The verdict on the next record's number (>= 1): n >= 0 accepted, n messages missing before it; or
     * {@link #DUPLICATE}, {@link #IMPLAUSIBLE}, {@link #RESTARTED}.
     *
     * @param heardFromStart whether this receiver listened when the stream began, so that it began at 1 (else the
     *                       first number heard is the starting point: a late join)
     * @param maxJump        the largest plausible distance between two numbers heard one after the other
     */
    long accept(long sequence, boolean heardFromStart, long maxJump) {
        if (last == 0 && !heardFromStart) {
            last = sequence;
            return 0;
        }
        // Both are >= 0 (the stream heard from its start counts from 0): no overflow.
        long distance = sequence - last;
        if (distance > 0 && distance <= maxJump) {
            last = sequence;
            suspect = 0;
            return distance - 1;
        }
        if (distance <= 0 && distance > -maxJump) {
            return DUPLICATE;
        }
        if (suspect != 0 && sequence > suspect && sequence - suspect <= maxJump) {
            last = sequence;
            suspect = 0;
            return RESTARTED;
        }
        suspect = sequence;
        return IMPLAUSIBLE;
    }
}
