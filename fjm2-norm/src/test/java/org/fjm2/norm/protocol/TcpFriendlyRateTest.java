package org.fjm2.norm.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** The TCP throughput equation of NORM-CC (RFC 5740 section 5.5.3) and its inverse. */
class TcpFriendlyRateTest {

    @Test
    void matchesTheEquationWorkedByHand() {
        // s = 1000 B, R = 100 ms, p = 1%: denominator 0.1 * (0.0816497 + 12 * 0.0612372 * 0.01 * 1.0032) = 0.00890224
        assertThat(TcpFriendlyRate.bytesPerSecond(1000, 0.1, 0.01)).isCloseTo(112_331.3, within(5.0));
        // p = 10%: 0.1 * (0.2581989 + 12 * 0.1936492 * 0.1 * 1.32) = 0.0564955
        assertThat(TcpFriendlyRate.bytesPerSecond(1000, 0.1, 0.1)).isCloseTo(17_700.5, within(5.0));
    }

    @Test
    void fallsWithLossAndRoundTripAndScalesWithPacketSize() {
        double base = TcpFriendlyRate.bytesPerSecond(1400, 0.02, 0.001);
        assertThat(TcpFriendlyRate.bytesPerSecond(1400, 0.02, 0.002)).isLessThan(base);
        assertThat(TcpFriendlyRate.bytesPerSecond(1400, 0.04, 0.001)).isCloseTo(base / 2, within(1e-6 * base));
        assertThat(TcpFriendlyRate.bytesPerSecond(2800, 0.02, 0.001)).isCloseTo(2 * base, within(1e-6 * base));
    }

    @Test
    void noLossOrNoRoundTripSetsNoBound() {
        assertThat(TcpFriendlyRate.bytesPerSecond(1400, 0.02, 0)).isInfinite();
        assertThat(TcpFriendlyRate.bytesPerSecond(1400, 0, 0.01)).isInfinite();
        assertThat(TcpFriendlyRate.bytesPerSecond(1400, 0.02, Double.NaN)).isInfinite();
    }

    @Test
    void lossForInvertsTheEquation() {
        for (double p : new double[] {1e-6, 1e-4, 0.01, 0.2, 0.9}) {
            double rate = TcpFriendlyRate.bytesPerSecond(1400, 0.05, p);
            assertThat(TcpFriendlyRate.lossFor(1400, 0.05, rate)).as("p = %s", p).isCloseTo(p, within(p * 1e-6));
        }
        assertThat(TcpFriendlyRate.lossFor(1400, 0.05, 1e-3)).as("a rate below what p = 1 gives").isEqualTo(1.0);
        assertThat(TcpFriendlyRate.lossFor(1400, 0.05, 0)).isEqualTo(1.0);
    }
}
