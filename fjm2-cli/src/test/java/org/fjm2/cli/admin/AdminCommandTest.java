package org.fjm2.cli.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

import org.fjm2.admin.testing.AdminHttp;
import org.fjm2.admin.testing.TestCertificates;
import org.fjm2.cli.CliRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code fjm2 admin}'s options and refusals, in process. */
class AdminCommandTest {

    @TempDir
    Path dir;

    @Test
    void printsHelp() {
        CliRun help = CliRun.of("admin", "--help");
        assertThat(help.exit()).isZero();
        assertThat(help.out()).contains("--port", "--token-file", "--data", "--expiry", "--advertise-interval",
                "--tls-cert", "--tls-key", "--status-page", "--allow-loopback");
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

    static final String TOKEN = "cli-token-0123456789abcdef";

    Path privateTokenFile() throws Exception {
        Path token = dir.resolve("admin.token");
        Files.writeString(token, TOKEN + "\n");
        Files.setPosixFilePermissions(token, PosixFilePermissions.fromString("rw-------"));
        return token;
    }

    /** The options parsed as the launcher would, with the WAR the build made. */
    AdminCommand command(String... args) throws Exception {
        AdminCommand command = new AdminCommand();
        List<String> all = new ArrayList<>(List.of("--port", "0", "--bind", "127.0.0.1", "--token-file",
                privateTokenFile().toString(), "--data", dir.resolve("data").toString(),
                "--war", System.getProperty(AdminCommand.WAR_PROPERTY)));
        all.addAll(List.of(args));
        new CommandLine(command).parseArgs(all.toArray(String[]::new));
        return command;
    }

    @Test
    void servesHttpsFromPemFilesAndStartsQuietly() throws Exception {
        TestCertificates tls = TestCertificates.create(dir.resolve("tls"), "cli");
        Files.setPosixFilePermissions(tls.privateKey(), PosixFilePermissions.fromString("rw-------"));
        AdminCommand command = command("--tls-cert", tls.certificateChain().toString(),
                "--tls-key", tls.privateKey().toString());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        PrintStream stdout = System.out;
        EmbeddedAdminServer server;
        // The start's log, wherever the logging configuration on the class path sends it (the launcher's: stderr;
        // a test configuration: stdout).
        PrintStream capture = new PrintStream(log, true, StandardCharsets.UTF_8);
        System.setErr(capture);
        System.setOut(capture);
        try {
            server = command.startServer();
        } finally {
            System.setErr(stderr);
            System.setOut(stdout);
        }
        try (server) {
            assertThat(server.scheme()).isEqualTo("https");
            URI base = URI.create("https://127.0.0.1:" + server.port() + "/");
            AdminHttp http = new AdminHttp(base, TOKEN, tls.trustingTheCa());
            assertThat(http.get("health").body()).contains("\"status\":\"up\"");
            assertThat(http.register("lan-a", "192.0.2.1", 7001).statusCode()).isEqualTo(201);
            assertThat(new AdminHttp(base, null, tls.trustingTheCa()).get("").statusCode())
                    .as("the status page wants the token by default").isEqualTo(401);
            // Tomcat answers plain HTTP on a TLS port with 400 "requires TLS", never with the API.
            assertThat(new AdminHttp(URI.create("http://127.0.0.1:" + server.port() + "/"), TOKEN).get("health")
                    .statusCode()).as("plain HTTP on the TLS port").isEqualTo(400);
            TestCertificates stranger = TestCertificates.create(dir.resolve("stranger"), "stranger");
            assertThatThrownBy(() -> new AdminHttp(base, TOKEN, stranger.trustingTheCa()).get("health"))
                    .hasCauseInstanceOf(javax.net.ssl.SSLHandshakeException.class);
        }
        String started = log.toString(StandardCharsets.UTF_8);
        assertThat(started).as("the start's log").contains("registry database: embedded H2")
                .doesNotContain("NoInitialContextException", "java.naming.factory.initial");
    }

    @Test
    void refusesIncompleteOrUnsafeTlsFiles() throws Exception {
        TestCertificates tls = TestCertificates.create(dir.resolve("tls"), "cli");
        assertThatThrownBy(() -> command("--tls-cert", tls.certificateChain().toString()).startServer())
                .hasMessageContaining("--tls-cert and --tls-key go together");
        Files.setPosixFilePermissions(tls.privateKey(), PosixFilePermissions.fromString("rw-r--r--"));
        assertThatThrownBy(() -> command("--tls-cert", tls.certificateChain().toString(),
                "--tls-key", tls.privateKey().toString()).startServer()).hasMessageContaining("chmod 600");
        Files.setPosixFilePermissions(tls.privateKey(), PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> command("--tls-cert", tls.pkcs12().toString(),
                "--tls-key", tls.privateKey().toString()).startServer())
                .hasMessageContaining("is not a PEM file with a CERTIFICATE");
        assertThatThrownBy(() -> command("--tls-cert", tls.certificateChain().toString(),
                "--tls-key", tls.certificateChain().toString()).startServer())
                .hasMessageContaining("PRIVATE KEY");
        assertThatThrownBy(() -> command("--status-page", "yes").startServer())
                .hasMessageContaining("public, token or off");
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
