package org.fjm2.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** One in-process run of {@code fjm2 ARGS...}, configured as {@link Fjm2#main} configures it: exit code and output. */
public record CliRun(int exit, String out, String err) {

    public static CliRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Fjm2.newCommandLine(args);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
