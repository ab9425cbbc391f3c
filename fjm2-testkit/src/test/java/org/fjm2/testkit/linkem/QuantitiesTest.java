package org.fjm2.testkit.linkem;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class QuantitiesTest {

    @Test
    void parsesRatesInBitsPerSecond() {
        assertThat(Quantities.parseRate("100mbit")).isEqualTo(100_000_000L);
        assertThat(Quantities.parseRate("100M")).isEqualTo(100_000_000L);
        assertThat(Quantities.parseRate("2.5gbit")).isEqualTo(2_500_000_000L);
        assertThat(Quantities.parseRate("512kbit/s")).isEqualTo(512_000L);
        assertThat(Quantities.parseRate("9600")).isEqualTo(9600L);
        assertThatThrownBy(() -> Quantities.parseRate("10mbps")).hasMessageContaining("ambiguous");
        assertThatThrownBy(() -> Quantities.parseRate("fast")).hasMessageContaining("not a number");
    }

    @Test
    void parsesSizesDurationsAndProbabilities() {
        assertThat(Quantities.parseBytes("64k")).isEqualTo(65_536L);
        assertThat(Quantities.parseBytes("1400")).isEqualTo(1400L);
        assertThat(Quantities.parseDuration("50ms")).isEqualTo(Duration.ofMillis(50));
        assertThat(Quantities.parseDuration("1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Quantities.parseDuration("200us")).isEqualTo(Duration.ofNanos(200_000));
        assertThat(Quantities.parseDuration("0")).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> Quantities.parseDuration("5")).hasMessageContaining("needs a unit");
        assertThat(Quantities.parseProbability("1%")).isEqualTo(0.01);
        assertThat(Quantities.parseProbability("0.25")).isEqualTo(0.25);
        assertThatThrownBy(() -> Quantities.parseProbability("150%")).hasMessageContaining("between 0 and 1");
    }

    @Test
    void printsTheWayUsersType() {
        assertThat(Quantities.formatRate(100_000_000L)).isEqualTo("100mbit");
        assertThat(Quantities.formatDuration(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Quantities.formatDuration(Duration.ofMillis(50))).isEqualTo("50ms");
        assertThat(Quantities.formatBytes(128 * 1024)).isEqualTo("128k");
        assertThat(Probability.percent(0.001)).isEqualTo("0.1%");
    }
}
