package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import org.fjm2.norm.transport.DatagramCapacity;
import org.junit.jupiter.api.Test;

/**
 * The sender's gate: what each message costs receivers' buffers is remembered by sequence number, across the 16-bit
 * wrap; the initial window before any report, then the reported windows; without reports the initial wait ends.
 */
class FlowWindowTest {

    static final long MS = 1_000_000L;
    static final int LENGTH = 1_400;
    static final int CHARGE = DatagramCapacity.charge(LENGTH);

    private final AcknowledgementsSilenceTest.Clock clock = new AcknowledgementsSilenceTest.Clock();
    private final Acknowledgements acks = new Acknowledgements(true, 16, 60_000 * MS, clock);
    private int asked;
    private final FlowWindow flow = new FlowWindow(clock, acks, new GrttEstimator(0.001, 0.0001, 10), () -> asked++);

    @Test
    void beforeAnyReportOnlyTheInitialWindowGoesOut() {
        int sent = sendWhileOpen();
        assertThat(sent).isBetween(2, 9_999);
        assertThat(flow.waiting()).isTrue();
        clock.now += 50 * MS;
        assertThat(flow.open(clock.now)).as("still no report, initial wait not over").isFalse();
    }

    @Test
    void aReportOpensTheGateToItsWindow() {
        sendWhileOpen();
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 30L * CHARGE, clock.now);
        assertThat(sendWhileOpen()).isEqualTo(30);
    }

    /**
     * The first receiver to answer does not open the gate for the others: each answers the probe that offers flow
     * control when its thread runs, and one that answers a few milliseconds late (a loaded host) must not find its
     * socket overrun by what the first one's window let out. Until the start guard ends, the charge since the start
     * stays within a buffer like ours (twice the initial window); then the reported windows rule alone.
     */
    @Test
    void theFirstReportDoesNotLetTheSenderOverrunReceiversThatAnswerLater() {
        int initial = sendWhileOpen();
        long window = 4L * initial * CHARGE;
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, window, clock.now);
        int guarded = sendWhileOpen();
        assertThat((long) (initial + guarded) * CHARGE).as("charge sent before the start guard ends")
                .isLessThanOrEqualTo(2L * initial * CHARGE + CHARGE);
        acks.onWindowReport(6, (clock.sequence - 1) & 0xFFFF, window, clock.now);
        assertThat(sendWhileOpen()).as("a second receiver answered, but others may still").isZero();
        clock.now += FlowWindow.START_GUARD_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(sendWhileOpen()).as("after the guard: the windows reported (the first's less what it has not read)")
                .isEqualTo(4 * initial - guarded);
    }

    @Test
    void aSenderWaitingOnAFullWindowAsksForReportsFromOneGrttOn() {
        sendWhileOpen();
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 3L * CHARGE, clock.now);
        assertThat(sendWhileOpen()).isEqualTo(3);
        assertThat(asked).isZero();
        clock.now += FlowWindow.WINDOW_PROBE_MIN_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(asked).as("a probe, which every receiver answers with a report").isEqualTo(1);
        clock.now += 2 * FlowWindow.WINDOW_PROBE_MIN_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(asked).as("unanswered: the next probe twice as late").isEqualTo(2);
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 3L * CHARGE, clock.now);
        assertThat(flow.open(clock.now)).isTrue();
        clock.now += 10 * FlowWindow.WINDOW_PROBE_MIN_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(asked).as("no longer waiting: no more probes").isEqualTo(2);
    }

    /**
     * A receiver that is not scheduled for seconds reads nothing while its window is full: every probe is one more
     * datagram its buffer must hold beside the window, in the quarter kept for unpaced traffic (about 40 small
     * datagrams at 128 KiB). Probing every GRTT through a 5 s stall sent over 100 and overflowed it (the kernel
     * dropped datagrams at the slow receiver's socket in ReceiverFlowControlTest); unanswered probes back off.
     */
    @Test
    void probesLeftUnansweredThroughALongStallStayFewerThanTheBufferKeepsRoomFor() {
        clock.config = clock.config.toBuilder().windowSilence(java.time.Duration.ofSeconds(5)).build();
        FlowWindow gate = new FlowWindow(clock, acks, new GrttEstimator(0.001, 0.0001, 10), () -> asked++);
        while (gate.open(clock.now)) {
            gate.onSent(clock.nextSequence(), LENGTH);
        }
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 3L * CHARGE, clock.now);
        while (gate.open(clock.now)) {
            gate.onSent(clock.nextSequence(), LENGTH);
        }
        asked = 0;
        long stallEnd = clock.now + 4_900 * MS;        // within the window silence: still paced for
        while (clock.now < stallEnd) {
            clock.now += MS;
            clock.timers().runExpired(clock.now);
        }
        assertThat(gate.waiting()).as("still waiting for the stalled receiver").isTrue();
        assertThat(asked).as("probes sent through a 4.9 s stall").isBetween(1, UNPACED_SMALL_DATAGRAMS / 2);
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 3L * CHARGE, clock.now);
        assertThat(gate.open(clock.now)).as("the receiver read: the gate opens").isTrue();
        while (gate.open(clock.now)) {
            gate.onSent(clock.nextSequence(), LENGTH);
        }
        int before = asked;
        clock.now += FlowWindow.WINDOW_PROBE_MIN_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(asked - before).as("a new wait probes after one GRTT again").isEqualTo(1);
    }

    /** Small datagrams the quarter of a 128 KiB buffer kept for unpaced traffic holds. */
    static final int UNPACED_SMALL_DATAGRAMS = (int) ((128 * 1024 - DatagramCapacity.pacedShare(128 * 1024))
            / DatagramCapacity.charge(100));

    @Test
    void theChargeInFlightIsCountedAcrossTheSequenceWrapAndGapsCostNothing() {
        clock.sequence = 0xFFF0;
        sendOne();
        int first = (clock.sequence - 1) & 0xFFFF;
        clock.nextSequence();                      // the session's feedback as a receiver: not ours to charge
        for (int i = 0; i < 30; i++) {
            sendOne();
        }
        assertThat(clock.sequence).isLessThan(0x100);
        assertThat(flow.chargeAfter(first)).isEqualTo(30L * CHARGE);
        assertThat(flow.chargeAfter((clock.sequence - 1) & 0xFFFF)).isZero();
        assertThat(flow.chargeAfter((clock.sequence + 5) & 0xFFFF)).as("a sequence ahead of us").isZero();
    }

    @Test
    void withoutReportsTheInitialWaitEndsAndTheGateOpens() {
        sendWhileOpen();
        clock.now += FlowWindow.INITIAL_WAIT_MAX_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(flow.open(clock.now)).isTrue();
        assertThat(sendWhileOpen()).isEqualTo(10_000);
    }

    /**
     * A receiver killed while its window had room falls silent long before the window fills: once it fills, the
     * receiver is let go at once, not a window silence later (the living saw that much of a gap).
     */
    @Test
    void aReceiverSilentSinceBeforeItsWindowFilledIsReleasedAtOnce() {
        sendWhileOpen();
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 30L * CHARGE, clock.now);
        clock.now += 400 * MS;                          // silent since; the window still had room
        assertThat(sendWhileOpen()).isEqualTo(30);
        assertThat(flow.waiting()).isTrue();
        clock.timers().runExpired(clock.now);
        assertThat(flow.open(clock.now)).as("released without waiting another window silence").isTrue();
    }

    private int sendWhileOpen() {
        int sent = 0;
        while (sent < 10_000 && flow.open(clock.now)) {
            sendOne();
            sent++;
        }
        return sent;
    }

    private void sendOne() {
        flow.onSent(clock.nextSequence(), LENGTH);
    }
}
