package org.fjm2.norm.sender;

/**
 * Where the sender stands, in one place: its phase, the control messages due on the transmit loop's next pass,
 * and what the watermark rounds need to know of the data sent. Shared by the parts of {@link NormSender}; owned by
 * the session's event loop.
 */
final class SenderState {

    /** The sender's phase, from its first object to its idle announcements. */
    enum Phase {
        /** Nothing sent yet: no FLUSH, no EOT (every other node would take a receiver for a new sender). */
        FRESH,
        /** Data (first pass or repairs) is going out. */
        SENDING,
        /** Idle after sending: the end-of-transmission FLUSH repetitions (robust factor) are under way. */
        ENDING,
        /** Idle, the end-of-transmission FLUSHes done: while objects are held, the newest is named every second. */
        IDLE
    }

    /** A control message the transmit loop sends on its next pass. */
    static final int DUE_SQUELCH = 1;
    static final int DUE_EOT = 2;
    static final int DUE_FLUSH = 4;

    private Phase phase = Phase.FRESH;
    private int due;
    /** End-of-transmission FLUSHes sent in the ENDING phase. */
    private int endingFlushes;
    /** Whether the listener heard that the transmit queue drained since data last went out. */
    boolean idleReported = true;
    /**
     * SQUELCH messages still to send before the first data of this instance: they tell receivers that started
     * before us where our objects begin, so one that loses the whole first object still asks for it.
     */
    int startSquelches;
    long lastTransmitNanos;
    /** Data whose first pass ended since the last watermark round began. */
    long sentSinceRoundBytes;
    int sentSinceRoundObjects;

    SenderState(int startSquelches) {
        this.startSquelches = startSquelches;
    }

    Phase phase() {
        return phase;
    }

    boolean isIdle() {
        return phase != Phase.SENDING;
    }

    /** Whether this sender ever started an object (it then announces its end with EOT). */
    boolean hasSent() {
        return phase != Phase.FRESH;
    }

    /** Data went out: a stream (re)starts. */
    void sending() {
        phase = Phase.SENDING;
        idleReported = false;
    }

    /** The transmit loop ran dry after sending: the end-of-transmission FLUSHes begin. */
    void ending() {
        phase = Phase.ENDING;
        endingFlushes = 0;
    }

    /** One end-of-transmission FLUSH more is due; false when the robust factor's worth went out (now IDLE). */
    boolean nextEndingFlush(int robustFactor) {
        if (phase == Phase.ENDING && endingFlushes < robustFactor) {
            endingFlushes++;
            return true;
        }
        if (phase == Phase.ENDING) {
            phase = Phase.IDLE;
        }
        return false;
    }

    /** Whether the end-of-transmission FLUSH repetitions are done (or there was no transmission). */
    boolean endingDone(int robustFactor) {
        return phase == Phase.FRESH || phase == Phase.IDLE
                || (phase == Phase.ENDING && endingFlushes >= robustFactor);
    }

    void due(int message) {
        due |= message;
    }

    boolean isDue(int message) {
        return (due & message) != 0;
    }

    boolean anyDue() {
        return due != 0;
    }

    /** Takes a due message: true when it was due. */
    boolean take(int message) {
        boolean was = (due & message) != 0;
        due &= ~message;
        return was;
    }

    /** A watermark round began: what was sent before it no longer counts towards the next. */
    void roundBegan() {
        sentSinceRoundBytes = 0;
        sentSinceRoundObjects = 0;
    }
}
