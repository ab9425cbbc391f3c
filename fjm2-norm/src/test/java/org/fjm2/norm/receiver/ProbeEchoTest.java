package org.fjm2.norm.receiver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Which probe the feedback echoes: never one read late, so that a cold start does not inflate the sender's GRTT. */
class ProbeEchoTest {

    /** The sender's clock runs this far ahead of ours (what the rule compares includes it). */
    static final long CLOCK_SKEW = 1_795_739_445_000_000L;
    static final double GRTT = 0.001;

    private final ProbeEcho echo = new ProbeEcho();

    /**
     * A probe sent at {@code sentAt} (our clock) read {@code delay} later, with the sender's GRTT {@code grtt};
     * {@code backlogged}: read after a read that stopped with datagrams still queued.
     */
    private void probe(long sentAt, long delay, double grtt, boolean backlogged) {
        echo.onProbe(sentAt + CLOCK_SKEW, sentAt + delay, grtt, backlogged);
    }

    private void probe(long sentAt, long delay, double grtt) {
        probe(sentAt, delay, grtt, false);
    }

    private void probe(long sentAt, long delay) {
        probe(sentAt, delay, GRTT, false);
    }

    private void probeBehindBacklog(long sentAt, long delay) {
        probe(sentAt, delay, GRTT, true);
    }

    private long response(long now) {
        return echo.response(now);
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

    @Test
    void aProbeThatMayHaveWaitedInTheSocketDoesNotReplaceTheOneEchoed() {
        probe(1_000_000, 300);
        probe(2_000_000, 300);
        probeBehindBacklog(3_000_000, 5_000);   // 5 ms: within the lateness allowed, but maybe behind 7 MB queued
        assertThat(response(3_005_000)).isEqualTo(2_000_000 + CLOCK_SKEW + (3_005_000 - 2_000_300));
        probe(4_000_000, 300);
        assertThat(response(4_000_300)).isEqualTo(4_000_000 + CLOCK_SKEW);
    }

    @Test
    void probesReadBehindABacklogAtASendersStartAreNotEchoedBeforeOneReadPromptly() {
        // an NRL sender at 2 Gbit/s overruns a receiver still compiling: its probes wait 30 ms in the socket
        probeBehindBacklog(1_000_000, 30_000);
        probeBehindBacklog(2_000_000, 30_000);
        probeBehindBacklog(3_000_000, 28_000);
        assertThat(response(3_100_000)).as("nothing read promptly yet: no echo").isZero();
        probe(4_000_000, 300);                  // it keeps up now
        assertThat(response(4_000_300)).isEqualTo(4_000_000 + CLOCK_SKEW);
    }

    @Test
    void aProbeBehindABacklogDoesNotVouchForAFirstProbeReadLate() {
        probe(1_000_000, 199_000);              // cold, but the read before it emptied the socket
        probeBehindBacklog(2_000_000, 30_000);
        assertThat(response(2_100_000)).as("nothing read promptly since the first probe").isZero();
        probe(3_000_000, 300);
        probe(4_000_000, 300);
        assertThat(response(4_000_300)).isEqualTo(4_000_000 + CLOCK_SKEW);
    }

    @Test
    void aReceiverThatIsAlwaysBehindIsStillMeasuredOnceNothingElseCameForTheKeepTime() {
        long sentAt = 1_000_000;
        probeBehindBacklog(sentAt, 30_000);
        while (sentAt + 1_000_000 + 30_000 - 1_030_000 < ProbeEcho.KEEP_MICROS) {
            assertThat(response(sentAt + 30_000)).as("at %d us", sentAt).isZero();
            sentAt += 1_000_000;
            probeBehindBacklog(sentAt, 30_000);
        }
        sentAt += 1_000_000;
        probeBehindBacklog(sentAt, 30_000);
        assertThat(response(sentAt + 30_000)).as("kept for lack of another, and echoed")
                .isEqualTo(sentAt + CLOCK_SKEW);
    }
}
