package org.fjm2.cli.jms;

import java.io.PrintWriter;

/**
 * While open, a shutdown hook that prints the subscriber's summary when the JVM is stopped by a signal (SIGTERM,
 * Ctrl-C): a subscriber left running until someone stops it is the common case, and its summary is what the user
 * wanted. Closed when the command ends normally, so that a normal exit prints the summary once, not twice.
 */
final class SummaryOnSignal implements AutoCloseable {

    private final Thread hook;

    SummaryOnSignal(ReceiveTally tally, PrintWriter out, PrintWriter err) {
        this.hook = new Thread(() -> {
            if (tally.printSummaryOnce(out)) {
                err.println("fjm2 subscribe: stopped by a signal");
                err.flush();
            }
        }, "fjm2-subscribe-summary");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The JVM is already stopping: the hook runs (or ran) and prints the summary if nobody did.
        }
    }
}
