package org.fjm2.norm.receiver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** TFMCC loss intervals over the sender's 16-bit message sequence numbers. */
class LossIntervalsTest {

    static final long RTT = 10_000_000L;

    @Test
    void noLossNoFraction() {
        LossIntervals l = new LossIntervals(RTT);
        for (int s = 0; s < 1000; s++) {
            assertThat(l.onMessage(s, s * 1000L)).isFalse();
        }
        assertThat(l.lossFraction()).isZero();
        assertThat(l.hasLoss()).isFalse();
    }

    @Test
    void oneLossEveryHundredMessagesIsOnePercent() {
        LossIntervals l = new LossIntervals(RTT);
        int events = 0;
        long now = 0;
        for (int s = 0; s < 20_000; s++) {
            now += 1_000_000L;      // 1 ms apart: every loss is ten round trips after the last
            if (s % 100 == 50) {
                continue;           // lost
            }
            events += l.onMessage(s & 0xFFFF, now) ? 1 : 0;
        }
        assertThat(events).isEqualTo(200);
        assertThat(l.lossFraction()).isCloseTo(0.01, within(0.0005));
    }

    @Test
    void lossesWithinOneRoundTripAreOneEvent() {
        LossIntervals l = new LossIntervals(RTT);
        l.onMessage(0, 0);
        assertThat(l.onMessage(2, 1_000_000L)).as("first loss").isTrue();
        assertThat(l.onMessage(5, 2_000_000L)).as("same round trip").isFalse();
        assertThat(l.onMessage(9, 9_000_000L)).as("still within it").isFalse();
        assertThat(l.onMessage(12, 12_000_000L)).as("a round trip later: a new event").isTrue();
    }

    @Test
    void aLongLossFreeRunLowersTheFractionAtOnce() {
        LossIntervals l = new LossIntervals(RTT);
        long now = 0;
        int s = 0;
        for (int e = 0; e < 9; e++) {           // intervals of 10
            for (int i = 0; i < 10; i++) {
                l.onMessage(s++, now += 1_000_000L);
            }
            s++;                                // one lost
            now += 20_000_000L;
        }
        double before = l.lossFraction();
        for (int i = 0; i < 1000; i++) {
            l.onMessage(s++, now += 1_000_000L);
        }
        assertThat(l.lossFraction()).isLessThan(before / 5);
    }

    @Test
    void jumpsAndLateMessagesAreNotLoss() {
        LossIntervals l = new LossIntervals(RTT);
        l.onMessage(100, 0);
        assertThat(l.onMessage(100 + LossIntervals.RESYNC_GAP + 1, 1)).as("a restart or forgery").isFalse();
        assertThat(l.onMessage(50, 2)).as("far behind: resync").isFalse();
        assertThat(l.onMessage(51, 3)).isFalse();
        assertThat(l.onMessage(51, 4)).as("duplicate").isFalse();
        assertThat(l.onMessage(49, 5)).as("late").isFalse();
        assertThat(l.hasLoss()).isFalse();
    }

    @Test
    void sequenceNumbersWrap() {
        LossIntervals l = new LossIntervals(RTT);
        l.onMessage(0xFFFE, 0);
        assertThat(l.onMessage(0xFFFF, 1)).isFalse();
        assertThat(l.onMessage(1, 2)).as("across the wrap: 0 is missing").isTrue();
    }

    @Test
    void seedingReplacesTheHistory() {
        LossIntervals l = new LossIntervals(RTT);
        l.onMessage(0, 0);
        l.onMessage(5, 1);
        l.seed(0.001);
        assertThat(l.lastInterval()).isEqualTo(1000);
        assertThat(l.lossFraction()).isCloseTo(0.001, within(1e-9));
    }
}
