package org.fjm2.cli;

import picocli.CommandLine;

/**
 * Turns bad input and failures into one line on stderr and a non-zero exit code, instead of a stack trace:
 * exit 2 for bad arguments, 1 for a command that failed. {@code FJM2_DEBUG=1} prints the stack trace too.
 */
final class CliErrors implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {

    static final int EXIT_BAD_ARGUMENTS = 2;
    static final int EXIT_FAILED = 1;

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cmd = ex.getCommandLine();
        cmd.getErr().println("fjm2 " + cmd.getCommandName() + ": " + ex.getMessage());
        cmd.getErr().println("Try 'fjm2 " + qualifiedName(cmd) + " --help'.");
        return EXIT_BAD_ARGUMENTS;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine cmd, CommandLine.ParseResult parseResult) {
        if (System.getenv("FJM2_DEBUG") != null) {
            ex.printStackTrace(cmd.getErr());
        }
        if (ex instanceof IllegalArgumentException) {
            cmd.getErr().println("fjm2 " + qualifiedName(cmd) + ": " + ex.getMessage());
            return EXIT_BAD_ARGUMENTS;
        }
        String reason = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        cmd.getErr().println("fjm2 " + qualifiedName(cmd) + ": " + reason);
        return EXIT_FAILED;
    }

    private static String qualifiedName(CommandLine cmd) {
        String name = cmd.getCommandSpec().qualifiedName(" ");
        return name.startsWith("fjm2 ") ? name.substring(5) : name;
    }
}
