package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.protocol.TcpFriendlyRate;
import org.junit.jupiter.api.Test;

/** NORM-CC's sender: slow start, the CLR's rate, bounds, and what hostile feedback can and cannot do. */
class CcRateControllerTest {

    static final long CEILING = 1_000_000_000L;
    static final int SEGMENT = 1400;
    static final int START = NormWire.CC_FLAG_START | NormWire.CC_FLAG_RTT;
    static final int STEADY = NormWire.CC_FLAG_RTT;
    static final long MS = 1_000_000L;

    /** A controller that sends all the time, having sent its first probe (cc_sequence 0) at time 0. */
    private static CcRateController sending() {
        CcRateController c = new CcRateController(CEILING, SEGMENT);
        c.onSent(SEGMENT, 0);
        c.onProbeSent(0, 0.01, 0);
        return c;
    }

    @Test
    void slowStartFollowsTheClrAtMostDoublingPerFeedback() {
        CcRateController c = sending();
        assertThat(c.rateBitsPerSecond()).isEqualTo(CcRateController.START_BITS_PER_SECOND);
        c.onSent(SEGMENT, MS);
        c.onCcFeedback(1, START, 0.01, 0, 100e6 / 8, 0, MS);
        assertThat(c.rateBitsPerSecond()).isEqualTo(2 * CcRateController.START_BITS_PER_SECOND);
        assertThat(c.ccSlowStart()).isTrue();
        for (int i = 1; i < 20; i++) {
            c.onSent(SEGMENT, i * 10 * MS);
            c.onCcFeedback(1, START, 0.01, 0, 100e6 / 8, i, i * 10 * MS);
        }
        assertThat(c.rateBitsPerSecond()).isBetween(99_000_000L, 101_000_000L);
    }

    @Test
    void afterSlowStartTheRateIsTheEquationsWithTheSendersRoundTrip() {
        CcRateController c = sending();
        c.onSent(SEGMENT, MS);
        c.onCcFeedback(1, START, 0.02, 0, 4e6 / 8, 0, MS);     // 2 Mbit/s
        c.onSent(SEGMENT, 2 * MS);
        c.onCcFeedback(1, STEADY, 0.02, 0.01, 1, 1, 2 * MS);    // the reported rate is not used
        double expected = TcpFriendlyRate.bytesPerSecond(SEGMENT, 0.02, 0.01) * 8;
        assertThat((double) c.rateBitsPerSecond()).as("at most double the 2 Mbit/s, the equation gives more")
                .isBetween(3.9e6, 4.1e6);
        for (int i = 2; i < 10; i++) {
            c.onSent(SEGMENT, i * MS);
            c.onCcFeedback(1, STEADY, 0.02, 0.01, 1, i, i * MS);
        }
        assertThat((double) c.rateBitsPerSecond()).isBetween(expected * 0.95, expected * 1.05);
        assertThat(c.ccSlowStart()).isFalse();
    }

    @Test
    void absurdLossCannotPushTheRateBelowTheFloor() {
        CcRateController c = sending();
        for (int i = 0; i < 100; i++) {
            c.onSent(SEGMENT, i * MS);
            c.onCcFeedback(1, STEADY, 9.0, 1.0, 1, i, i * MS);
        }
        assertThat(c.rateBitsPerSecond()).isEqualTo(CcRateController.MIN_BITS_PER_SECOND);
        assertThat(c.floorBitsPerSecond()).isEqualTo(CcRateController.MIN_BITS_PER_SECOND);
    }

    @Test
    void aHostileClrThatFallsSilentReleasesTheRate() {
        CcRateController c = sending();
        c.onCcFeedback(1, STEADY, 0.01, 1.0, 1, 0, MS);
        assertThat(c.rateBitsPerSecond()).isEqualTo(CcRateController.MIN_BITS_PER_SECOND);
        long t = MS + CcNodes.INACTIVE_MIN_NANOS + MS;
        c.onSent(SEGMENT, t);
        c.onProbeSent(t, 0.01, 1);
        long honest = t + MS;
        c.onSent(SEGMENT, honest);
        c.onCcFeedback(2, START, 0.01, 0, 50e6 / 8, 1, honest);
        assertThat(c.rateBitsPerSecond()).as("the next CLR's slow start takes over at once")
                .isEqualTo(2 * CcRateController.MIN_BITS_PER_SECOND);
    }

    @Test
    void theCeilingHolds() {
        CcRateController c = new CcRateController(5_000_000L, SEGMENT);
        c.onSent(SEGMENT, 0);
        c.onProbeSent(0, 0.01, 0);
        for (int i = 0; i < 20; i++) {
            c.onSent(SEGMENT, i * MS);
            c.onCcFeedback(1, START, 0.01, 0, 1e9, i, i * MS);
        }
        assertThat(c.rateBitsPerSecond()).isEqualTo(5_000_000L);
    }

    @Test
    void feedbackForAProbeNeverSentIsRefused() {
        CcRateController fresh = new CcRateController(CEILING, SEGMENT);
        assertThat(fresh.onCcFeedback(1, START, 0.01, 0, 1e6, 0, 0)).as("before any probe").isFalse();
        CcRateController c = sending();
        assertThat(c.onCcFeedback(1, START, 0.01, 0, 1e6, CcRateController.SEQUENCE_LEAD_MAX + 1, 0))
                .as("far ahead of the last probe").isFalse();
        assertThat(c.onCcFeedback(1, START, 0.01, 0, 1e6, 1, 0)).as("one ahead: a loss-event report").isTrue();
        assertThat(c.rateBitsPerSecond()).isEqualTo(2 * CcRateController.START_BITS_PER_SECOND);
    }

    @Test
    void withoutAClrTheRateHalvesAfterTheGraceTime() {
        CcRateController c = sending();
        long t = CcRateController.NO_CLR_GRACE_NANOS / 2;
        c.onProbeSent(t, 0.01, 1);
        assertThat(c.rateBitsPerSecond()).isEqualTo(CcRateController.START_BITS_PER_SECOND);
        t = CcRateController.NO_CLR_GRACE_NANOS + MS;
        c.onProbeSent(t, 0.01, 2);
        assertThat(c.rateBitsPerSecond()).isEqualTo(CcRateController.START_BITS_PER_SECOND / 2);
    }

    @Test
    void anIdleSenderDoesNotRaiseItsRate() {
        CcRateController c = sending();
        long later = CcRateController.IDLE_NANOS * 20;
        c.onCcFeedback(1, START, 0.01, 0, 1e9, 1, later);
        assertThat(c.rateBitsPerSecond()).isEqualTo(CcRateController.START_BITS_PER_SECOND);
        c.onCcFeedback(1, START, 0.01, 0, 1e3, 2, later);
        assertThat(c.rateBitsPerSecond()).as("but lowers it").isLessThan(CcRateController.START_BITS_PER_SECOND);
    }

    @Test
    void probesGoOutOncePerClrRoundTripWithinBounds() {
        CcRateController c = sending();
        assertThat(c.probeIntervalNanos(500 * MS, 40 * MS)).as("no CLR: the GRTT").isEqualTo(40 * MS);
        c.onCcFeedback(1, START, 0.020, 0, 1e6, 0, MS);
        assertThat(c.probeIntervalNanos(500 * MS, 40 * MS)).isEqualTo(20 * MS);
        assertThat(c.probeIntervalNanos(500 * MS, 1000)).as("not faster than the minimum")
                .isEqualTo(CcRateController.PROBE_INTERVAL_MIN_NANOS);
    }
}
