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

    @Test
    void aSenderWaitingOnAFullWindowAsksForReportsEveryGrtt() {
        sendWhileOpen();
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 3L * CHARGE, clock.now);
        assertThat(sendWhileOpen()).isEqualTo(3);
        assertThat(asked).isZero();
        clock.now += FlowWindow.WINDOW_PROBE_MIN_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(asked).as("a probe, which every receiver answers with a report").isEqualTo(1);
        clock.now += FlowWindow.WINDOW_PROBE_MIN_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(asked).isEqualTo(2);
        acks.onWindowReport(5, (clock.sequence - 1) & 0xFFFF, 3L * CHARGE, clock.now);
        assertThat(flow.open(clock.now)).isTrue();
        clock.now += 10 * FlowWindow.WINDOW_PROBE_MIN_NANOS;
        clock.timers().runExpired(clock.now);
        assertThat(asked).as("no longer waiting: no more probes").isEqualTo(2);
    }

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
