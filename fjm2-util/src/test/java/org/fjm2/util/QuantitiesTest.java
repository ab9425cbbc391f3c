package org.fjm2.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The one grammar of quantities: every spelling the commands, URLs and config files accept, and the refusals. */
class QuantitiesTest {

    @Test
    void ratesAreBitsPerSecondInPowersOfAThousand() {
        assertThat(Quantities.rate("rate", "100m")).isEqualTo(100_000_000L);
        assertThat(Quantities.rate("rate", "100mbit")).isEqualTo(100_000_000L);
        assertThat(Quantities.rate("rate", "100M")).isEqualTo(100_000_000L);
        assertThat(Quantities.rate("rate", "100Mbps")).isEqualTo(100_000_000L);
        assertThat(Quantities.rate("rate", "2.5gbit")).isEqualTo(2_500_000_000L);
        assertThat(Quantities.rate("rate", "1g")).isEqualTo(1_000_000_000L);
        assertThat(Quantities.rate("rate", "512kbit/s")).isEqualTo(512_000L);
        assertThat(Quantities.rate("rate", "64k")).isEqualTo(64_000L);
        assertThat(Quantities.rate("rate", "9600")).isEqualTo(9600L);
        assertThatThrownBy(() -> Quantities.rate("--rate", "10MB/s")).hasMessageContaining("--rate")
                .hasMessageContaining("bytes per second");
        assertThatThrownBy(() -> Quantities.rate("--rate", "10MBps")).hasMessageContaining("bytes per second");
        assertThatThrownBy(() -> Quantities.rate("--rate", "fast")).hasMessageContaining("--rate 'fast' is not");
        assertThatThrownBy(() -> Quantities.rate("--rate", "10furlongs")).hasMessageContaining("unknown unit");
        assertThatThrownBy(() -> Quantities.rate("--rate", "")).hasMessageContaining("is empty");
    }

    @Test
    void sizesAreBytesInPowersOf1024() {
        assertThat(Quantities.bytes("size", "1400")).isEqualTo(1400L);
        assertThat(Quantities.bytes("size", "64k")).isEqualTo(65_536L);
        assertThat(Quantities.bytes("size", "64KiB")).isEqualTo(65_536L);
        assertThat(Quantities.bytes("size", "8MiB")).isEqualTo(8L << 20);
        assertThat(Quantities.bytes("size", "8m")).isEqualTo(8L << 20);
        assertThat(Quantities.bytes("size", "1g")).isEqualTo(1L << 30);
        assertThatThrownBy(() -> Quantities.bytes("size", "3 parsecs")).hasMessageContaining("unknown unit");
    }

    @Test
    void durationsTakeAUnitOrSeconds() {
        assertThat(Quantities.duration("d", "50ms")).isEqualTo(Duration.ofMillis(50));
        assertThat(Quantities.duration("d", "1.5s")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Quantities.duration("d", "200us")).isEqualTo(Duration.ofNanos(200_000));
        assertThat(Quantities.duration("d", "2min")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Quantities.duration("d", "1h")).isEqualTo(Duration.ofHours(1));
        assertThat(Quantities.duration("d", "0.002")).isEqualTo(Duration.ofMillis(2));
        assertThat(Quantities.duration("d", "30")).isEqualTo(Duration.ofSeconds(30));
        assertThat(Quantities.duration("d", "0")).isEqualTo(Duration.ZERO);
        assertThatThrownBy(() -> Quantities.duration("grtt", "5 fortnights")).hasMessageContaining("grtt")
                .hasMessageContaining("unknown unit");
    }

    @Test
    void lossIsAPercentageOrAFraction() {
        assertThat(Quantities.loss("loss", "5%")).isEqualTo(0.05);
        assertThat(Quantities.loss("loss", "0.5%")).isEqualTo(0.005);
        assertThat(Quantities.loss("loss", "0.05")).isEqualTo(0.05);
        assertThat(Quantities.loss("loss", "0")).isEqualTo(0.0);
        assertThatThrownBy(() -> Quantities.loss("--loss", "150%")).hasMessageContaining("more than 100%");
        assertThatThrownBy(() -> Quantities.loss("--loss", "5")).hasMessageContaining("more than 100%");
        assertThatThrownBy(() -> Quantities.loss("--loss", "5x")).hasMessageContaining("percentage");
    }

    @Test
    void formatsTheWayUsersTypeThem() {
        assertThat(Quantities.formatRate(100_000_000L)).isEqualTo("100mbit");
        assertThat(Quantities.formatDuration(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Quantities.formatDuration(Duration.ofMillis(50))).isEqualTo("50ms");
        assertThat(Quantities.formatBytes(128 * 1024)).isEqualTo("128k");
    }
}
