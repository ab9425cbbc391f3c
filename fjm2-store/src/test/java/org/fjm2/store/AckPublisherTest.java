package org.fjm2.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the store acknowledges around a failed journal write (a full disk): never a range that spans it, so that the
 * publisher's send of that message fails instead of counting as stored when later messages of its stream are
 * written.
 */
class AckPublisherTest {

    static final StreamKey STREAM = new StreamKey(7, 1234, 1, 4);
    static final StreamKey OTHER = new StreamKey(8, 99, 2, 4);

    private final AckPublisher acks = new AckPublisher(null, "store-a", 1, new StoreCounters());

    @Test
    void aFailedWriteSplitsTheRunItWasIn() {
        List<AckPublisher.Outcome> outcomes = new ArrayList<>();
        for (long seq = 1; seq <= 5; seq++) {
            outcomes.add(stored(STREAM, 1, seq));
        }
        outcomes.add(failed(STREAM, 1, 6));
        outcomes.add(stored(STREAM, 1, 7));
        outcomes.add(stored(STREAM, 1, 8));
        assertThat(ranges(acks.ranges(outcomes))).containsExactly("7:1-5", "7:7-8");
    }

    @Test
    void aFailureIsRememberedForLaterAcknowledgements() {
        assertThat(ranges(acks.ranges(List.of(stored(STREAM, 1, 1), failed(STREAM, 1, 2))))).containsExactly("7:1-1");
        assertThat(ranges(acks.ranges(List.of(stored(STREAM, 1, 3), stored(STREAM, 1, 4)))))
                .as("3 and 4 were written after 2 failed: their range starts after it").containsExactly("7:3-4");
        assertThat(ranges(acks.ranges(List.of(failed(STREAM, 1, 5), failed(STREAM, 1, 6), stored(STREAM, 1, 7)))))
                .containsExactly("7:7-7");
    }

    @Test
    void otherStreamsAndLaterRunsAreNotAffected() {
        List<AckPublisher.Outcome> outcomes = List.of(stored(OTHER, 1, 1), failed(STREAM, 1, 1), stored(OTHER, 1, 2),
                stored(STREAM, 10, 10), stored(STREAM, 10, 11));
        assertThat(ranges(acks.ranges(outcomes))).containsExactly("8:1-2", "7:10-11");
    }

    @Test
    void nothingToAcknowledgeWhenEveryWriteFailed() {
        assertThat(acks.ranges(List.of(failed(STREAM, 1, 1), failed(STREAM, 1, 2)))).isEmpty();
    }

    private static AckPublisher.Outcome stored(StreamKey stream, long runStart, long sequence) {
        return new AckPublisher.Outcome(new PendingWrite(stream, runStart, sequence, new byte[0]), true);
    }

    private static AckPublisher.Outcome failed(StreamKey stream, long runStart, long sequence) {
        return new AckPublisher.Outcome(new PendingWrite(stream, runStart, sequence, new byte[0]), false);
    }

    private static List<String> ranges(Map<AckPublisher.Run, long[]> ranges) {
        List<String> out = new ArrayList<>();
        ranges.forEach((run, range) -> out.add(run.stream().node() + ":" + range[0] + "-" + range[1]));
        return out;
    }
}
