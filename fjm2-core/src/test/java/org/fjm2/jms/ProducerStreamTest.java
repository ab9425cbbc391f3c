package org.fjm2.jms;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.jms.ProducerStream.DUPLICATE;
import static org.fjm2.jms.ProducerStream.IMPLAUSIBLE;
import static org.fjm2.jms.ProducerStream.RESTARTED;

/** The sequence rule of one producer stream (docs/wire-format.md, "Ordering, duplicates and loss"). */
class ProducerStreamTest {

    private static final long MAX_JUMP = 100;

    @Test
    void aLateJoinerStartsAtTheFirstNumberItHears() {
        ProducerStream s = new ProducerStream();
        assertThat(s.accept(5_000, false, MAX_JUMP)).isZero();
        assertThat(s.accept(5_001, false, MAX_JUMP)).isZero();
        assertThat(s.accept(5_004, false, MAX_JUMP)).isEqualTo(2);
        assertThat(s.accept(5_003, false, MAX_JUMP)).isEqualTo(DUPLICATE);
        assertThat(s.last()).isEqualTo(5_004);
    }

    @Test
    void aStreamHeardFromItsStartBeganAtOne() {
        ProducerStream s = new ProducerStream();
        assertThat(s.accept(4, true, MAX_JUMP)).isEqualTo(3);
    }

    @Test
    void theBoundIsInclusive() {
        ProducerStream s = new ProducerStream();
        s.accept(1, false, MAX_JUMP);
        assertThat(s.accept(1 + MAX_JUMP, false, MAX_JUMP)).isEqualTo(MAX_JUMP - 1);
        assertThat(s.accept(2 + 2 * MAX_JUMP, false, MAX_JUMP)).isEqualTo(IMPLAUSIBLE);
        assertThat(s.accept(1 + MAX_JUMP - (MAX_JUMP - 1), false, MAX_JUMP)).as("just within the window behind")
                .isEqualTo(DUPLICATE);
    }

    @Test
    void anImplausibleNumberIsRefutedWhenTheStreamContinues() {
        ProducerStream s = new ProducerStream();
        s.accept(10, false, MAX_JUMP);
        assertThat(s.accept(1_000_000, false, MAX_JUMP)).isEqualTo(IMPLAUSIBLE);
        assertThat(s.accept(11, false, MAX_JUMP)).isZero();
        // The suspect is gone: one more number after it does not confirm it.
        assertThat(s.accept(1_000_001, false, MAX_JUMP)).isEqualTo(IMPLAUSIBLE);
        assertThat(s.last()).isEqualTo(11);
    }

    @Test
    void anImplausibleNumberIsConfirmedByTheNextOneContinuingFromIt() {
        ProducerStream s = new ProducerStream();
        s.accept(10, false, MAX_JUMP);
        assertThat(s.accept(1_000_000, false, MAX_JUMP)).isEqualTo(IMPLAUSIBLE);
        assertThat(s.accept(1_000_000, false, MAX_JUMP)).as("a copy confirms nothing").isEqualTo(IMPLAUSIBLE);
        assertThat(s.accept(1_000_002, false, MAX_JUMP)).isEqualTo(RESTARTED);
        assertThat(s.accept(1_000_003, false, MAX_JUMP)).isZero();
        assertThat(s.accept(11, false, MAX_JUMP)).as("the old numbers are far behind now").isEqualTo(IMPLAUSIBLE);
    }

    @Test
    void aProducerNumberingAgainFromOneIsFollowed() {
        ProducerStream s = new ProducerStream();
        s.accept(1_000_000, false, MAX_JUMP);
        assertThat(s.accept(1, false, MAX_JUMP)).isEqualTo(IMPLAUSIBLE);
        assertThat(s.accept(2, false, MAX_JUMP)).isEqualTo(RESTARTED);
        assertThat(s.accept(3, false, MAX_JUMP)).isZero();
    }

    @Test
    void numbersNearTheLimitsOfLongDoNotOverflow() {
        ProducerStream s = new ProducerStream();
        s.accept(1, false, MAX_JUMP);
        assertThat(s.accept(Long.MAX_VALUE, false, MAX_JUMP)).isEqualTo(IMPLAUSIBLE);
        assertThat(s.accept(2, false, MAX_JUMP)).isZero();
        s.accept(Long.MAX_VALUE - 1, false, MAX_JUMP);
        assertThat(s.accept(Long.MAX_VALUE, false, MAX_JUMP)).isEqualTo(RESTARTED);
        assertThat(s.accept(1, false, MAX_JUMP)).isEqualTo(IMPLAUSIBLE);
    }
}
