package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The adaptive rate: down on loss (once per two GRTTs), back up by small steps on clean rounds, within bounds. */
class AdaptiveRateControllerTest {

    static final long CEILING = 1_000_000_000L;
    static final long GRTT = 1_000_000L;

    @Test
    void startsAtTheCeilingAndDropsOnLoss() {
        AdaptiveRateController c = new AdaptiveRateController(CEILING);
        assertThat(c.rateBitsPerSecond()).isEqualTo(CEILING);
        c.onLoss(0, GRTT);
        assertThat(c.rateBitsPerSecond()).isEqualTo((long) (CEILING * AdaptiveRateController.DECREASE));
    }

    @Test
    void oneOverrunCountsOncePerTwoGrtt() {
        AdaptiveRateController c = new AdaptiveRateController(CEILING);
        c.onLoss(0, GRTT);
        long once = c.rateBitsPerSecond();
        c.onLoss(GRTT, GRTT);                 // the same overrun, NACKed by another receiver
        assertThat(c.rateBitsPerSecond()).isEqualTo(once);
        c.onLoss(3 * GRTT, GRTT);             // a new loss event
        assertThat(c.rateBitsPerSecond()).isLessThan(once);
    }

    @Test
    void cleanRoundsClimbBackToTheCeilingButNotBeyond() {
        AdaptiveRateController c = new AdaptiveRateController(CEILING);
        c.onLoss(0, GRTT);
        c.onRoundAcknowledged(1);              // the round in which the loss happened does not count
        long after = c.rateBitsPerSecond();
        c.onRoundAcknowledged(2);
        assertThat(c.rateBitsPerSecond()).isGreaterThan(after);
        for (int i = 0; i < 10_000; i++) {
            c.onRoundAcknowledged(3 + i);
        }
        assertThat(c.rateBitsPerSecond()).isEqualTo(CEILING);
    }

    @Test
    void neverBelowTheFloor() {
        AdaptiveRateController c = new AdaptiveRateController(CEILING);
        for (int i = 0; i < 1000; i++) {
            c.onLoss(i * 10 * GRTT, GRTT);
        }
        assertThat(c.rateBitsPerSecond()).isEqualTo((long) (CEILING * AdaptiveRateController.FLOOR_FRACTION));
    }

    @Test
    void pacesAtTheCurrentRate() {
        AdaptiveRateController c = new AdaptiveRateController(8_000_000L);   // 1 MB/s
        assertThat(sentInOneSecond(c, 1)).as("1 ms datagrams at the ceiling, plus the burst allowance")
                .isBetween(1000, 1020);
        c.onLoss(0, GRTT);
        assertThat(sentInOneSecond(c, 2)).as("after a loss: %d bit/s", c.rateBitsPerSecond()).isBetween(695, 705);
    }

    /** Datagrams of 1 ms each (972 + 28 header bytes at 1 MB/s) the pacer lets out in simulated second {@code second}. */
    private static int sentInOneSecond(AdaptiveRateController c, int second) {
        long start = second * 1_000_000_000L;
        int sent = 0;
        for (long now = start; now < start + 1_000_000_000L; now += 10_000L) {
            while (c.delayNanos(1000, now) <= 0) {
                c.onSent(972, now);
                sent++;
            }
        }
        return sent;
    }
}
