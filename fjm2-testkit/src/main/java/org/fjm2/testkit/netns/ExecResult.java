package org.fjm2.testkit.netns;

import java.util.List;

/**
 * What a finished command printed and returned.
 *
 * @param command  the command line, for messages
 * @param exitCode its exit code
 * @param stdout   everything it wrote to standard output
 * @param stderr   everything it wrote to standard error
 */
public record ExecResult(List<String> command, int exitCode, String stdout, String stderr) {

    public boolean ok() {
        return exitCode == 0;
    }

    /** This result if the command succeeded; otherwise an exception naming the command, its code and its stderr. */
    public ExecResult orThrow() {
        if (!ok()) {
            throw new IllegalStateException("'" + String.join(" ", command) + "' failed with exit code " + exitCode
                    + (stderr.isBlank() ? "" : ": " + stderr.strip()));
        }
        return this;
    }
}
