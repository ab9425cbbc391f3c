package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import org.fjm2.norm.protocol.GrttTimer;
import org.junit.jupiter.api.Test;

/**
 * A timer of a number of GRTTs (the sender's NACK aggregation, the receiver's NACK back-off and hold-off) runs out by
 * the GRTT as it is when it runs out: set to 5 GRTTs while the GRTT was inflated to 1 s, it fires soon after the
 * GRTT came down to 10 ms, not 5 s later (which held a NACK's repairs in a starved benchmark until the cache's hold
 * time gave the data up); while the GRTT grows it waits longer.
 */
class GrttTimerTest {

    static final long MS = 1_000_000L;

    private final AcknowledgementsSilenceTest.Clock clock = new AcknowledgementsSilenceTest.Clock();
    private long grtt = 1_000 * MS;
    private int fired;
    private long firedAt = -1;
    private final GrttTimer timer = new GrttTimer("test", clock, () -> grtt, () -> {
        fired++;
        firedAt = clock.now;
    });

    private void runTo(long until) {
        while (clock.timers().nextDeadline() <= until) {
            clock.now = clock.timers().nextDeadline();
            clock.timers().runExpired(clock.now);
        }
        clock.now = until;
    }

    @Test
    void aDeadlineSetUnderAnInflatedGrttComesForwardWhenTheGrttFalls() {
        timer.schedule(0, 5.0);
        runTo(50 * MS);
        assertThat(fired).isZero();
        grtt = 10 * MS;                      // 5 GRTTs are now 50 ms: due, seen at the next look
        runTo(5_000 * MS);
        assertThat(fired).isEqualTo(1);
        assertThat(firedAt).isBetween(50 * MS, 50 * MS + GrttTimer.RECHECK_NANOS);
    }

    @Test
    void aGrowingGrttPostponesIt() {
        grtt = 10 * MS;
        timer.schedule(0, 5.0);
        runTo(20 * MS);
        grtt = 100 * MS;
        runTo(499 * MS);
        assertThat(fired).isZero();
        runTo(600 * MS);
        assertThat(fired).isEqualTo(1);
        assertThat(firedAt).isEqualTo(500 * MS);
        assertThat(timer.isActive()).isFalse();
    }

    @Test
    void cancelledItNeverFires() {
        timer.schedule(0, 1.0);
        timer.cancel();
        runTo(10_000 * MS);
        assertThat(fired).isZero();
    }
}
