package org.fjm2.norm.sender;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The GRTT estimate rises at once with a larger RTT and comes back down within about a second of quiet samples. */
class GrttEstimatorTest {

    static final long MS = 1_000_000L;

    @Test
    void aLargerRttRaisesTheEstimateAtOnce() {
        GrttEstimator g = new GrttEstimator(0.002, 0.001, 10);
        g.onRtt(0.100, 0);
        assertThat(g.measured()).isCloseTo(0.25 * 0.002 + 0.75 * 0.100, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(g.advertised()).isGreaterThanOrEqualTo(g.measured());
    }

    @Test
    void oneOutlierCostsAboutASecondNotMinutes() {
        GrttEstimator g = new GrttEstimator(0.002, 0.001, 10);
        long now = 0;
        g.onRtt(0.200, now);                       // a receiver's JIT warm-up
        double inflated = g.measured();
        long outlierAt = now;
        while (g.measured() > 0.0025 && now < 5_000 * MS) {
            now += 10 * MS;
            g.onRtt(0.002, now);                   // what the receivers measure from now on
        }
        assertThat(g.measured()).as("back near 2 ms").isLessThanOrEqualTo(0.0025);
        assertThat(now - outlierAt).as("from %.0f ms", inflated * 1e3).isLessThanOrEqualTo(2_000 * MS);
    }

    @Test
    void comesDownNoFurtherThanTheLargestRecentRttAndAtMostByHalf() {
        GrttEstimator g = new GrttEstimator(0.002, 0.001, 10);
        g.onRtt(0.080, 0);
        double before = g.measured();
        g.onRtt(0.030, 300 * MS);                  // ends the outlier's interval: its peak was the outlier
        assertThat(g.measured()).isEqualTo(before);
        g.onRtt(0.020, 400 * MS);
        g.onRtt(0.010, 600 * MS);                  // ends an interval whose largest RTT was 20 ms
        assertThat(g.measured()).isEqualTo(Math.max(0.020, before / 2));
    }

    @Test
    void aReceiverStillMeasuringAsMuchKeepsItUp() {
        GrttEstimator g = new GrttEstimator(0.002, 0.001, 10);
        g.onRtt(0.050, 0);
        double high = g.measured();
        for (long t = 100 * MS; t < 3_000 * MS; t += 100 * MS) {
            g.onRtt(0.050, t);
        }
        assertThat(g.measured()).isGreaterThanOrEqualTo(high).isLessThanOrEqualTo(0.050);
    }

    @Test
    void aProbeEndsTheIntervalSoTheSlowSampleOfADeadReceiverStopsCountingSooner() {
        // A subscriber killed right after one slow sample: the next samples come from the living only.
        GrttEstimator g = new GrttEstimator(0.002, 0.001, 10);
        g.onRtt(2.2, 0);
        double raised = g.measured();
        assertThat(g.takeRaised()).as("a rise is reported once").isTrue();
        assertThat(g.takeRaised()).isFalse();
        g.onProbeSent(300 * MS);                   // ends the slow sample's interval without a sample
        g.onRtt(0.003, 310 * MS);
        g.onRtt(0.003, 600 * MS);                  // ends an interval holding only the living's samples
        assertThat(g.measured()).isCloseTo(raised / 2, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void neverBelowOneDatagramAtTheRate() {
        GrttEstimator g = new GrttEstimator(0.001, 0.0001, 10);
        g.packetInterval(0.005);
        assertThat(g.advertised()).isGreaterThanOrEqualTo(0.005);
    }
}
