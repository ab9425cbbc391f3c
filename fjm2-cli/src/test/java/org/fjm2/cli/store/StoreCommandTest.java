package org.fjm2.cli.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.fjm2.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/** {@code fjm2 store}: its help documents every option; bad input and a damaged journal fail with one line. */
class StoreCommandTest {

    static final String URL = "norm://239.255.0.1:6003?interface=lo";

    @TempDir
    Path dir;

    @Test
    void theHelpDocumentsEveryOptionWithItsDefault() {
        CliRun help = CliRun.of("store", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out().replaceAll("\\s+", " ")).contains("--url", "--data", "--topics", "--retention-bytes",
                "--retention-time", "--name", "--status-interval", "storeQuorum", "Killed (even with -9)",
                "default: *", "default: 1g", "default: 168h", "default: 10s");
    }

    @Test
    void aBadQuantityNamesTheOption() {
        CliRun run = CliRun.of("store", "--url", URL, "--data", dir.toString(), "--retention-bytes", "lots");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("fjm2 store: --retention-bytes");
    }

    @Test
    void anEmptyTopicPatternIsRefused() {
        CliRun run = CliRun.of("store", "--url", URL, "--data", dir.toString(), "--topics", "a,,b");
        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("fjm2 store: --topics: empty topic pattern");
    }

    @Test
    void aDamagedJournalFileStopsTheStartNamingTheFile() throws Exception {
        Path file = dir.resolve("fjm2-store-3.jnl");
        Files.write(file, "not a journal at all".getBytes());
        CliRun run = CliRun.of("store", "--url", URL, "--data", dir.toString());
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.err()).startsWith("fjm2 store: ").contains("journal file " + file,
                "does not start with an Artemis journal header", "move fjm2-store-3.jnl out");
    }
}
