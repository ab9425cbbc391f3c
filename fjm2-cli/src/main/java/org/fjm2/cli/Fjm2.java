package org.fjm2.cli;

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
        description = "FJM2: brokerless Jakarta Messaging over NORM reliable multicast (RFC 5740).",
        subcommands = {
                DemoCommand.class,
                NormCommand.class,
                PublishCommand.class,
                SubscribeCommand.class,
                org.fjm2.cli.store.StoreCommand.class,
                org.fjm2.cli.admin.AdminCommand.class,
                org.fjm2.tunnel.tool.TunnelCommand.class,
                org.fjm2.testkit.linkem.LinkemCommand.class,
                org.fjm2.bench.BenchCommand.class,
                CommandLine.HelpCommand.class
        })
public final class Fjm2 implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(newCommandLine().execute(args));
    }

    /** The configured command line, shared by {@link #main} and the tests. */
    public static CommandLine newCommandLine() {
        CommandLine cli = new CommandLine(new Fjm2());
        cli.setExecutionExceptionHandler(new CliErrors());
        cli.setParameterExceptionHandler(new CliErrors());
        return cli;
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
