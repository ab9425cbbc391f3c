package org.fjm2.testkit.linkem;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.fjm2.util.Quantities;

/**
 * The impairments of one direction of an emulated link. Packets go through them in this order: the up/down
 * schedule (a down link drops at the door), the rate limiter's queue (serialisation at {@code rateBitsPerSecond}
 * with {@code burstBytes} of tolerance; a full queue drops), loss on the wire (random, then Gilbert-Elliott), the
 * propagation delay with jitter, reordering (extra delay for a chosen packet), and duplication (a copy arrives
 * with the original, without taking link capacity). Use {@link #builder()}; {@link #PERFECT} impairs nothing.
 *
 * @param rateBitsPerSecond    bottleneck rate in bits per second, 0 for unlimited
 * @param burstBytes           bytes that may leave back to back above the rate (token bucket depth beyond one packet)
 * @param queueLimitBytes      bytes that may wait for the rate limiter; more are dropped ({@link DropReason#QUEUE})
 * @param delay                fixed one-way propagation delay
 * @param jitter               spread of the delay: half-width (uniform) or standard deviation (normal)
 * @param jitterDistribution   how jitter is drawn
 * @param jitterMayReorder     false (default): departure times are kept monotonic, so jitter never reorders
 * @param lossProbability      independent random loss probability
 * @param burstLoss            Gilbert-Elliott burst loss, or null for none
 * @param reorderProbability   probability that a packet is held back by {@code reorderDelay} so later ones overtake it
 * @param reorderDelay         extra delay of a reordered packet
 * @param duplicateProbability probability that a packet is delivered twice
 * @param upDown               up/down schedule, or null for always up
 */
public record LinkProfile(long rateBitsPerSecond, int burstBytes, int queueLimitBytes,
                          Duration delay, Duration jitter, JitterDistribution jitterDistribution, boolean jitterMayReorder,
                          double lossProbability, GilbertElliott burstLoss,
                          double reorderProbability, Duration reorderDelay,
                          double duplicateProbability, UpDownSchedule upDown) {

    /** Default bytes that may wait for the rate limiter: about 10 ms at 100 Mbit/s, 1 s at 1 Mbit/s. */
    public static final int DEFAULT_QUEUE_BYTES = 128 * 1024;
    /** Default burst tolerance: none, the link serialises packets strictly at its rate like a real wire. */
    public static final int DEFAULT_BURST_BYTES = 0;
    /** Default extra delay of a reordered packet when only the probability is given. */
    public static final Duration DEFAULT_REORDER_DELAY = Duration.ofMillis(10);

    /** No impairment at all: unlimited rate, no delay, nothing lost, reordered or duplicated. */
    public static final LinkProfile PERFECT = builder().build();

    public LinkProfile {
        if (rateBitsPerSecond < 0) {
            throw new IllegalArgumentException("rate must be >= 0 bits/s (0 = unlimited), got " + rateBitsPerSecond);
        }
        if (burstBytes < 0) {
            throw new IllegalArgumentException("burst must be >= 0 bytes, got " + burstBytes);
        }
        if (queueLimitBytes <= 0) {
            throw new IllegalArgumentException("queue limit must be > 0 bytes, got " + queueLimitBytes);
        }
        requireNonNegative("delay", delay);
        requireNonNegative("jitter", jitter);
        requireNonNegative("reorder delay", reorderDelay);
        if (jitterDistribution == null) {
            throw new IllegalArgumentException("jitter distribution must be given");
        }
        Probability.check("loss", lossProbability);
        Probability.check("reorder probability", reorderProbability);
        Probability.check("duplicate probability", duplicateProbability);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this profile's values, to derive a variant. */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Whether this profile changes anything at all. */
    public boolean isPerfect() {
        return equals(PERFECT);
    }

    /** One line naming only the impairments in effect, e.g. {@code rate 100mbit queue 128k, delay 50ms ±5ms, loss 1%}. */
    public String describe() {
        List<String> parts = new ArrayList<>();
        if (rateBitsPerSecond > 0) {
            parts.add("rate " + Quantities.formatRate(rateBitsPerSecond) + " queue " + Quantities.formatBytes(queueLimitBytes)
                    + (burstBytes > 0 ? " burst " + Quantities.formatBytes(burstBytes) : ""));
        }
        if (!delay.isZero() || !jitter.isZero()) {
            String d = "delay " + Quantities.formatDuration(delay);
            if (!jitter.isZero()) {
                d += " ±" + Quantities.formatDuration(jitter) + " " + jitterDistribution.name().toLowerCase()
                        + (jitterMayReorder ? " (may reorder)" : "");
            }
            parts.add(d);
        }
        if (lossProbability > 0) {
            parts.add("loss " + Probability.percent(lossProbability));
        }
        if (burstLoss != null) {
            parts.add("burst loss " + burstLoss);
        }
        if (reorderProbability > 0) {
            parts.add("reorder " + Probability.percent(reorderProbability) + " by " + Quantities.formatDuration(reorderDelay));
        }
        if (duplicateProbability > 0) {
            parts.add("duplicate " + Probability.percent(duplicateProbability));
        }
        if (upDown != null) {
            parts.add(upDown.toString());
        }
        return parts.isEmpty() ? "perfect" : String.join(", ", parts);
    }

    private static void requireNonNegative(String what, Duration d) {
        if (d == null || d.isNegative()) {
            throw new IllegalArgumentException(what + " must be >= 0, got " + d);
        }
    }

    /** Builds a {@link LinkProfile}; every setting starts at "no impairment" and its documented default. */
    public static final class Builder {
        private long rateBitsPerSecond;
        private int burstBytes = DEFAULT_BURST_BYTES;
        private int queueLimitBytes = DEFAULT_QUEUE_BYTES;
        private Duration delay = Duration.ZERO;
        private Duration jitter = Duration.ZERO;
        private JitterDistribution jitterDistribution = JitterDistribution.UNIFORM;
        private boolean jitterMayReorder;
        private double lossProbability;
        private GilbertElliott burstLoss;
        private double reorderProbability;
        private Duration reorderDelay = DEFAULT_REORDER_DELAY;
        private double duplicateProbability;
        private UpDownSchedule upDown;

        private Builder() {
        }

        private Builder(LinkProfile p) {
            rateBitsPerSecond = p.rateBitsPerSecond;
            burstBytes = p.burstBytes;
            queueLimitBytes = p.queueLimitBytes;
            delay = p.delay;
            jitter = p.jitter;
            jitterDistribution = p.jitterDistribution;
            jitterMayReorder = p.jitterMayReorder;
            lossProbability = p.lossProbability;
            burstLoss = p.burstLoss;
            reorderProbability = p.reorderProbability;
            reorderDelay = p.reorderDelay;
            duplicateProbability = p.duplicateProbability;
            upDown = p.upDown;
        }

        /** Bottleneck rate in bits per second; 0 (default) is unlimited. */
        public Builder rate(long bitsPerSecond) {
            this.rateBitsPerSecond = bitsPerSecond;
            return this;
        }

        /** Bytes allowed back to back above the rate; default {@link LinkProfile#DEFAULT_BURST_BYTES}. */
        public Builder burst(int bytes) {
            this.burstBytes = bytes;
            return this;
        }

        /** Bytes that may wait for the rate limiter; default {@link LinkProfile#DEFAULT_QUEUE_BYTES}. */
        public Builder queueLimit(int bytes) {
            this.queueLimitBytes = bytes;
            return this;
        }

        public Builder delay(Duration delay) {
            this.delay = delay;
            return this;
        }

        public Builder jitter(Duration jitter) {
            this.jitter = jitter;
            return this;
        }

        public Builder jitter(Duration jitter, JitterDistribution distribution) {
            this.jitter = jitter;
            this.jitterDistribution = distribution;
            return this;
        }

        /** How jitter is drawn; default {@link JitterDistribution#UNIFORM}. */
        public Builder jitterDistribution(JitterDistribution distribution) {
            this.jitterDistribution = distribution;
            return this;
        }

        /** Let jitter reorder packets (default false: departures stay monotonic). */
        public Builder jitterMayReorder(boolean mayReorder) {
            this.jitterMayReorder = mayReorder;
            return this;
        }

        public Builder loss(double probability) {
            this.lossProbability = probability;
            return this;
        }

        public Builder burstLoss(GilbertElliott model) {
            this.burstLoss = model;
            return this;
        }

        public Builder reorder(double probability, Duration extraDelay) {
            this.reorderProbability = probability;
            this.reorderDelay = extraDelay;
            return this;
        }

        public Builder duplicate(double probability) {
            this.duplicateProbability = probability;
            return this;
        }

        public Builder upDown(UpDownSchedule schedule) {
            this.upDown = schedule;
            return this;
        }

        public LinkProfile build() {
            return new LinkProfile(rateBitsPerSecond, burstBytes, queueLimitBytes, delay, jitter, jitterDistribution,
                    jitterMayReorder, lossProbability, burstLoss, reorderProbability, reorderDelay, duplicateProbability,
                    upDown);
        }
    }
}
