package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import org.junit.jupiter.api.Test;

/**
 * The GRTT estimate rises at once with a larger RTT, and comes down to the largest of the receivers' latest RTTs as
 * soon as the receiver that measured an outlier measures again.
 */
class GrttEstimatorTest {

    static final long MS = 1_000_000L;
    static final long MEMORY = 15_000 * MS;
    static final int A = 1;
    static final int B = 2;

    private static GrttEstimator estimator() {
        return new GrttEstimator(0.002, 0.001, 10, MEMORY);
    }

    @Test
    void aLargerRttRaisesTheEstimateAtOnce() {
        GrttEstimator g = estimator();
        g.onRtt(A, 0.100, 0);
        assertThat(g.measured()).isCloseTo(0.25 * 0.002 + 0.75 * 0.100, offset(1e-9));
        assertThat(g.advertised()).isGreaterThanOrEqualTo(g.measured());
    }

    @Test
    void oneOutlierLastsOnlyUntilItsReceiverMeasuresAgain() {
        // Seen across processes on a loaded host: a first sample of 5.3 s from a descheduled receiver, then feedback
        // every half second. Decaying by halves per sample interval kept the GRTT above 0.5 s for seconds.
        GrttEstimator g = estimator();
        g.onRtt(A, 5.3, 0);
        assertThat(g.measured()).isGreaterThan(3.0);
        g.onRtt(A, 0.003, 500 * MS);
        assertThat(g.measured()).as("after the receiver's next sample").isCloseTo(0.003, offset(1e-9));
    }

    @Test
    void aReceiverStillMeasuringAsMuchKeepsItUpWhileAnotherIsFast() {
        GrttEstimator g = estimator();
        g.onRtt(A, 0.050, 0);
        double high = g.measured();
        for (long t = 10 * MS; t < 3_000 * MS; t += 10 * MS) {
            g.onRtt(B, 0.002, t);               // a LAN receiver, heard often
            if (t % (500 * MS) == 0) {
                g.onRtt(A, 0.050, t);           // a WAN receiver, heard at each probe
            }
        }
        assertThat(g.measured()).isGreaterThanOrEqualTo(high).isLessThanOrEqualTo(0.050);
    }

    @Test
    void aReceiverNotHeardForTheMemoryStopsCounting() {
        GrttEstimator g = estimator();
        g.onRtt(A, 0.200, 0);
        long t = 0;
        while (t <= MEMORY) {
            t += 300 * MS;
            g.onRtt(B, 0.002, t);
        }
        assertThat(g.measured()).as("receiver A gone quiet").isCloseTo(0.002, offset(1e-9));
    }

    @Test
    void aReceiverThatStopsAnsweringProbesStopsCounting() {
        // Seen with a subscriber killed -9 two seconds after its only, slow samples: they held the GRTT at 2.2 s, and
        // the silence that suspends a receiver (8 GRTTs) at 17 s, until its objects were evicted.
        GrttEstimator g = estimator();
        g.onRtt(A, 2.2, 0);
        g.onRtt(B, 0.003, 10 * MS);
        long t = 10 * MS;
        for (int probe = 0; probe < GrttEstimator.UNANSWERED_PROBES; probe++) {
            g.onProbeSent(t);
            t += 2_000 * MS;
            g.onRtt(B, 0.003, t);               // the living answer every probe
        }
        assertThat(g.measured()).as("A answered none of %d probes", GrttEstimator.UNANSWERED_PROBES)
                .isCloseTo(0.003, offset(1e-9));
    }

    @Test
    void comesDownAtAProbeWhenTheOnlySlowReceiverStoppedAnswering() {
        GrttEstimator g = estimator();
        g.onRtt(A, 2.0, 0);
        long t = 0;
        for (int probe = 1; probe < GrttEstimator.UNANSWERED_PROBES; probe++) {
            t += 1_500 * MS;
            g.onProbeSent(t);
            g.onRtt(B, 0.003, t + MS);          // B answers; A, killed, does not
        }
        assertThat(g.measured()).as("A still counts after %d probes", GrttEstimator.UNANSWERED_PROBES - 1)
                .isGreaterThan(1.0);
        t += 1_500 * MS;
        g.onProbeSent(t);                       // no answer needed: this probe is the one too many for A
        assertThat(g.measured()).as("B's latest RTT counts, A's no longer").isCloseTo(0.003, offset(1e-9));
    }

    @Test
    void aFarReceiverStillCountsWhileItsAnswerIsUnderway() {
        GrttEstimator g = estimator();
        g.onRtt(A, 0.400, 0);
        long t = 0;
        for (int probe = 0; probe < GrttEstimator.UNANSWERED_PROBES; probe++) {
            g.onProbeSent(t);                   // probes every 100 ms: answers come after 400 ms
            t += 100 * MS;
            g.onRtt(B, 0.003, t);
        }
        assertThat(g.measured()).as("within twice A's RTT").isGreaterThan(0.3);
    }

    @Test
    void comesDownAtMostOncePerInterval() {
        GrttEstimator g = estimator();
        g.onRtt(A, 0.080, 0);
        g.onRtt(A, 0.030, 10 * MS);             // the first decrease is at once
        assertThat(g.measured()).isCloseTo(0.030, offset(1e-9));
        g.onRtt(A, 0.010, 20 * MS);
        assertThat(g.measured()).as("within the interval").isCloseTo(0.030, offset(1e-9));
        g.onRtt(A, 0.010, 20 * MS + GrttEstimator.DECREASE_INTERVAL_NANOS);
        assertThat(g.measured()).isCloseTo(0.010, offset(1e-9));
    }

    @Test
    void tracksABoundedNumberOfReceivers() {
        GrttEstimator g = estimator();
        for (int node = 0; node < 3 * GrttEstimator.MAX_TRACKED_RECEIVERS; node++) {
            g.onRtt(node, 0.002, node * MS);
        }
        assertThat(g.trackedReceivers()).isLessThanOrEqualTo(GrttEstimator.MAX_TRACKED_RECEIVERS);
    }

    @Test
    void neverBelowOneDatagramAtTheRate() {
        GrttEstimator g = new GrttEstimator(0.001, 0.0001, 10, MEMORY);
        g.packetInterval(0.005);
        assertThat(g.advertised()).isGreaterThanOrEqualTo(0.005);
    }
}
