package org.fjm2.norm.sender;

/**
 * Paces datagrams at a rate with a virtual transmit clock: each datagram advances the clock by its serialisation
 * time (IP and UDP headers included); a datagram may leave when the clock is no further ahead of real time than the
 * burst allowance. The allowance (one millisecond of traffic, at least four datagrams) keeps the event loop from
 * waking once per datagram while never bursting a whole window at line rate. The rate may change at any time (rate
 * controllers adapt it); the clock keeps what was already sent.
 */
final class Pacer {

    /** IPv4 + UDP header bytes counted against the rate. */
    static final int IP_UDP_OVERHEAD = 28;
    /** How far ahead of real time the transmit clock may run, as traffic time. */
    static final long BURST_NANOS = 1_000_000L;
    /** Minimum burst in datagrams of this size. */
    static final int MIN_BURST_PACKETS = 4;
    private static final int NOMINAL_PACKET = 1500;

    private long bitsPerSecond;
    private double nanosPerByte;
    private long burstNanos;
    private long transmitClock;
    private boolean started;

    Pacer(long bitsPerSecond) {
        rate(bitsPerSecond);
    }

    void rate(long bitsPerSecond) {
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException("rate must be positive: " + bitsPerSecond);
        }
        this.bitsPerSecond = bitsPerSecond;
        this.nanosPerByte = 8e9 / bitsPerSecond;
        this.burstNanos = Math.max(BURST_NANOS, (long) (MIN_BURST_PACKETS * NOMINAL_PACKET * nanosPerByte));
    }

    long rate() {
        return bitsPerSecond;
    }

    long delayNanos(long now) {
        if (!started) {
            return 0;
        }
        long earliest = now - burstNanos;
        if (transmitClock - earliest < 0) {
            return 0;
        }
        return transmitClock - now - burstNanos + 1;
    }

    void onSent(int bytes, long now) {
        long floor = now - burstNanos;
        if (!started || transmitClock - floor < 0) {
            transmitClock = floor;
            started = true;
        }
        transmitClock += (long) ((bytes + IP_UDP_OVERHEAD) * nanosPerByte);
    }
}
