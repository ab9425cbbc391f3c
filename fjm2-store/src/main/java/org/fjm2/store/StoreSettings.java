package org.fjm2.store;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a store is told: the group, where its journal lives, which topics it keeps and for how long. Every setting
 * has its documented default here; the journal's own tuning is in {@link JournalSettings}.
 *
 * @param url             the group's URL, the one publishers and subscribers use ({@code norm://G:P?interface=IF});
 *                        JMS-layer parameters in it (e.g. {@code storeQuorum}) are accepted and ignored
 * @param dataDirectory   where the journal files are; created when missing
 * @param topics          the topics whose PERSISTENT messages are kept ({@link TopicPattern})
 * @param retentionBytes  the journal keeps at most this many bytes of messages, dropping the oldest; 0: no limit
 * @param retentionTime   messages older than this are dropped; zero: no limit
 * @param name            how this store names itself in its acknowledgements (publishers name it in errors)
 * @param catchUpWait     how long a starting store waits for a peer store's answer to its catch-up request
 *                        ({@link CatchUp}) before it acknowledges anything; zero: no catch-up
 */
public record StoreSettings(String url, Path dataDirectory, TopicPattern topics, long retentionBytes,
                            Duration retentionTime, String name, Duration catchUpWait) {

    /** Every topic. */
    public static final String TOPICS_DEFAULT = "*";
    /** 1 GiB of messages. */
    public static final long RETENTION_BYTES_DEFAULT = 1L << 30;
    /** A week. */
    public static final Duration RETENTION_TIME_DEFAULT = Duration.ofDays(7);
    /**
     * A second: a peer on the LAN answers within milliseconds; a store alone on its group waits this long at every
     * start.
     */
    public static final Duration CATCH_UP_WAIT_DEFAULT = Duration.ofSeconds(1);
    /** Longest store name (it travels in every acknowledgement). */
    public static final int MAX_NAME_BYTES = 255;

    public StoreSettings {
        if (retentionBytes < 0) {
            throw new IllegalArgumentException("retention bytes must be >= 0, got " + retentionBytes);
        }
        if (retentionTime.isNegative()) {
            throw new IllegalArgumentException("retention time must be >= 0, got " + retentionTime);
        }
        if (name.isEmpty() || name.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("store name must have 1.." + MAX_NAME_BYTES + " bytes, got '" + name
                    + "'");
        }
        if (catchUpWait.isNegative()) {
            throw new IllegalArgumentException("catch-up wait must be >= 0, got " + catchUpWait);
        }
    }

    /** Defaults for everything but the URL and the directory; the name is the directory's. */
    public static StoreSettings of(String url, Path dataDirectory) {
        return new StoreSettings(url, dataDirectory, TopicPattern.parse(TOPICS_DEFAULT), RETENTION_BYTES_DEFAULT,
                RETENTION_TIME_DEFAULT, defaultName(dataDirectory), CATCH_UP_WAIT_DEFAULT);
    }

    /** The data directory's last element: unique per store on a host, and what an operator recognises. */
    public static String defaultName(Path dataDirectory) {
        Path file = dataDirectory.toAbsolutePath().normalize().getFileName();
        return file == null ? "store" : file.toString();
    }

    public StoreSettings withTopics(TopicPattern pattern) {
        return new StoreSettings(url, dataDirectory, pattern, retentionBytes, retentionTime, name, catchUpWait);
    }

    public StoreSettings withRetention(long bytes, Duration time) {
        return new StoreSettings(url, dataDirectory, topics, bytes, time, name, catchUpWait);
    }

    public StoreSettings withName(String storeName) {
        return new StoreSettings(url, dataDirectory, topics, retentionBytes, retentionTime, storeName, catchUpWait);
    }

    public StoreSettings withCatchUpWait(Duration wait) {
        return new StoreSettings(url, dataDirectory, topics, retentionBytes, retentionTime, name, wait);
    }
}
