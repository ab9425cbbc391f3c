package org.fjm2.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;

import org.fjm2.norm.api.NormConfig;
import org.junit.jupiter.api.Test;

class LoopbackParamsTest {

    @Test
    void theRateCeilingFollowsTheKernelsReceiveBufferCap() {
        assertThat(ThroughputBenchmark.loopbackParams(OptionalLong.of(4 << 20)))
                .as("rmem_max below the default receive buffer").endsWith("rate=10g");
        assertThat(ThroughputBenchmark.loopbackParams(OptionalLong.of(NormConfig.DEFAULT_RECEIVE_BUFFER)))
                .as("rmem_max grants the default receive buffer").endsWith("rate=40g");
        assertThat(ThroughputBenchmark.loopbackParams(OptionalLong.empty()))
                .as("no cap known").endsWith("rate=40g");
        assertThat(ThroughputBenchmark.loopbackParams(OptionalLong.empty())).contains("rateControl=adaptive");
    }

    @Test
    void explicitParametersAreKept() {
        assertThat(ThroughputBenchmark.resolveParams("rate=1g")).isEqualTo("rate=1g");
        assertThat(ThroughputBenchmark.resolveParams(ThroughputBenchmark.FJM2_PARAMS)).startsWith("rateControl=adaptive");
    }
}
