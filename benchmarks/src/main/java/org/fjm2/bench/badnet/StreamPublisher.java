package org.fjm2.bench.badnet;

import jakarta.jms.BytesMessage;
import jakarta.jms.DeliveryMode;
import jakarta.jms.JMSException;
import jakarta.jms.MessageProducer;
import jakarta.jms.Session;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/**
 * The publisher side of a bad-network run: {@code count} NON_PERSISTENT BytesMessages of {@code size} random bytes
 * (seeded), numbered 0.. in the int property {@value #SEQUENCE_PROPERTY}, stamped with their send time
 * ({@link System#nanoTime()}, property {@value #SENT_NANOS_PROPERTY}). Either as fast as the provider accepts them
 * (period 0: its back-pressure paces the publisher) or one every {@code periodNanos} on a fixed schedule (a late
 * send does not shift the ones after it, so an outage that blocks the publisher shows up at the subscriber).
 */
public final class StreamPublisher {

    public static final String SEQUENCE_PROPERTY = "seq";
    public static final String SENT_NANOS_PROPERTY = "sentNanos";
    public static final String SIZE_PROPERTY = "size";

    private final int count;
    private final int size;
    private final long periodNanos;
    private final long seed;

    public StreamPublisher(int count, int size, long periodNanos, long seed) {
        this.count = count;
        this.size = size;
        this.periodNanos = periodNanos;
        this.seed = seed;
    }

    /**
     * Publishes every message through {@code producer} of {@code session}.
     *
     * @return the time from the first send to the return of the last, in nanoseconds
     */
    public long publish(Session session, MessageProducer producer) throws JMSException {
        producer.setDeliveryMode(DeliveryMode.NON_PERSISTENT);
        byte[] body = new byte[size];
        new SplittableRandom(seed).nextBytes(body);
        long start = System.nanoTime();
        for (int seq = 0; seq < count; seq++) {
            if (periodNanos > 0) {
                long due = start + seq * periodNanos;
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
            }
            BytesMessage m = session.createBytesMessage();
            m.writeBytes(body);
            m.setIntProperty(SEQUENCE_PROPERTY, seq);
            m.setIntProperty(SIZE_PROPERTY, size);
            m.setLongProperty(SENT_NANOS_PROPERTY, System.nanoTime());
            producer.send(m);
        }
        return System.nanoTime() - start;
    }
}
