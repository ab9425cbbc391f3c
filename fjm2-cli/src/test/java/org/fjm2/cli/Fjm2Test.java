package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The launcher command itself: version, help, and the tools a command line is built with. */
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

    @Test
    void aCommandLineNamingAToolIsBuiltWithThatToolOnly() {
        assertThat(Fjm2.newCommandLine(new String[] {"norm", "send", "f"}).getSubcommands())
                .containsOnlyKeys("norm", "help");
        assertThat(Fjm2.newCommandLine(new String[] {"--help"}).getSubcommands()).hasSize(Fjm2.TOOLS.size() + 1);
        assertThat(Fjm2.newCommandLine(new String[0]).getSubcommands()).hasSize(Fjm2.TOOLS.size() + 1);
    }

    @Test
    void aToolsHelpIsTheSameWithTheOtherToolsLeftOut() {
        for (Class<?> tool : Fjm2.TOOLS) {
            String name = tool.getAnnotation(CommandLine.Command.class).name();
            assertThat(help(Fjm2.newCommandLine(new String[] {name}), name))
                    .as("fjm2 %s --help", name).isEqualTo(help(Fjm2.newCommandLine(), name));
        }
    }

    @Test
    void aMistypedToolIsReportedAsWithEveryTool() {
        CliRun run = CliRun.of("nrom", "send");
        assertThat(run.exit()).isEqualTo(CommandLine.ExitCode.USAGE);
        StringWriter err = new StringWriter();
        CommandLine full = Fjm2.newCommandLine();
        full.setErr(new PrintWriter(err, true));
        assertThat(full.execute("nrom", "send")).isEqualTo(run.exit());
        assertThat(run.err()).contains("'nrom'").isEqualTo(err.toString());
    }

    private static String help(CommandLine cli, String tool) {
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        assertThat(cli.execute(tool, "--help")).isZero();
        return out.toString();
    }
}
