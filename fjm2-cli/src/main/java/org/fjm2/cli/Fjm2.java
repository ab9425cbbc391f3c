package org.fjm2.cli;

import java.util.List;

import org.fjm2.cli.jms.PublishCommand;
import org.fjm2.cli.jms.SubscribeCommand;
import org.fjm2.cli.norm.NormCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code bin/fjm2} launcher: every FJM2 tool is a subcommand of this one command, so users learn one
 * entry point and one {@code --help}.
 */
@Command(name = "fjm2",
        mixinStandardHelpOptions = true,
        versionProvider = Fjm2Version.class,
        description = "FJM2: brokerless Jakarta Messaging over NORM reliable multicast (RFC 5740).")
public final class Fjm2 implements Runnable {

    /** Every tool, in the order {@code --help} lists them ({@code help} follows). */
    static final List<Class<?>> TOOLS = List.of(
            DemoCommand.class,
            NormCommand.class,
            PublishCommand.class,
            SubscribeCommand.class,
            org.fjm2.cli.store.StoreCommand.class,
            org.fjm2.cli.admin.AdminCommand.class,
            org.fjm2.tunnel.tool.TunnelCommand.class,
            org.fjm2.testkit.linkem.LinkemCommand.class,
            org.fjm2.bench.BenchCommand.class);

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(newCommandLine(args).execute(args));
    }

    /** The whole command line, every tool in it, shared by the tests. */
    public static CommandLine newCommandLine() {
        return newCommandLine(TOOLS);
    }

    /**
     * The command line for {@code args}: with only the tool they name when they name one, with every tool otherwise
     * ({@code fjm2 --help}, {@code fjm2 help ...}, a name it does not know, reported as with every tool). Picocli
     * reflects over every option of every command it is given: building it for every tool cost {@code fjm2 norm
     * send} about 0.1 s of its start on 2 cores (benchmarks/RESULTS.md, file path).
     */
    static CommandLine newCommandLine(String[] args) {
        if (args.length > 0) {
            for (Class<?> tool : TOOLS) {
                if (tool.getAnnotation(Command.class).name().equals(args[0])) {
                    return newCommandLine(List.of(tool));
                }
            }
        }
        return newCommandLine();
    }

    private static CommandLine newCommandLine(List<Class<?>> tools) {
        CommandLine cli = new CommandLine(new Fjm2());
        for (Class<?> tool : tools) {
            cli.addSubcommand(tool);
        }
        cli.addSubcommand(CommandLine.HelpCommand.class);
        cli.setExecutionExceptionHandler(new CliErrors());
        cli.setParameterExceptionHandler(new CliErrors());
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
