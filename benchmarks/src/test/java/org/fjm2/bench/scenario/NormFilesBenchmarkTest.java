package org.fjm2.bench.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.fjm2.bench.norm.PeerLauncher.Engine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The file-path benchmark's parts: the files it writes and checks, the cases it runs, what it reads from peers. */
class NormFilesBenchmarkTest {

    @TempDir
    Path dir;

    @Test
    void onlyIdenticalFilesCountAsIntact() throws Exception {
        Path source = Files.createDirectories(dir.resolve("src"));
        Path out = Files.createDirectories(dir.resolve("out"));
        NormFilesBenchmark.writeFiles(source, 4, 1000);
        assertThat(Files.list(source)).hasSize(4);
        assertThat(Files.readAllBytes(source.resolve("f000000.bin"))).hasSize(1000)
                .isNotEqualTo(Files.readAllBytes(source.resolve("f000001.bin")));
        Files.copy(source.resolve("f000000.bin"), out.resolve("f000000.bin"));
        Files.copy(source.resolve("f000001.bin"), out.resolve("f000001.bin"));
        byte[] corrupt = Files.readAllBytes(source.resolve("f000002.bin"));
        corrupt[999] ^= 1;
        Files.write(out.resolve("f000002.bin"), corrupt);
        Files.write(out.resolve("f000003.bin"), new byte[10]);
        assertThat(NormFilesBenchmark.intactFiles(source, out)).isEqualTo(2);
    }

    @Test
    void everyNrlSenderRunsAtEachNrlRateAndFjm2AtItsOwn() {
        NormVsNrlBenchmark options = new NormVsNrlBenchmark();
        new CommandLine(options).parseArgs("--files", "10", "--nrl-file-rates", "100m,300m", "--rate", "2g");
        List<NormFilesBenchmark.Case> cases = new NormFilesBenchmark(options, null).cases(List.of(
                new Engine[] {Engine.NRL, Engine.NRL}, new Engine[] {Engine.FJM2, Engine.FJM2},
                new Engine[] {Engine.NRL, Engine.FJM2}));
        assertThat(cases).containsExactly(
                new NormFilesBenchmark.Case(Engine.NRL, Engine.NRL, 100_000_000L),
                new NormFilesBenchmark.Case(Engine.NRL, Engine.NRL, 300_000_000L),
                new NormFilesBenchmark.Case(Engine.FJM2, Engine.FJM2, 2_000_000_000L),
                new NormFilesBenchmark.Case(Engine.NRL, Engine.FJM2, 100_000_000L),
                new NormFilesBenchmark.Case(Engine.NRL, Engine.FJM2, 300_000_000L));
    }

    @Test
    void aRunThatLostFilesRanksBelowEveryCompleteOne() {
        NormFilesBenchmark.Transfer lossy = new NormFilesBenchmark.Transfer(99, 1.0, 0.5);
        NormFilesBenchmark.Transfer slow = new NormFilesBenchmark.Transfer(100, 10.0, 9.0);
        NormFilesBenchmark.Transfer fast = new NormFilesBenchmark.Transfer(100, 2.0, 1.5);
        assertThat(lossy.objectsPerSecond(100)).isZero();
        assertThat(NormFilesBenchmark.median(List.of(fast, lossy, slow), 100)).isEqualTo(slow);
    }

    @Test
    void readsTheNrlReceiversCount() {
        assertThat(NormFilesBenchmark.nrlCount("STAT t=12.5 objects=4711 bytes=38592512 aborted=0")).isEqualTo(4711);
        assertThat(NormFilesBenchmark.nrlCount("READY role=recv node=2")).isEqualTo(-1);
    }

    @Test
    void badFileArgumentsAreRefusedAndWithoutTheCliItSaysWhy() {
        CommandLine cli = new CommandLine(new NormVsNrlBenchmark());
        cli.setErr(new PrintWriter(new StringWriter()));
        cli.setExecutionExceptionHandler((ex, c, parse) -> ex instanceof IllegalArgumentException ? 2 : 1);
        assertThat(cli.execute("--files", "-1")).isEqualTo(2);
        assertThat(cli.execute("--files", "10", "--nrl-file-rates", "0")).isEqualTo(2);
        assertThat(cli.execute("--files", "10", "--file-size", "0")).isEqualTo(2);
        // this module's tests do not have fjm2-cli on the class path
        assertThat(NormFilesBenchmark.cliOnClassPath()).isFalse();
        assertThat(cli.execute("--files", "10", "--out", dir.toString())).isEqualTo(2);
    }
}
