package org.fjm2.norm.receiver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The receive rate a NORM-CC receiver reports (twice it, in slow start). */
class ReceiveRateTest {

    static final long MS = 1_000_000L;

    @Test
    void measuresASteadyRate() {
        ReceiveRate r = new ReceiveRate();
        long t = 0;
        for (int i = 0; i < 2000; i++) {
            r.onMessage(1400, t += MS, 10 * MS);        // 1.4 MB/s
        }
        assertThat(r.bytesPerSecond()).isCloseTo(1.4e6, within(0.05e6));
        assertThat(r.nominalSize()).isCloseTo(1400, within(1.0));
    }

    @Test
    void aLowRateWithProbesBetweenItsDatagramsNeitherCollapsesNorJumps() {
        ReceiveRate r = new ReceiveRate();
        long t = 0;
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (int i = 0; i < 400; i++) {                 // a 1400-byte datagram every 100 ms: 14 kB/s
            t += 100 * MS;
            r.onMessage(1400, t, 5 * MS);
            for (int p = 1; p < 20; p++) {              // a 48-byte probe every 5 ms in between
                r.onMessage(48, t + p * 5 * MS, 5 * MS);
            }
            if (i > 20) {
                lowest = Math.min(lowest, r.bytesPerSecond());
                highest = Math.max(highest, r.bytesPerSecond());
            }
        }
        double expected = (1400 + 19 * 48) * 10.0;
        assertThat(lowest).as("no collapse to a probe's worth").isGreaterThan(0.6 * expected);
        assertThat(highest).as("no jump on a datagram early in an interval").isLessThan(1.6 * expected);
    }

    @Test
    void aSenderThatStopsIsSeenWithinTheLongestInterval() {
        ReceiveRate r = new ReceiveRate();
        long t = 0;
        for (int i = 0; i < 1000; i++) {
            r.onMessage(1400, t += MS, 10 * MS);
        }
        t += 3_000 * MS;                                // quiet, then a probe
        r.onMessage(48, t, 10 * MS);
        r.onMessage(48, t + ReceiveRate.MAX_INTERVAL_NANOS, 10 * MS);
        assertThat(r.bytesPerSecond()).isLessThan(1000);
    }
}
