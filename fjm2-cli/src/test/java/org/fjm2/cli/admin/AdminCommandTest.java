package org.fjm2.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.fjm2.cli.Fjm2;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code fjm2 admin}'s options and refusals, in process. */
class AdminCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Fjm2.newCommandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void printsHelp() {
        Run help = run("admin", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--port", "--token-file", "--data", "--expiry", "--advertise-interval");
        assertThat(run("--help").out()).contains("admin");
    }

    @Test
    void refusesAWorldReadableTokenFile() throws Exception {
        Path token = dir.resolve("token");
        Files.writeString(token, "cli-token-0123456789abcdef\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-r--r--"));
        Run refused = run("admin", "--port", "0", "--token-file", token.toString(), "--data", dir.toString());
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err().strip()).contains("readable or writable by other users", "chmod 600")
                .doesNotContain("cli-token").hasLineCount(1);
    }

    @Test
    void refusesBadInputWithOneLine() {
        Run missing = run("admin", "--token-file", dir.resolve("absent").toString());
        assertThat(missing.exit()).isEqualTo(2);
        assertThat(missing.err()).contains("does not exist");
        Run badPort = run("admin", "--port", "70000");
        assertThat(badPort.exit()).isEqualTo(2);
        assertThat(badPort.err()).contains("--port");
        assertThat(run("admin", "--port", "eighty").exit()).isEqualTo(2);
    }
}
