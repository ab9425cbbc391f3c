package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The launcher command itself: version and help. */
class Fjm2Test {

    @Test
    void versionIsTheOneTheBuildMade() {
        String expected = System.getProperty("fjm2.version");
        assertThat(expected).as("the build passes fjm2.version").isNotBlank();
        CliRun run = CliRun.of("-V");
        assertThat(run.exit()).isZero();
        assertThat(run.out().lines().findFirst()).hasValue("fjm2 " + expected);
        assertThat(Fjm2Version.version()).isEqualTo(expected).isNotEqualTo(Fjm2Version.UNKNOWN);
    }
}
