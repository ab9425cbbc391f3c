package org.fjm2.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.fjm2.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fjm2 admin}'s options and refusals, in process. */
class AdminCommandTest {

    @TempDir
    Path dir;

    @Test
    void printsHelp() {
        CliRun help = CliRun.of("admin", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--port", "--token-file", "--data", "--expiry", "--advertise-interval");
        assertThat(CliRun.of("--help").out()).contains("admin");
    }

    @Test
    void refusesAWorldReadableTokenFile() throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "cli-token-0123456789abcdef\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        CliRun refused = CliRun.of("admin", "--port", "0", "--token-file", token.toString(), "--data",
                dir.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err().strip()).contains("readable or writable by other users", "chmod 600")
                .doesNotContain("cli-token").hasLineCount(1);
    }

    @Test
    void refusesBadInputWithOneLine() {
        CliRun missing = CliRun.of("admin", "--token-file", dir.resolve("absent").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("does not exist");
        CliRun badPort = CliRun.of("admin", "--port", "70000");
        assertThat(badPort.exit()).isEqualTo(2);
        assertThat(badPort.err()).contains("--port");
        assertThat(CliRun.of("admin", "--port", "eighty").exit()).isEqualTo(2);
    }
}
