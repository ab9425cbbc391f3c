package org.fjm2.norm.receiver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which probe the feedback echoes: never one read late, so that a cold start does not inflate the sender's GRTT. */
class ProbeEchoTest {

    /** The sender's clock runs this far ahead of ours (what the rule compares includes it). */
    static final long CLOCK_SKEW = 1_795_739_445_000_000L;
    static final double GRTT = 0.001;

    /** The echo state as ReceiverFeedback keeps it. */
    private long echoedSend;
    private long echoedRead;
    private boolean echoable;

    /** A probe sent at {@code sentAt} (our clock) read {@code delay} later, with the sender's GRTT {@code grtt}. */
    private void probe(long sentAt, long delay, double grtt) {
        echoable = echoedSend != 0;
        long send = sentAt + CLOCK_SKEW;
        long read = sentAt + delay;
        if (ProbeEcho.replaces(echoedSend, echoedRead, send, read, grtt)) {
            echoedSend = send;
            echoedRead = read;
        }
    }

    private void probe(long sentAt, long delay) {
        probe(sentAt, delay, GRTT);
    }

    private long response(long now) {
        return ProbeEcho.response(echoedSend, echoedRead, echoable, now);
    }

    @Test
    void aColdStartsLateFirstProbeIsNeverEchoedTheNextOnTimeOneIs() {
        probe(1_000_000, 199_000);      // read 199 ms late, as a JVM's first datagrams were
        assertThat(response(1_300_000)).as("a sender's first probe: no echo").isZero();
        probe(2_000_000, 300);
        // held 40 ms: the sender measures 40.3 ms less the hold, the path's 0.3 ms plus its own way back
        assertThat(response(2_040_300)).isEqualTo(2_000_000 + CLOCK_SKEW + 40_000);
    }

    @Test
    void aFirstProbeOnTimeIsEchoedFromTheSecondOnEvenWhenTheSecondIsLate() {
        probe(1_000_000, 300);
        probe(2_000_000, 150_000);
        assertThat(response(2_200_000)).isEqualTo(1_000_000 + CLOCK_SKEW + (2_200_000 - 1_000_300));
    }

    @Test
    void aProbeReadLateLaterOnKeepsTheEchoOfTheLastOneOnTime() {
        probe(1_000_000, 300);
        probe(2_000_000, 250);
        probe(3_000_000, 180_000);      // a pause in this process
        assertThat(response(3_200_000)).as("still the probe of 2 s, held since it was read")
                .isEqualTo(2_000_000 + CLOCK_SKEW + (3_200_000 - 2_000_250));
        probe(4_000_000, 400);
        assertThat(response(4_000_400)).isEqualTo(4_000_000 + CLOCK_SKEW);
    }

    @Test
    void aPathThatGotSlowerForGoodIsEchoedOnceTheKeptProbeIsOld() {
        probe(0, 300);
        probe(1_000_000, 300);
        long slow = 60_000;             // the path now takes 60 ms more
        long step = 1_000_000;
        long sentAt = 2_000_000;
        while (sentAt + slow - 1_000_300 < ProbeEcho.KEEP_MICROS) {
            probe(sentAt, slow);
            assertThat(response(sentAt + slow)).as("at %d us the fast probe stays", sentAt)
                    .isEqualTo(1_000_000 + CLOCK_SKEW + (sentAt + slow - 1_000_300));
            sentAt += step;
        }
        probe(sentAt, slow);
        assertThat(response(sentAt + slow)).as("kept 4 s: the slow one replaces it").isEqualTo(sentAt + CLOCK_SKEW);
    }

    @Test
    void halfTheSendersGrttIsAllowedWhenLongerThanTenMilliseconds() {
        probe(0, 300, 0.1);
        probe(1_000_000, 300, 0.1);
        probe(2_000_000, 40_000, 0.1);  // 40 ms late: within 50 ms
        assertThat(response(2_040_000)).isEqualTo(2_000_000 + CLOCK_SKEW);
        probe(3_000_000, 100_000, 0.1); // 60 ms later than the one echoed: not
        assertThat(response(3_100_000)).isEqualTo(2_000_000 + CLOCK_SKEW + 1_060_000);
    }
}
