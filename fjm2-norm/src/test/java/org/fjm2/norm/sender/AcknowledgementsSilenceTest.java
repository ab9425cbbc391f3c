package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.protocol.PacketOutput;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.RemoteEvent;
import org.fjm2.norm.protocol.TimerQueue;
import org.fjm2.norm.util.LogLimiters;
import org.junit.jupiter.api.Test;

/**
 * Which receivers acknowledgement rounds stop waiting for: silence counts from the first round a receiver left
 * unanswered — not from when it was last heard (between rounds it has nothing to say), and not from the latest
 * round's start (rounds that run out and start again must not keep a dead receiver waited for).
 */
class AcknowledgementsSilenceTest {

    static final long MS = 1_000_000L;
    static final long SILENCE = 1_000 * MS;
    static final int LIVE = 7;
    static final int DEAD = 8;

    private final Clock clock = new Clock();
    private final Acknowledgements acks = new Acknowledgements(true, 16, 60_000 * MS, clock);

    @Test
    void aReceiverQuietBetweenRoundsIsNotSuspendedWhenTheNextRoundStarts() {
        aliveAt(0, LIVE);
        acks.onAck(LIVE, 1, 0);
        clock.now = 5_000 * MS;                  // a pause in the stream: no round, nothing to say
        acks.startRound(2, 8);
        clock.now += 20 * MS;
        assertThat(acks.suspendSilent(clock.now, SILENCE)).isFalse();
        assertThat(acks.trackedCount()).as("still waited for").isEqualTo(1);
    }

    @Test
    void aReceiverSilentThroughRestartedRoundsIsSuspended() {
        aliveAt(0, LIVE);
        aliveAt(0, DEAD);
        clock.now = 100 * MS;
        int round = 1;
        acks.startRound(round, 8);
        long firstRound = clock.now;
        while (clock.now - firstRound < SILENCE) {
            clock.now += 50 * MS;
            acks.onAck(LIVE, round, clock.now);      // the live one answers every round; the dead one never does
            acks.expireRound(clock.now, 60_000 * MS);
            acks.startRound(++round, 8);             // rounds run out and start again every 50 ms
        }
        assertThat(acks.onAck(LIVE, round, clock.now)).as("the dead one still waited for").isFalse();
        assertThat(acks.suspendSilent(clock.now, SILENCE)).as("round complete without the dead one").isTrue();
        assertThat(acks.trackedCount()).isEqualTo(1);
        assertThat(acks.pendingNodes()).isEmpty();
    }

    @Test
    void aSuspendedReceiverHeardWithinTheTimeoutStillOwesTheTail() {
        aliveAt(0, LIVE);
        aliveAt(0, DEAD);
        acks.onAck(LIVE, 1, 0);
        acks.onAck(DEAD, 1, 0);
        clock.now = 100 * MS;
        acks.startRound(2, 8);
        acks.onAck(LIVE, 2, clock.now);
        clock.now += SILENCE;
        assertThat(acks.suspendSilent(clock.now, SILENCE)).as("round complete without the silent one").isTrue();
        assertThat(acks.acknowledged(2)).as("every tracked receiver has it").isTrue();
        long timeout = 6_000 * MS;
        assertThat(acks.owedByReceiverHeardSince(2, clock.now - timeout)).as("suspended 1 s ago: may come back")
                .isTrue();
        clock.now += timeout;
        assertThat(acks.owedByReceiverHeardSince(2, clock.now - timeout)).as("silent for the whole timeout")
                .isFalse();
    }

    @Test
    void aTrackedReceiverThatMissedTheRoundOwesTheTailUntilItAcknowledgesIt() {
        aliveAt(0, LIVE);
        acks.startRound(3, 8);
        clock.now = 50 * MS;
        acks.expireRound(clock.now, 6_000 * MS);        // ran out of FLUSHes before the silence suspended it
        assertThat(acks.owedByReceiverHeardSince(3, clock.now - 6_000 * MS)).isTrue();
        acks.onAck(LIVE, 3, clock.now);
        assertThat(acks.owedByReceiverHeardSince(3, clock.now - 6_000 * MS)).isFalse();
    }

    @Test
    void aReceiverCountsAsSilentForTheOverflowOnlyAfterUnansweredFlushes() {
        long windowSilence = 150 * MS;
        aliveAt(0, LIVE);
        aliveAt(0, DEAD);
        acks.startRound(5, 20);
        clock.now = 10 * MS;
        acks.onAck(LIVE, 5, clock.now);
        clock.now = 500 * MS;
        assertThat(acks.unansweredOwersSilentAt(5, windowSilence)).as("silent, but never asked")
                .isEqualTo(Long.MIN_VALUE);
        long firstAsk = clock.now;
        for (int i = 0; i < Acknowledgements.SILENT_AFTER_ASKS; i++) {
            acks.askedInRound(clock.now);
            clock.now += 5 * MS;
        }
        assertThat(acks.unansweredOwersSilentAt(5, windowSilence)).as("asked enough: silent from the first ask")
                .isEqualTo(firstAsk + windowSilence);
        acks.heardFrom(DEAD, clock.now);
        assertThat(acks.unansweredOwersSilentAt(5, windowSilence)).as("heard again").isEqualTo(Long.MIN_VALUE);
        acks.onAck(DEAD, 5, clock.now);
        assertThat(acks.unansweredOwersSilentAt(5, windowSilence)).as("nobody owes it").isEqualTo(Long.MIN_VALUE);
    }

    private void aliveAt(long now, int node) {
        clock.now = now;
        acks.alive(node, now);
    }

    /** The least of a session context: a settable clock, counters and log limits. */
    static final class Clock implements ProtocolContext {
        long now;
        /** The session's settings (tests may change them before building what reads them). */
        NormConfig config = NormConfig.builder("239.255.0.1", 6003).build();
        private final NormCounters counters = new NormCounters();
        private final LogLimiters<RemoteEvent> events = new LogLimiters<>(RemoteEvent.class);
        private final TimerQueue timers = new TimerQueue();

        @Override public NormConfig config() { return config; }
        @Override public int nodeId() { return 1; }
        @Override public long nanoTime() { return now; }
        @Override public long micros() { return now / 1000 + 1; }
        @Override public TimerQueue timers() { return timers; }
        @Override public PacketOutput output() { throw new UnsupportedOperationException(); }
        @Override public NormCounters counters() { return counters; }
        @Override public NormListener listener() { return null; }
        @Override public SplittableRandom random() { return new SplittableRandom(1); }
        /** The sequence number of the next message "sent" (tests advance it to stand for messages sent). */
        int sequence;
        @Override public int nextSequence() { int s = sequence; sequence = (sequence + 1) & 0xFFFF; return s; }
        @Override public int currentSequence() { return sequence; }
        @Override public void wakeTransmitter() { }
        @Override public boolean acknowledgementsHeld() { return false; }
        @Override public LogLimiters<RemoteEvent> remoteEvents() { return events; }
    }
}
