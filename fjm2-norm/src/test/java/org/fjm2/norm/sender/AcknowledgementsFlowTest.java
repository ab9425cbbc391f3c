package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The sender's side of receiver-paced flow control in the receivers' table: the room left is the least any
 * reporting receiver has (its window less what was sent since the message it last read); receivers that do not
 * report do not limit it; a receiver whose window stays full stops being paced for when silent and is paced for
 * again when it reports, is dropped when it talks but reads nothing; a zero window cannot shut the sender.
 */
class AcknowledgementsFlowTest {

    static final long MS = 1_000_000L;
    static final long SILENCE = 150 * MS;
    static final long TIMEOUT = 6_000 * MS;

    private final AcknowledgementsSilenceTest.Clock clock = new AcknowledgementsSilenceTest.Clock();
    private final Acknowledgements acks = new Acknowledgements(true, 16, 60_000 * MS, clock);
    /** Every message costs 1,000 bytes; we sent up to sequence 99. */
    private final Acknowledgements.InFlight inFlight = read -> Math.max(0, 99 - read) * 1000L;

    @Test
    void theRoomIsTheLeastAnyReportingReceiverHas() {
        acks.onWindowReport(1, 99, 50_000, 0);      // read everything sent: 50,000 more
        acks.onWindowReport(2, 89, 40_000, 0);      // 10 messages behind with 40,000: 30,000 more
        acks.alive(3, 0);                            // answers rounds, reports no window: no limit
        assertThat(acks.flowRoom(inFlight)).isEqualTo(30_000);
        assertThat(acks.flowChanged()).isFalse();
        acks.onWindowReport(2, 99, 40_000, 1);
        assertThat(acks.flowChanged()).isTrue();
        assertThat(acks.flowRoom(inFlight)).isEqualTo(40_000);
    }

    @Test
    void noReportingReceiverMeansNoLimit() {
        acks.alive(3, 0);
        assertThat(acks.flowRoom(inFlight)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aZeroWindowCannotShutTheSender() {
        acks.onWindowReport(1, 99, 0, 0);
        assertThat(acks.flowRoom(inFlight)).isEqualTo(Acknowledgements.MIN_WINDOW_BYTES);
    }

    @Test
    void aSilentReceiverWithAFullWindowIsNoLongerPacedForUntilItReports() {
        acks.onWindowReport(1, 89, 10_000, 0);       // 10 behind: full
        acks.onWindowReport(2, 99, 10_000, 0);
        acks.onWindowReport(2, 99, 10_000, SILENCE);  // 2 keeps reporting; 1 fell silent with its window full
        assertThat(acks.flowRoom(inFlight)).isZero();
        assertThat(acks.releaseSilentWindows(inFlight, SILENCE - 1, SILENCE, TIMEOUT)).as("not silent long enough")
                .isFalse();
        assertThat(acks.releaseSilentWindows(inFlight, SILENCE, SILENCE, TIMEOUT)).isTrue();
        assertThat(acks.flowRoom(inFlight)).isEqualTo(10_000);
        assertThat(acks.trackedCount()).as("still waited for by the cache").isEqualTo(2);
        assertThat(acks.acknowledged(0)).as("the cache still waits for its acknowledgement").isFalse();
        acks.onWindowReport(1, 95, 10_000, SILENCE + MS);
        assertThat(acks.flowRoom(inFlight)).as("it reported: paced for again").isEqualTo(6_000);
    }

    @Test
    void aReceiverThatTalksButReadsNothingIsDroppedAfterTheTimeout() {
        acks.onWindowReport(1, 89, 10_000, 0);
        for (long t = 0; t <= TIMEOUT; t += 100 * MS) {
            acks.onWindowReport(1, 89, 10_000, t);   // reports forever, never reads past 89
            assertThat(acks.trackedCount()).isEqualTo(1);
            acks.releaseSilentWindows(inFlight, t, SILENCE, TIMEOUT);
        }
        assertThat(acks.trackedCount()).as("dropped for reading nothing").isZero();
        assertThat(acks.onWindowReport(1, 89, 10_000, TIMEOUT + MS)).as("its reports alone do not bring it back")
                .isFalse();
        assertThat(acks.flowRoom(inFlight)).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * A receiver with a socket buffer of 16 MB that reads 1 MB/s: its window is bounded by what it reads in its round
     * trip plus the queue delay (here 100 ms of RTT and 400 ms of queue: 500,000 bytes), not the 16 MB that would be
     * a queue of 16 s; a receiver that reads 2 MB/s is bounded by its own pace.
     */
    @Test
    void aSlowReceiversWindowIsBoundedByWhatItReadsInTheQueueDelay() {
        long queueDelay = 400 * MS;
        long[] sent = {0};     // cumulative charge after sequence s: 1,000 bytes each
        Acknowledgements.InFlight charges = read -> Math.max(0, sent[0] - (read + 1) * 1000L);
        int slowRead = 0;
        int fastRead = 0;
        for (long t = 0; t <= 200 * MS; t += 10 * MS) {
            slowRead += 10;             // 10,000 bytes per 10 ms: 1 MB/s
            fastRead += 20;             // 20,000 bytes per 10 ms: 2 MB/s
            sent[0] = (fastRead + 1) * 1000L;
            acks.onWindowReport(1, slowRead, 16_000_000, t, charges);
            acks.onWindowReport(2, fastRead, 16_000_000, t, charges);
        }
        acks.onRtt(1, 100 * MS);
        acks.onRtt(2, 100 * MS);
        acks.onRtt(2, 300 * MS);       // the least is kept
        long slowInFlight = charges.chargeAfter(slowRead);
        long bound = Math.max(Acknowledgements.MIN_DELAY_WINDOW_BYTES, 1_000_000 * 500 / 1000);
        assertThat(acks.flowRoom(charges, queueDelay)).isEqualTo(Math.max(0, bound - slowInFlight));
        assertThat(acks.flowRoom(charges, Long.MAX_VALUE)).as("without the bound: the socket buffer")
                .isEqualTo(16_000_000 - slowInFlight);

        acks.leave(1);
        assertThat(acks.flowRoom(charges, queueDelay)).as("2 MB/s x 500 ms")
                .isEqualTo(1_000_000 - charges.chargeAfter(fastRead));
    }

    @Test
    void aReportOvertakenByTheLeaveDoesNotTrackTheDepartedReceiverAgain() {
        acks.onWindowReport(7, 10, 1_000_000, clock.now);
        assertThat(acks.trackedCount()).isEqualTo(1);
        acks.leave(7);
        clock.now += MS;
        acks.onWindowReport(7, 11, 1_000_000, clock.now);      // sent before the leave, read after it
        acks.alive(7, clock.now);
        assertThat(acks.trackedCount()).as("a report read after the leave").isZero();
        clock.now += Acknowledgements.LEFT_GRACE_NANOS;
        acks.onWindowReport(7, 1, 1_000_000, clock.now);
        assertThat(acks.trackedCount()).as("back with the same node id, after the grace").isEqualTo(1);
    }

    @Test
    void aReportAfterAPauseStartsANewMeasurementInsteadOfCountingTheIdleTime() {
        DrainRate drain = new DrainRate();
        drain.onRead(0, 0);
        drain.onRead(100_000, 10 * MS);             // 10 MB/s
        assertThat(drain.bytesPerSecond(0)).isEqualTo(10_000_000);
        drain.onRead(1_000, 2_000 * MS);            // two idle seconds: no sample
        drain.onRead(1_000, 2_010 * MS);
        assertThat(drain.bytesPerSecond(0)).as("the 10 ms after the pause, not 2,000 bytes over 2 s")
                .isEqualTo(100_000);
        assertThat(drain.bytesPerSecond(3_000 * MS)).as("the best within a long horizon").isEqualTo(10_000_000);
    }

    @Test
    void thePaceIsTheBestIntervalWithinTheHorizon() {
        DrainRate drain = new DrainRate();
        drain.onRead(0, 0);
        drain.onRead(100_000, 10 * MS);             // 10 MB/s
        for (long t = 20 * MS; t <= 500 * MS; t += 10 * MS) {
            drain.onRead(10_000, t);                // 1 MB/s from then on
        }
        assertThat(drain.bytesPerSecond(0)).as("the last 40 ms").isEqualTo(1_000_000);
        assertThat(drain.bytesPerSecond(1_000 * MS)).as("a horizon of two long round trips").isEqualTo(10_000_000);
    }

    /**
     * A receiver whose window is full under the delay bound (its socket would hold more) and that dies is released
     * like one whose socket window is full: before, only the socket window counted, and a subscriber killed with -9
     * held the living for the receiver silence (1 s and more) instead of the window silence.
     */
    @Test
    void aDeadReceiverFullUnderTheDelayBoundIsReleased() {
        long[] sent = {0};
        Acknowledgements.InFlight charges = read -> Math.max(0, sent[0] - (read + 1) * 1000L);
        int read = 0;
        for (long t = 0; t <= 100 * MS; t += 10 * MS) {
            read += 10;                                 // 1 MB/s
            sent[0] = (read + 1) * 1000L;
            acks.onWindowReport(1, read, 16_000_000, t, charges);
        }
        sent[0] += 600_000;                             // beyond the 512 KiB bound; the 16 MB window has room
        assertThat(acks.flowRoom(charges, 25 * MS)).isZero();
        long lastHeard = 100 * MS;
        assertThat(acks.releaseSilentWindows(charges, lastHeard + SILENCE - 1, SILENCE, TIMEOUT)).isFalse();
        assertThat(acks.releaseSilentWindows(charges, lastHeard + SILENCE, SILENCE, TIMEOUT))
                .as("released after the window silence").isTrue();
        assertThat(acks.flowRoom(charges, 25 * MS)).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * The silence is 8 of the receiver's usual gaps between reports when longer than the window silence: one on a
     * host starved of CPU that reports every 50 ms is waited for 400 ms, one that reported every 5 ms and died is
     * let go after the window silence.
     */
    @Test
    void theSilenceFollowsTheReceiversOwnReportGaps() {
        for (long t = 0; t <= 1_000 * MS; t += 5 * MS) {
            acks.onWindowReport(1, 89, 10_000, t);      // full, every 5 ms
            if (t % (50 * MS) == 0) {
                acks.onWindowReport(2, 89, 10_000, t);  // full, every 50 ms
            }
        }
        long last = 1_000 * MS;
        assertThat(acks.nextSilenceDeadline(inFlight, last, SILENCE)).isEqualTo(last + SILENCE);
        assertThat(acks.releaseSilentWindows(inFlight, last + SILENCE, SILENCE, TIMEOUT)).isTrue();
        assertThat(acks.flowRoom(inFlight)).as("receiver 2 still held").isZero();
        long slow = acks.nextSilenceDeadline(inFlight, last + SILENCE, SILENCE) - last;
        assertThat(slow).as("8 of its 50 ms gaps, smoothed").isBetween(360 * MS, 400 * MS);
        assertThat(acks.releaseSilentWindows(inFlight, last + slow - 1, SILENCE, TIMEOUT)).isFalse();
        assertThat(acks.releaseSilentWindows(inFlight, last + slow, SILENCE, TIMEOUT)).isTrue();
        assertThat(acks.flowRoom(inFlight)).isEqualTo(Long.MAX_VALUE);
    }

    /**
     * A live receiver on a starved host reports every few milliseconds, then pauses for hundreds (8 subscribers in
     * one JVM on 2 cores): after a 300 ms pause it is waited for twice its longest recent gap, not let go at the
     * window silence (overrun, then repaired); the pause wears off as it reports again.
     */
    @Test
    void aReceiverThatPausedLatelyIsWaitedForTwiceThePause() {
        long t = 0;
        for (int i = 0; i < 40; i++, t += 5 * MS) {
            acks.onWindowReport(1, 89, 10_000, t);      // full, every 5 ms
        }
        t += 300 * MS;                                  // a pause, then two more reports
        acks.onWindowReport(1, 89, 10_000, t);
        t += 5 * MS;
        acks.onWindowReport(1, 89, 10_000, t);
        long held = acks.nextSilenceDeadline(inFlight, t, SILENCE) - t;
        assertThat(held).as("twice the decayed pause").isBetween(2 * 255 * MS, 2 * 300 * MS);
        assertThat(acks.releaseSilentWindows(inFlight, t + SILENCE, SILENCE, TIMEOUT)).isFalse();
        assertThat(acks.releaseSilentWindows(inFlight, t + held, SILENCE, TIMEOUT)).isTrue();
    }

    /**
     * Neither a slow round trip (one measured through a standing queue: 821 ms in DeadSubscriberTest, whose living
     * subscriber then waited 6.5 s with 8 of it) nor a long silence before it was heard again makes a receiver that
     * reports often wait longer than the window silence.
     */
    @Test
    void aSlowRoundTripOrAnOldSilenceDoesNotLengthenTheSilence() {
        acks.onWindowReport(1, 89, 10_000, 0);
        acks.onRtt(1, 821 * MS);
        long t = 3_000 * MS;                            // heard again after 3 s
        for (int i = 0; i < 30; i++, t += 5 * MS) {
            acks.onWindowReport(1, 89, 10_000, t);      // full
        }
        long last = t - 5 * MS;
        assertThat(acks.nextSilenceDeadline(inFlight, last, SILENCE)).isEqualTo(last + SILENCE);
        assertThat(acks.releaseSilentWindows(inFlight, last + SILENCE - 1, SILENCE, TIMEOUT)).isFalse();
        assertThat(acks.releaseSilentWindows(inFlight, last + SILENCE, SILENCE, TIMEOUT)).isTrue();
        assertThat(acks.flowRoom(inFlight)).isEqualTo(Long.MAX_VALUE);
    }
}
