package org.fjm2.cli.norm;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code fjm2 norm}: send and receive files as NORM data objects, against any RFC 5740 peer. */
@Command(name = "norm",
        mixinStandardHelpOptions = true,
        description = "Send and receive files as NORM data objects (RFC 5740), like NRL's normCast.",
        subcommands = {NormSendCommand.class, NormRecvCommand.class})
public final class NormCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
