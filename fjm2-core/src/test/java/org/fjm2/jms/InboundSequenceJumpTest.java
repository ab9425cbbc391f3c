package org.fjm2.jms;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.jms.InboundHarness.LATE_JOIN_EPOCH;
import static org.fjm2.jms.InboundHarness.batch;

/**
 * One record with an implausible sequence number (forged, corrupted, or from a producer that numbers again) must
 * not poison its producer's stream: genuine messages that follow are delivered, not dropped as duplicates, and no
 * absurd loss count is reported. A genuine loss larger than the bound is still reported, its count unknown.
 */
class InboundSequenceJumpTest {

    private static final int SENDER = 7;
    private static final int PRODUCER = 3;
    private static final long JUMP = InboundLimits.MAX_SEQUENCE_JUMP;

    private InboundHarness harness;

    @BeforeEach
    void open() throws Exception {
        harness = new InboundHarness(InboundLimits.DEFAULTS);
    }

    @AfterEach
    void close() throws Exception {
        harness.close();
    }

    @Test
    void aForgedHugeSequenceDoesNotSilenceTheProducer() throws Exception {
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, 1, 3));
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).message(PRODUCER, 1L << 40));
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, 4, 6));

        assertThat(harness.received()).containsExactly("1", "2", "3", "4", "5", "6");
        assertThat(harness.counters().duplicatesDiscarded.sum()).isZero();
        assertThat(harness.counters().implausibleSequences.sum()).isEqualTo(1);
        assertThat(harness.counters().messagesLost.sum()).isZero();
        assertThat(harness.losses()).isEmpty();
    }

    @Test
    void aForgedHugeFirstSequenceIsOvercomeByTheGenuineStream() throws Exception {
        // A late joiner takes the first number it hears as the starting point: here a forged one.
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).message(PRODUCER, 1L << 40));
        harness.received();
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, 5, 8));

        // 5 is implausible after 2^40 and held; 6 continues from it: the stream starts again there.
        assertThat(harness.received()).containsExactly("6", "7", "8");
        assertThat(harness.losses()).singleElement().satisfies(lost -> {
            assertThat(lost.lostMessages()).isEqualTo(-1);
            assertThat(lost.producerId()).isEqualTo(PRODUCER);
            assertThat(lost.getMessage()).contains("sequence number moved from 1099511627776 to 6,");
        });
    }

    @Test
    void aLossLargerThanTheBoundIsReportedWithAnUnknownCount() throws Exception {
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, 1, 2));
        long resumed = 2 + JUMP + 10;
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, resumed, resumed + 2));

        // The first number past the bound is held as a suspect; the next one confirms it.
        assertThat(harness.received()).containsExactly("1", "2", Long.toString(resumed + 1),
                Long.toString(resumed + 2));
        assertThat(harness.losses()).singleElement().satisfies(lost -> {
            assertThat(lost.lostMessages()).isEqualTo(-1);
            assertThat(lost.topic()).isEqualTo(InboundHarness.TOPIC);
        });
        assertThat(harness.counters().messagesLost.sum()).as("no absurd count added").isZero();
    }

    @Test
    void aStreamHeardFromItsStartRejectsAnImplausibleFirstNumber() throws Exception {
        long epoch = harness.heardFromStartEpoch();
        harness.feed(SENDER, batch(epoch).message(PRODUCER, 1L << 40));
        harness.feed(SENDER, batch(epoch).messages(PRODUCER, 1, 3));

        assertThat(harness.received()).containsExactly("1", "2", "3");
        assertThat(harness.losses()).isEmpty();
        assertThat(harness.counters().messagesLost.sum()).isZero();
    }

    @Test
    void aStreamHeardFromItsStartStillCountsAPlausibleMissingStartExactly() throws Exception {
        long epoch = harness.heardFromStartEpoch();
        harness.feed(SENDER, batch(epoch).messages(PRODUCER, 4, 5));

        assertThat(harness.received()).containsExactly("4", "5");
        assertThat(harness.losses()).singleElement().satisfies(lost -> assertThat(lost.lostMessages()).isEqualTo(3));
    }

    @Test
    void sequenceNumbersBelowOneAreMalformed() throws Exception {
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).message(PRODUCER, 0).message(PRODUCER, -5));
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, 1, 2));

        assertThat(harness.received()).containsExactly("1", "2");
        assertThat(harness.counters().malformedMessages.sum()).isEqualTo(2);
        assertThat(harness.losses()).isEmpty();
    }

    @Test
    void duplicatesWithinTheBoundAreStillDiscarded() throws Exception {
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, 10, 12));
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).messages(PRODUCER, 11, 13));
        harness.advance(1, TimeUnit.SECONDS);

        assertThat(harness.received()).containsExactly("10", "11", "12", "13");
        assertThat(harness.counters().duplicatesDiscarded.sum()).isEqualTo(2);
    }
}
