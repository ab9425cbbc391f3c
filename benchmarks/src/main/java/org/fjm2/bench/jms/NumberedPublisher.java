package org.fjm2.bench.jms;

/**
 * A publisher of {@code fjm2 bench throughput}: sends as fast as its transport's flow control lets it, in a thread of
 * its own, messages numbered 0, 1, 2... across every {@link #start(int)}/{@link #stop()} round, so that the
 * subscribers count gaps and duplicates.
 */
public interface NumberedPublisher extends AutoCloseable {

    /**
     * Waits until every subscriber can receive, where the transport can tell (Aeron: its flow control group is
     * complete); a JMS publisher cannot, and the subscribers' MARK waits for messages instead.
     */
    default void awaitSubscribers(java.time.Duration timeout) throws InterruptedException {
    }

    /** Starts sending messages of {@code size} payload bytes. */
    void start(int size);

    /** Stops sending; returns the number of the last message sent (-1 if none ever was). */
    long stop() throws InterruptedException;
}
