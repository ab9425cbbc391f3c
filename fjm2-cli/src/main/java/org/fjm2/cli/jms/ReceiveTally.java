package org.fjm2.cli.jms;

import java.io.PrintWriter;

/**
 * What {@code fjm2 subscribe} has received and lost so far, and its summary line, printed once: at the end, or
 * by the shutdown hook when a signal (SIGTERM, Ctrl-C) stops the command while it waits for messages.
 */
final class ReceiveTally {

    private final String topic;
    private long received;
    private long bytes;
    private long firstNanos;
    private long lastNanos;
    private long lost;
    private long lostUnknown;
    private boolean summaryPrinted;

    ReceiveTally(String topic) {
        this.topic = topic;
    }

    synchronized void received(long bodyBytes, long nowNanos) {
        if (received == 0) {
            firstNanos = nowNanos;
        }
        lastNanos = nowNanos;
        received++;
        bytes += bodyBytes;
    }

    /** Messages the transport or a full queue reported lost; negative: an unknown number. */
    synchronized void lost(long messages) {
        if (messages < 0) {
            lostUnknown++;
        } else {
            lost += messages;
        }
    }

    synchronized long received() {
        return received;
    }

    synchronized double messagesPerSecond(long nowNanos) {
        return ToolSupport.perSecond(received, nowNanos - firstNanos);
    }

    synchronized boolean anyLost() {
        return lost > 0 || lostUnknown > 0;
    }

    /** Prints the summary line unless it was printed already; true if this call printed it. */
    synchronized boolean printSummaryOnce(PrintWriter out) {
        if (summaryPrinted) {
            return false;
        }
        summaryPrinted = true;
        long elapsed = lastNanos - firstNanos;
        out.printf("received %d messages (%d bytes of body) from %s in %.3f s: %.0f msg/s, %.2f MB/s, lost %s%n",
                received, bytes, topic, elapsed / 1e9, ToolSupport.perSecond(received, elapsed),
                ToolSupport.megabytesPerSecond(bytes, elapsed),
                lost + (lostUnknown > 0 ? " (+ an unknown number)" : ""));
        out.flush();
        return true;
    }
}
