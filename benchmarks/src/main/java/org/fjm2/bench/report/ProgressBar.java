package org.fjm2.bench.report;

import java.io.PrintStream;

/** A one-line progress bar on stderr (redrawn in place when stderr is a terminal, else a line per 10%). */
public final class ProgressBar {

    private final PrintStream err;
    private final String label;
    private final long total;
    private final boolean tty = System.console() != null;
    private long done;
    private int lastDecile = -1;

    public ProgressBar(String label, long total) {
        this(System.err, label, total);
    }

    public ProgressBar(PrintStream err, String label, long total) {
        this.err = err;
        this.label = label;
        this.total = Math.max(1, total);
    }

    public void step(String what) {
        done++;
        int percent = (int) (100 * done / total);
        if (tty) {
            int filled = percent / 4;
            err.printf("\r%s [%s%s] %3d%% %s   ", label, "#".repeat(filled), ".".repeat(25 - filled), percent, what);
            if (done == total) {
                err.println();
            }
        } else if (percent / 10 != lastDecile) {
            lastDecile = percent / 10;
            err.printf("%s %3d%% %s%n", label, percent, what);
        }
    }
}
