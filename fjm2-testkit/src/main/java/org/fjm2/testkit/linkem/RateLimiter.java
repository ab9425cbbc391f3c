package org.fjm2.testkit.linkem;

/**
 * A token bucket in virtual-time form (GCRA): it serialises packets at a fixed bit rate with an optional burst
 * tolerance and tells, for each packet, when its last bit has left the link. The bytes waiting for the link are
 * implied by how far the virtual clock runs ahead of real time, so the queue needs no storage of its own.
 */
final class RateLimiter {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final long bitsPerSecond;
    private final long burstNanos;
    private final long queueLimitNanos;
    /** The time at which the link would be idle again, had every admitted packet been sent at the rate. */
    private long theoreticalArrival = Long.MIN_VALUE;

    /** @param bitsPerSecond 0 for an unlimited link, on which every packet leaves at once */
    RateLimiter(long bitsPerSecond, int burstBytes, int queueLimitBytes) {
        this.bitsPerSecond = bitsPerSecond;
        this.burstNanos = bitsPerSecond == 0 ? 0 : transmitNanos(burstBytes);
        this.queueLimitNanos = bitsPerSecond == 0 ? Long.MAX_VALUE : transmitNanos(queueLimitBytes);
    }

    /**
     * Admits a packet of {@code bytes} arriving at {@code now}.
     *
     * @param dropWhenFull true to refuse a packet that would overflow the queue (datagrams); false to always
     *                     admit it (a TCP stream, whose sender is held back by other means)
     * @return the time its last bit has left the link, or -1 if the queue is full and the packet is dropped
     */
    long admit(long now, int bytes, boolean dropWhenFull) {
        if (bitsPerSecond == 0) {
            return now;
        }
        long idleAt = Math.max(theoreticalArrival, now);
        long start = Math.max(now, idleAt - burstNanos);
        long transmit = transmitNanos(bytes);
        long waiting = start - now;
        if (dropWhenFull && waiting > 0 && waiting + transmit > queueLimitNanos) {
            return -1;
        }
        theoreticalArrival = idleAt + transmit;
        return start + transmit;
    }

    private long transmitNanos(long bytes) {
        return bytes * 8 * NANOS_PER_SECOND / bitsPerSecond;
    }
}
