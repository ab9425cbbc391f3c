package org.fjm2.tunnel.tool;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.tunnel.TunnelConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code fjm2 tunnel}: help, one-line errors with exit 2, the config file and its precedence, a short run. */
class TunnelCommandTest {

    @TempDir
    Path dir;

    @Test
    void helpListsTheOptions() {
        Run r = run("--help");
        assertThat(r.code).isZero();
        assertThat(r.out).contains("--key-file", "--peer", "--admin", "--config", "Config file:");
    }

    @Test
    void badInputExitsTwoWithOneLine() throws Exception {
        Path key = key("rw-------");
        assertOneLineError(run("--group", "239.1.2.3:7000"), "--key-file: required");
        assertOneLineError(run("--group", "239.1.2.3", "--key-file", key.toString()), "--group: expected HOST:PORT");
        assertOneLineError(run("--group", "10.0.0.1:7000", "--key-file", key.toString()), "IPv4 multicast");
        assertOneLineError(run("--group", "239.1.2.3:7000", "--key-file", key("rw-r--r--").toString()), "chmod 600");
        assertOneLineError(run("--group", "239.1.2.3:7000", "--key-file", key.toString(), "--rate", "fast"),
                "--rate 'fast' is not a rate");
        Path conf = Files.writeString(dir.resolve("bad.properties"), "gruop=239.1.2.3:7000\n");
        assertOneLineError(run("--config", conf.toString()), "unknown setting 'gruop'");
        assertOneLineError(run("--group", "239.1.2.3:7000", "--key-file", key.toString(), "--admin",
                "http://127.0.0.1:1/"), "--token-file: required");
    }

    @Test
    void configFileSuppliesSettingsAndTheCommandLineWins() throws Exception {
        Path key = key("rw-------");
        Path conf = Files.writeString(dir.resolve("tunnel.properties"), String.join("\n",
                "group=239.9.8.7:7100", "interface=lo", "listen=127.0.0.1:7101", "node-id=lan-a",
                "peer=192.0.2.1:7200, 192.0.2.2", "key-file=" + key, "rate=50m", "seal=true", "transit=yes",
                "repair-cache=8m", "keepalive=5s", "status-interval=0") + "\n");
        TunnelCommand cmd = new TunnelCommand();
        new CommandLine(cmd).parseArgs("--config", conf.toString(), "--rate", "20mbit", "--hop-by-hop", "false");
        TunnelConfig c = cmd.config();
        assertThat(c.group().getHostAddress()).isEqualTo("239.9.8.7");
        assertThat(c.port()).isEqualTo(7100);
        assertThat(c.listen().getPort()).isEqualTo(7101);
        assertThat(c.nodeId()).isEqualTo("lan-a");
        assertThat(c.peers()).hasSize(2);
        assertThat(c.peers().get(1).getPort()).isEqualTo(TunnelConfig.DEFAULT_LISTEN_PORT);
        assertThat(c.peerRate()).as("the command line wins").isEqualTo(20_000_000L);
        assertThat(c.hopByHop()).isFalse();
        assertThat(c.seal()).isTrue();
        assertThat(c.transit()).isTrue();
        assertThat(c.repairCacheBytes()).isEqualTo(8L << 20);
        assertThat(c.keepalive().toSeconds()).isEqualTo(5);
    }

    @Test
    void runsAndStopsAfterItsDuration() throws Exception {
        NormConfig lan = TestGroups.fresh();
        StringWriter err = new StringWriter();
        TunnelCommand cmd = new TunnelCommand();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        cmd.stdout = new java.io.PrintStream(out, true);
        CommandLine cli = new CommandLine(cmd);
        cli.setErr(new PrintWriter(err));
        int code = cli.execute("--group", lan.group().getHostAddress() + ":" + lan.port(), "--interface", "lo",
                "--listen", "127.0.0.1:0", "--key-file", key("rw-------").toString(), "--duration", "300ms");
        assertThat(code).as(err.toString()).isZero();
        assertThat(out.toString()).contains("ready", "UDP port");
    }

    private void assertOneLineError(Run r, String expected) {
        assertThat(r.code).as(r.err).isEqualTo(2);
        assertThat(r.err).contains(expected);
        assertThat(r.err.strip().lines().count()).as(r.err).isLessThanOrEqualTo(2);
    }

    private Path key(String perms) throws Exception {
        Path f = Files.createTempFile(dir, "key", "");
        Files.writeString(f, "0123456789abcdef0123456789abcdef");
        Files.setPosixFilePermissions(f, PosixFilePermissions.fromString(perms));
        return f;
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = TunnelCommand.newCommandLine();
        cli.setOut(new PrintWriter(out));
        cli.setErr(new PrintWriter(err));
        int code = cli.execute(args);
        return new Run(code, out.toString(), err.toString());
    }
}
