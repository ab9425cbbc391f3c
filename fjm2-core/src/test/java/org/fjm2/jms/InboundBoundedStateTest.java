package org.fjm2.jms;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.fjm2.jms.InboundHarness.LATE_JOIN_EPOCH;
import static org.fjm2.jms.InboundHarness.batch;

/**
 * What the receive path remembers per remote sender and producer has caps and expires (design: every table keyed
 * by a remote id), and what it forgot comes back as a new stream: no false gap, no false duplicate, and losses it
 * had not reported yet are reported, not dropped with the state.
 */
class InboundBoundedStateTest {

    /** 3 senders, 4 streams per sender, 6 streams in all, idle for 60 s, swept every second, jumps up to 1000. */
    private static final InboundLimits SMALL = new InboundLimits(3, 4, 6, TimeUnit.SECONDS.toNanos(60),
            TimeUnit.SECONDS.toNanos(1), 1000);

    private InboundHarness harness;

    @AfterEach
    void close() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    @Test
    void producerStreamsPerSenderAreCappedAtTheirDefault() throws Exception {
        harness = new InboundHarness(InboundLimits.DEFAULTS);
        int producers = InboundLimits.MAX_STREAMS_PER_SENDER + 100;
        for (int p = 1; p <= producers; p++) {
            harness.feed(1, batch(LATE_JOIN_EPOCH).message(p, 1));
        }
        assertThat(harness.inbound.trackedStreams()).isEqualTo(InboundLimits.MAX_STREAMS_PER_SENDER);
        assertThat(harness.received()).hasSize(producers);
        assertThat(harness.counters().stateEvictions.sum()).isEqualTo(100);
    }

    @Test
    void anEvictedProducerComesBackAsANewStreamWithoutFalseGapOrDuplicate() throws Exception {
        harness = new InboundHarness(SMALL);
        long epoch = harness.heardFromStartEpoch();
        harness.feed(1, batch(epoch).messages(1, 1, 3));
        for (int p = 2; p <= 5; p++) {
            harness.feed(1, batch(epoch).message(p, 1));       // the fifth stream evicts producer 1's
        }
        harness.feed(1, batch(epoch).messages(1, 4, 5));

        assertThat(harness.inbound.trackedStreams()).isEqualTo(4);
        assertThat(harness.received()).containsExactly("1", "2", "3", "1", "1", "1", "1", "4", "5");
        assertThat(harness.losses()).as("no false start-of-stream gap for the returning producer").isEmpty();
        assertThat(harness.counters().duplicatesDiscarded.sum()).isZero();
    }

    @Test
    void streamsInAllAreCappedByForgettingTheLeastRecentlyHeardSendersOldest() throws Exception {
        harness = new InboundHarness(SMALL);
        for (int sender = 1; sender <= 3; sender++) {
            for (int p = 1; p <= 3; p++) {
                harness.feed(sender, batch(LATE_JOIN_EPOCH).message(p, 1));
            }
        }
        assertThat(harness.inbound.trackedStreams()).isEqualTo(6);
        assertThat(harness.inbound.trackedSenders()).isEqualTo(3);
        // Sender 1 was heard least recently: its streams went first; sender 3's are all there.
        harness.feed(3, batch(LATE_JOIN_EPOCH).messages(1, 2, 2).messages(2, 2, 2).messages(3, 2, 2));
        assertThat(harness.counters().duplicatesDiscarded.sum()).isZero();
        assertThat(harness.losses()).isEmpty();
    }

    @Test
    void sendersAreCappedAndAnEvictedSendersUnreportedLossIsReported() throws Exception {
        harness = new InboundHarness(SMALL);
        harness.inbound.onObjectsLost(100, 2, "test loss");          // a sender not heard from otherwise
        for (int sender = 1; sender <= 3; sender++) {
            harness.feed(sender, batch(LATE_JOIN_EPOCH).message(1, 1));
        }

        assertThat(harness.inbound.trackedSenders()).isEqualTo(3);
        assertThat(harness.losses()).singleElement().satisfies(lost -> {
            assertThat(lost.senderNodeId()).isEqualTo(100);
            assertThat(lost.lostMessages()).isEqualTo(-1);
            assertThat(lost.getMessage()).contains("2 object(s)").contains("test loss");
        });
    }

    @Test
    void lossesBeforeAnyBatchAreCappedLikeSenders() throws Exception {
        harness = new InboundHarness(SMALL);
        for (int sender = 1; sender <= 50; sender++) {
            harness.inbound.onObjectsLost(sender, 1, "test loss");
        }
        assertThat(harness.inbound.trackedSenders()).isEqualTo(3);
        assertThat(harness.losses()).as("every forgotten one reported").hasSize(47);
    }

    @Test
    void idleProducersAndSendersExpire() throws Exception {
        harness = new InboundHarness(SMALL);
        long epoch = harness.heardFromStartEpoch();
        harness.feed(1, batch(epoch).messages(1, 1, 2));
        harness.advance(30, TimeUnit.SECONDS);
        harness.feed(1, batch(epoch).messages(2, 1, 2));
        harness.advance(31, TimeUnit.SECONDS);
        harness.feed(2, batch(LATE_JOIN_EPOCH).message(1, 1));

        assertThat(harness.inbound.trackedStreams()).as("producer 1 of sender 1 idle 61 s").isEqualTo(2);
        assertThat(harness.inbound.trackedSenders()).isEqualTo(2);

        harness.feed(1, batch(epoch).messages(1, 3, 4));              // comes back: a new stream, no false gap
        harness.advance(61, TimeUnit.SECONDS);
        harness.inbound.onObjectsLost(3, 1, "test loss");
        assertThat(harness.inbound.trackedSenders()).as("senders 1 and 2 idle 61 s").isEqualTo(1);
        assertThat(harness.inbound.trackedStreams()).isZero();

        harness.feed(1, batch(epoch).messages(1, 5, 6));              // the forgotten sender comes back
        assertThat(harness.received()).containsExactly("1", "2", "1", "2", "1", "3", "4", "5", "6");
        assertThat(harness.losses()).as("no false gap for returning producers or senders").isEmpty();
    }

    @Test
    void aSenderThatWentAwayAndCameBackIsNotReportedAsLosingItsStart() throws Exception {
        harness = new InboundHarness(InboundLimits.DEFAULTS);
        long epoch = harness.heardFromStartEpoch();
        harness.feed(1, batch(epoch).messages(1, 1, 3));
        harness.inbound.onSenderGone(1);
        harness.feed(1, batch(epoch).messages(1, 4, 5));

        assertThat(harness.received()).containsExactly("1", "2", "3", "4", "5");
        assertThat(harness.losses()).isEmpty();
    }
}
