package org.fjm2.testkit.linkem;

import java.util.SplittableRandom;

import org.fjm2.testkit.linkem.DirectionCounters.Counter;

/**
 * The impairment engine of one direction: given a packet's arrival time and size it decides whether the packet
 * is dropped (and why) or when it leaves, and whether a copy follows. It touches no socket and no clock, so
 * its decisions are a pure function of the profile, the seed and the arrival times, and tests can replay them.
 *
 * <p>Each random impairment draws from its own stream, derived from the seed, so that enabling one impairment
 * does not shift the draws of another. Owned by one thread (the emulator's event loop).
 */
final class LinkDirection {

    /** Normal jitter is cut at this many standard deviations so that no packet waits unboundedly. */
    static final double NORMAL_JITTER_CUTOFF = 3.0;

    private final String name;
    private final LinkProfile profile;
    private final long epochNanos;
    private final DirectionCounters counters = new DirectionCounters();
    private final RateLimiter rateLimiter;
    private final long delayNanos;
    private final long jitterNanos;
    private final long reorderDelayNanos;
    private final long retransmitTimeoutNanos;

    private final SplittableRandom lossRandom;
    private final SplittableRandom burstRandom;
    private final SplittableRandom jitterRandom;
    private final SplittableRandom reorderRandom;
    private final SplittableRandom duplicateRandom;

    private boolean burstBad;
    private long lastArrival = Long.MIN_VALUE;
    private long duplicateDeparture = -1;

    /**
     * @param seed                   seeds every random stream of this direction
     * @param epochNanos             the emulator's start, from which the up/down schedule counts
     * @param retransmitTimeoutNanos TCP mode: how much a chunk is delayed when a loss draw hits it
     */
    LinkDirection(String name, LinkProfile profile, long seed, long epochNanos, long retransmitTimeoutNanos) {
        this.name = name;
        this.profile = profile;
        this.epochNanos = epochNanos;
        this.rateLimiter = new RateLimiter(profile.rateBitsPerSecond(), profile.burstBytes(), profile.queueLimitBytes());
        this.delayNanos = profile.delay().toNanos();
        this.jitterNanos = profile.jitter().toNanos();
        this.reorderDelayNanos = profile.reorderDelay().toNanos();
        this.retransmitTimeoutNanos = retransmitTimeoutNanos;
        this.lossRandom = new SplittableRandom(streamSeed(seed, 1));
        this.burstRandom = new SplittableRandom(streamSeed(seed, 2));
        this.jitterRandom = new SplittableRandom(streamSeed(seed, 3));
        this.reorderRandom = new SplittableRandom(streamSeed(seed, 4));
        this.duplicateRandom = new SplittableRandom(streamSeed(seed, 5));
    }

    String name() {
        return name;
    }

    LinkProfile profile() {
        return profile;
    }

    DirectionCounters counters() {
        return counters;
    }

    /** Whether this direction's up/down schedule has the link down at {@code now}. */
    boolean isDown(long now) {
        return profile.upDown() != null && profile.upDown().isDown(now - epochNanos);
    }

    /**
     * Decides the fate of a datagram of {@code bytes} arriving at {@code now}: dropped (counted here, returns -1)
     * or the time at which it leaves. After a non-negative return, {@link #duplicateDeparture()} tells whether a
     * copy leaves too.
     */
    long admitDatagram(long now, int bytes) {
        counters.countIn(bytes);
        duplicateDeparture = -1;
        if (isDown(now)) {
            return drop(DropReason.DOWN);
        }
        long sent = rateLimiter.admit(now, bytes, true);
        if (sent < 0) {
            return drop(DropReason.QUEUE);
        }
        if (profile.lossProbability() > 0 && lossRandom.nextDouble() < profile.lossProbability()) {
            return drop(DropReason.LOSS);
        }
        if (profile.burstLoss() != null && burstLost()) {
            return drop(DropReason.BURST);
        }
        long departure = propagate(sent, profile.jitterMayReorder());
        if (profile.reorderProbability() > 0 && reorderRandom.nextDouble() < profile.reorderProbability()) {
            counters.increment(Counter.REORDERED);
            departure += reorderDelayNanos;
        }
        if (profile.duplicateProbability() > 0 && duplicateRandom.nextDouble() < profile.duplicateProbability()) {
            counters.increment(Counter.DUPLICATED);
            duplicateDeparture = departure;
        }
        return departure;
    }

    /** After {@link #admitDatagram} admitted a packet: when its copy leaves, or -1 for no copy. */
    long duplicateDeparture() {
        return duplicateDeparture;
    }

    /**
     * Decides when a chunk of a TCP byte stream arriving at {@code now} leaves. A stream loses nothing: a down
     * link holds the chunk until it is up again, a loss draw delays it by one retransmission timeout, and order
     * is always kept (a delayed chunk holds back those behind it, as TCP's in-order delivery does).
     */
    long admitChunk(long now, int bytes) {
        counters.countIn(bytes);
        long start = now;
        if (isDown(now)) {
            counters.increment(Counter.HELD_WHILE_DOWN);
            start = epochNanos + profile.upDown().nextUpAt(now - epochNanos);
        }
        long sent = rateLimiter.admit(start, bytes, false);
        boolean lost = profile.lossProbability() > 0 && lossRandom.nextDouble() < profile.lossProbability();
        lost |= profile.burstLoss() != null && burstLost();
        if (lost) {
            counters.increment(Counter.DELAYED_BY_LOSS);
            sent += retransmitTimeoutNanos;
        }
        return propagate(sent, false);
    }

    /**
     * When the end of a TCP byte stream (its FIN) arriving at {@code now} reaches the far side: after every chunk
     * admitted before it, held while the link is down, and not counted as a packet.
     */
    long admitEndOfStream(long now) {
        long start = isDown(now) ? epochNanos + profile.upDown().nextUpAt(now - epochNanos) : now;
        return propagate(start, false);
    }

    /** The time at which a packet sent (last bit out) at {@code sent} arrives, after delay and jitter. */
    private long propagate(long sent, boolean mayReorder) {
        long arrival = sent + delayNanos + jitter();
        if (arrival < sent) {
            arrival = sent;
        }
        if (!mayReorder) {
            arrival = Math.max(arrival, lastArrival);
            lastArrival = arrival;
        }
        return arrival;
    }

    private long jitter() {
        if (jitterNanos == 0) {
            return 0;
        }
        double unit = switch (profile.jitterDistribution()) {
            case UNIFORM -> jitterRandom.nextDouble(-1.0, 1.0);
            case NORMAL -> Math.max(-NORMAL_JITTER_CUTOFF, Math.min(NORMAL_JITTER_CUTOFF, jitterRandom.nextGaussian()));
        };
        return Math.round(unit * jitterNanos);
    }

    /** One step of the Gilbert-Elliott chain: loss by the current state, then the state transition. */
    private boolean burstLost() {
        GilbertElliott ge = profile.burstLoss();
        boolean lost;
        if (burstBad) {
            lost = burstRandom.nextDouble() < ge.lossBad();
            burstBad = !(burstRandom.nextDouble() < ge.r());
        } else {
            lost = burstRandom.nextDouble() < ge.lossGood();
            burstBad = burstRandom.nextDouble() < ge.p();
        }
        return lost;
    }

    private long drop(DropReason reason) {
        counters.countDrop(reason);
        return -1;
    }

    /** Spreads one seed over independent streams (SplitMix64's finaliser over seed and stream index). */
    static long streamSeed(long seed, int stream) {
        long z = seed + stream * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
