package org.fjm2.cli.jms;

import jakarta.jms.JMSException;
import org.fjm2.jms.Fjm2ConnectionFactory;

/** What the publish and subscribe commands share. */
final class ToolSupport {

    /** How often long runs log their progress, in nanoseconds. */
    static final long PROGRESS_INTERVAL_NANOS = 5_000_000_000L;

    private ToolSupport() {
    }

    /** The factory for --url; a bad URL is bad input (exit code 2), named in one line. */
    static Fjm2ConnectionFactory factory(String url) {
        try {
            return new Fjm2ConnectionFactory(url);
        } catch (JMSException e) {
            throw new IllegalArgumentException("--url: " + e.getMessage(), e);
        }
    }

    static double perSecond(long count, long nanos) {
        return nanos <= 0 ? 0 : count * 1e9 / nanos;
    }

    static double megabytesPerSecond(long bytes, long nanos) {
        return perSecond(bytes, nanos) / 1e6;
    }
}
