package org.fjm2.cli;

import org.fjm2.util.Failures;
import picocli.CommandLine;

/**
 * Turns bad input and failures into one line on stderr and a non-zero exit code, instead of a stack trace:
 * exit 2 for bad arguments, 1 for a command that failed. {@code FJM2_DEBUG=1} prints the stack trace too. Every
 * line starts with the full command ({@code fjm2 norm send: ...}), so that a script's log says which step failed.
 */
final class CliErrors implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {

    static final int EXIT_BAD_ARGUMENTS = 2;
    static final int EXIT_FAILED = 1;

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        cmd.getErr().println(commandName(cmd) + ": " + ex.getMessage());
        cmd.getErr().println("Try '" + commandName(cmd) + " --help'.");
        return EXIT_BAD_ARGUMENTS;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
        if (System.getenv("FJM2_DEBUG") != null) {
            ex.printStackTrace(cmd.getErr());
        }
        if (ex instanceof IllegalArgumentException) {
            cmd.getErr().println(commandName(cmd) + ": " + ex.getMessage());
            return EXIT_BAD_ARGUMENTS;
        }
        cmd.getErr().println(commandName(cmd) + ": " + Failures.describe(ex));
        return EXIT_FAILED;
    }

    /** The command as typed, from the root: {@code fjm2}, {@code fjm2 norm send}. */
    static String commandName(CommandLine cmd) {
        return cmd.getCommandSpec().qualifiedName(" ");
    }
}
