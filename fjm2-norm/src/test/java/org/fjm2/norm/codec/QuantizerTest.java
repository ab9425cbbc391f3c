package org.fjm2.norm.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class QuantizerTest {

    @Test
    void rttRoundsUpAndRoundTrips() {
        for (double rtt : new double[] {1e-6, 5e-6, 3.2e-5, 1e-4, 1e-3, 0.0123, 0.5, 1, 10, 999}) {
            int q = Quantizer.quantizeRtt(rtt);
            double back = Quantizer.unquantizeRtt(q);
            assertThat(back).as("rtt %s -> %d -> %s", rtt, q, back).isGreaterThanOrEqualTo(rtt * 0.9999);
            // the step between codes is at most ~8% above 33 us
            if (q > 0) {
                assertThat(Quantizer.unquantizeRtt(q - 1)).isLessThan(rtt * 1.0001);
            }
        }
    }

    @Test
    void rttClampsOutOfRange() {
        assertThat(Quantizer.quantizeRtt(0)).isEqualTo(0);
        assertThat(Quantizer.quantizeRtt(-1)).isEqualTo(0);
        assertThat(Quantizer.quantizeRtt(Double.NaN)).isEqualTo(0);
        assertThat(Quantizer.quantizeRtt(1e9)).isEqualTo(255);
        assertThat(Quantizer.unquantizeRtt(255)).isCloseTo(1000.0, within(1e-9));
    }

    @Test
    void rttCodesFollowRfc5740() {
        // RFC 5740 section 5.5.1 examples of the encoding: (q+1) us below 31, RTT_MAX/exp((255-q)/13) above.
        assertThat(Quantizer.unquantizeRtt(0)).isEqualTo(1e-6);
        assertThat(Quantizer.unquantizeRtt(30)).isCloseTo(31e-6, within(1e-12));
        assertThat(Quantizer.unquantizeRtt(31)).isCloseTo(1000.0 / Math.exp(224 / 13.0), within(1e-12));
    }

    @Test
    void groupSizeRoundsUp() {
        assertThat(Quantizer.unquantizeGroupSize(Quantizer.quantizeGroupSize(1))).isEqualTo(10);
        assertThat(Quantizer.unquantizeGroupSize(Quantizer.quantizeGroupSize(10))).isEqualTo(10);
        assertThat(Quantizer.unquantizeGroupSize(Quantizer.quantizeGroupSize(11))).isEqualTo(50);
        assertThat(Quantizer.unquantizeGroupSize(Quantizer.quantizeGroupSize(51))).isEqualTo(100);
        assertThat(Quantizer.unquantizeGroupSize(Quantizer.quantizeGroupSize(1000))).isEqualTo(1000);
        assertThat(Quantizer.unquantizeGroupSize(Quantizer.quantizeGroupSize(4000))).isEqualTo(5000);
        assertThat(Quantizer.unquantizeGroupSize(Quantizer.quantizeGroupSize(1e12))).isEqualTo(5e8);
    }

    @Test
    void rateHasThreeSignificantDigits() {
        for (double rate : new double[] {1, 999, 12_500, 1.25e6, 1.25e8, 3.3e9}) {
            double back = Quantizer.unquantizeRate(Quantizer.quantizeRate(rate));
            assertThat(back).as("rate %s", rate).isCloseTo(rate, within(rate * 0.003));
        }
        assertThat(Quantizer.quantizeRate(0)).isEqualTo(1);
    }

    @Test
    void lossRoundTrips() {
        assertThat(Quantizer.unquantizeLoss(Quantizer.quantizeLoss(0.1))).isCloseTo(0.1, within(1e-4));
        assertThat(Quantizer.quantizeLoss(2)).isEqualTo(65535);
        assertThat(Quantizer.quantizeLoss(-1)).isEqualTo(0);
        assertThat(Quantizer.unquantizeLoss32(Quantizer.quantizeLoss32(1e-7))).isCloseTo(1e-7, within(1e-9));
    }
}
