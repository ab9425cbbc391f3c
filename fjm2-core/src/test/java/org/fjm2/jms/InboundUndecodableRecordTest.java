package org.fjm2.jms;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.jms.InboundHarness.LATE_JOIN_EPOCH;
import static org.fjm2.jms.InboundHarness.TOPIC;
import static org.fjm2.jms.InboundHarness.batch;

/**
 * A record that cannot be decoded has used its sequence number: the message it carried is lost for good, and it
 * is reported like any other loss (count, log line, ExceptionListener), with the reason, instead of only counted.
 */
class InboundUndecodableRecordTest {

    private static final int SENDER = 9;
    private static final int PRODUCER = 2;

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
    void anUndecodableMessageIsReportedLostWithItsReason() throws Exception {
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).message(PRODUCER, 1).undecodable(TOPIC, PRODUCER, 2)
                .message(PRODUCER, 3));

        assertThat(harness.received()).containsExactly("1", "3");
        assertThat(harness.losses()).singleElement().satisfies(lost -> {
            assertThat(lost.lostMessages()).isEqualTo(1);
            assertThat(lost.topic()).isEqualTo(TOPIC);
            assertThat(lost.producerId()).isEqualTo(PRODUCER);
            assertThat(lost.senderNodeId()).isEqualTo(SENDER);
            assertThat(lost.getMessage()).contains("could not be decoded").contains("unknown body kind");
        });
        assertThat(harness.counters().messagesLost.sum()).isEqualTo(1);
        assertThat(harness.counters().malformedMessages.sum()).isEqualTo(1);
    }

    @Test
    void aGapAndAnUndecodableMessageAreCountedTogetherExactly() throws Exception {
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).message(PRODUCER, 1).undecodable(TOPIC, PRODUCER, 4)
                .message(PRODUCER, 5));

        assertThat(harness.received()).containsExactly("1", "5");
        assertThat(harness.losses()).extracting(MessagesLostException::lostMessages).containsExactly(2L, 1L);
        assertThat(harness.counters().messagesLost.sum()).isEqualTo(3);
    }

    @Test
    void recordsOfTopicsNobodyHereListensToAreNotDecoded() throws Exception {
        harness.feed(SENDER, batch(LATE_JOIN_EPOCH).message(PRODUCER, 1).undecodable("elsewhere", PRODUCER, 2)
                .message(PRODUCER, 3));

        assertThat(harness.received()).containsExactly("1", "3");
        assertThat(harness.losses()).isEmpty();
        assertThat(harness.counters().malformedMessages.sum()).isZero();
    }
}
