package org.fjm2.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

class LoopbackParamsTest {

    @Test
    void byDefaultFjm2RunsWithTheUrlsDefaultsWhateverTheCap() {
        assertThat(ThroughputBenchmark.loopbackParams(OptionalLong.of(212_992))).isEmpty();
        assertThat(ThroughputBenchmark.loopbackParams(OptionalLong.of(8 << 20))).isEmpty();
        assertThat(ThroughputBenchmark.loopbackParams(OptionalLong.empty())).isEmpty();
    }

    @Test
    void explicitParametersAreKept() {
        assertThat(ThroughputBenchmark.resolveParams("rate=1g")).isEqualTo("rate=1g");
        assertThat(ThroughputBenchmark.resolveParams(ThroughputBenchmark.FJM2_PARAMS)).isEmpty();
    }
}
