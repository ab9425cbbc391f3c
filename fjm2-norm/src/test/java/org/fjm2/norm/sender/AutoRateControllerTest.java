package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The default rate search: slow start doubling per round trip of progress, down on loss, then additive steps. */
class AutoRateControllerTest {

    static final long CEILING = 10_000_000_000L;
    static final long GRTT = 2_000_000L;

    @Test
    void startsLowAndDoublesOncePerRoundTrip() {
        AutoRateController c = new AutoRateController(CEILING);
        assertThat(c.rateBitsPerSecond()).isEqualTo(AutoRateController.START_BITS_PER_SECOND);
        c.onProgress(0, GRTT);
        assertThat(c.rateBitsPerSecond()).isEqualTo(2 * AutoRateController.START_BITS_PER_SECOND);
        c.onProgress(GRTT / 2, GRTT);               // within the same round trip: no step
        assertThat(c.rateBitsPerSecond()).isEqualTo(2 * AutoRateController.START_BITS_PER_SECOND);
        c.onProgress(GRTT, GRTT);
        assertThat(c.rateBitsPerSecond()).isEqualTo(4 * AutoRateController.START_BITS_PER_SECOND);
    }

    @Test
    void reachesTheCeilingInAFewDozenRoundTripsAndStaysThere() {
        AutoRateController c = new AutoRateController(CEILING);
        for (int i = 0; i < 20; i++) {
            c.onProgress(i * GRTT, GRTT);
        }
        assertThat(c.rateBitsPerSecond()).isEqualTo(CEILING);
    }

    @Test
    void anInflatedGrttDoesNotSlowTheSearchBeyondOneStepPerFiveMilliseconds() {
        AutoRateController c = new AutoRateController(CEILING);
        long grtt = 200_000_000L;
        for (int i = 0; i < 10; i++) {
            c.onProgress(i * AutoRateController.MAX_STEP_NANOS, grtt);
        }
        assertThat(c.rateBitsPerSecond()).isEqualTo(Math.min(CEILING, AutoRateController.START_BITS_PER_SECOND << 10));
    }

    @Test
    void aLowCeilingIsWhereItStarts() {
        assertThat(new AutoRateController(1_000_000L).rateBitsPerSecond()).isEqualTo(1_000_000L);
    }

    @Test
    void heavyLossEndsSlowStartThenTheRateClimbsAdditively() {
        AutoRateController c = new AutoRateController(CEILING);
        for (int i = 0; i < 10; i++) {
            c.onProgress(i * GRTT, GRTT);
        }
        long before = c.rateBitsPerSecond();
        sendWithRepairs(c, 0.5, 10 * GRTT);
        c.onLoss(10 * GRTT, GRTT);
        assertThat(c.inSlowStart()).isFalse();
        long after = c.rateBitsPerSecond();
        assertThat(after).isEqualTo((long) (before * AutoRateController.DECREASE));
        c.onProgress(12 * GRTT, GRTT);
        assertThat(c.rateBitsPerSecond() - after).isEqualTo((long) (CEILING * AutoRateController.INCREASE_FRACTION));
    }

    @Test
    void lightLossDoesNotSlowItDown() {
        AutoRateController c = new AutoRateController(CEILING);
        c.onProgress(0, GRTT);
        long before = c.rateBitsPerSecond();
        sendWithRepairs(c, 0.27, GRTT);               // 10% random loss at three receivers: 27% in repairs
        c.onLoss(GRTT, GRTT);
        assertThat(c.rateBitsPerSecond()).isEqualTo(before);
        assertThat(c.inSlowStart()).isTrue();
    }

    @Test
    void lossAtAReceiverThatReportsItsWindowIsThePathsNotARateSignal() {
        AutoRateController c = new AutoRateController(CEILING);
        c.onProgress(0, GRTT);
        long before = c.rateBitsPerSecond();
        sendWithRepairs(c, 0.9, GRTT);
        c.onPacedReceiverLoss(GRTT, GRTT);
        assertThat(c.rateBitsPerSecond()).isEqualTo(before);
    }

    @Test
    void neverBelowTheFloor() {
        AutoRateController c = new AutoRateController(CEILING);
        sendWithRepairs(c, 0.5, 2 * AutoRateController.MEASURE_INTERVAL_NANOS);
        for (int i = 0; i < 1000; i++) {
            c.onLoss(i * 3 * GRTT, GRTT);
        }
        assertThat(c.rateBitsPerSecond()).isEqualTo((long) (CEILING * AutoRateController.FLOOR_FRACTION));
    }

    /** One measuring interval ending at {@code end} in which {@code share} of the bytes sent were repairs. */
    private static void sendWithRepairs(AutoRateController c, double share, long end) {
        long start = end - AutoRateController.MEASURE_INTERVAL_NANOS;
        c.onSent(1, start - AutoRateController.MEASURE_INTERVAL_NANOS);      // closes any earlier interval
        for (int i = 0; i < 100; i++) {
            c.onSent(1000, start + i);
            if (i < share * 100) {
                c.onRepairSent(1000);
            }
        }
        c.onSent(1, end);                                                    // closes this one
    }
}
