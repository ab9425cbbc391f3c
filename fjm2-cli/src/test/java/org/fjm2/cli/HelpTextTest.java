package org.fjm2.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

/** Every command's help, as {@code fjm2 ... --help} shows it: complete summaries, no picocli warnings. */
class HelpTextTest {

    @Test
    void everyHelpTextRendersWithoutAPicocliWarning() {
        // picocli runs each text through String.format; an unescaped '%' (as in "5% loss") makes it print a WARN
        // on stderr and show the text unformatted.
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        StringBuilder help = new StringBuilder();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            collectHelp(Fjm2.newCommandLine(), help);
        } finally {
            System.setErr(stderr);
        }
        assertThat(help).as("help was rendered").contains("fjm2 bench fec-repair", "fjm2 norm recv");
        assertThat(warnings.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void everyCommandSummaryIsACompleteSentence() {
        // A parent's command list shows only the first description line of each subcommand.
        List<String> cut = new ArrayList<>();
        for (CommandSpec command : allCommands()) {
            String[] description = command.usageMessage().description();
            if (command.parent() != null && !command.name().equals("help")
                    && (description.length == 0 || !description[0].strip().endsWith("."))) {
                cut.add(command.qualifiedName(" ") + ": " + (description.length == 0 ? "(none)" : description[0]));
            }
        }
        assertThat(cut).isEmpty();
    }

    @Test
    void theTopLevelHelpShowsTheDemoSummaryWhole() {
        CliRun help = CliRun.of("--help");
        assertThat(help.exit()).isZero();
        String demoSummary = new CommandLine(new DemoCommand()).getCommandSpec().usageMessage().description()[0];
        assertThat(oneLine(help.out())).contains(oneLine(demoSummary));
    }

    private static void collectHelp(CommandLine cli, StringBuilder help) {
        help.append(cli.getUsageMessage());
        cli.getSubcommands().values().stream().filter(sub -> sub.getParent() == cli)
                .forEach(sub -> collectHelp(sub, help));
    }

    private static String oneLine(String text) {
        return text.replaceAll("\\s+", " ");
    }

    private static List<CommandSpec> allCommands() {
        List<CommandSpec> all = new ArrayList<>();
        collect(Fjm2.newCommandLine(), all);
        return all;
    }

    private static void collect(CommandLine cli, List<CommandSpec> all) {
        all.add(cli.getCommandSpec());
        for (CommandLine sub : cli.getSubcommands().values()) {
            if (!all.contains(sub.getCommandSpec())) {
                collect(sub, all);
            }
        }
    }
}
