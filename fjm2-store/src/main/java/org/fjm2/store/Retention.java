package org.fjm2.store;

import java.time.Duration;

/**
 * Which of the oldest messages go: while the journal holds more than {@code retentionBytes} of messages, or the
 * oldest is older than {@code retentionTime} (0 in either: no limit).
 */
final class Retention {

    /** How often the writer thread applies it when nothing else happens. */
    static final long CHECK_INTERVAL_MILLIS = 1000;

    private final long maxBytes;
    private final long maxAgeMillis;

    Retention(long maxBytes, Duration maxAge) {
        this.maxBytes = maxBytes;
        this.maxAgeMillis = maxAge.toMillis();
    }

    /** True when the index's oldest message should go now. */
    boolean dropOldest(MessageIndex index, long nowMillis) {
        MessageIndex.Entry oldest = index.oldest();
        if (oldest == null) {
            return false;
        }
        return (maxBytes > 0 && index.bytes() > maxBytes)
                || (maxAgeMillis > 0 && nowMillis - oldest.storedAtMillis() > maxAgeMillis);
    }
}
