package org.fjm2.norm.transport;

import java.util.BitSet;
import java.util.SplittableRandom;
import java.util.function.Predicate;

import io.netty.buffer.ByteBuf;

/**
 * Decides which datagrams the transport pretends to lose, on receive or on send, so that tests exercise every
 * repair path deterministically (like Aeron's loss generators or JGroups' DISCARD). Called on the session's
 * event loop only; implementations keep state without locks.
 */
public interface LossInjector {

    /** Never drops. */
    LossInjector NONE = new LossInjector() {
        @Override
        public boolean drop(ByteBuf datagram) {
            return false;
        }

        @Override
        public String toString() {
            return "no loss";
        }
    };

    /** Whether to drop this datagram (readable bytes are the NORM message; do not move indexes). */
    boolean drop(ByteBuf datagram);

    /**
     * Drops each datagram independently with probability {@code rate} (0..1), from a generator seeded with
     * {@code seed}: the same seed and traffic give the same losses.
     */
    static LossInjector random(double rate, long seed) {
        if (rate < 0 || rate > 1) {
            throw new IllegalArgumentException("loss rate must be 0..1, got " + rate);
        }
        return new RandomLoss(rate, seed, null);
    }

    /** Like {@link #random}, but only datagrams matching {@code subject} are candidates (e.g. only NORM_DATA). */
    static LossInjector random(double rate, long seed, Predicate<ByteBuf> subject) {
        return new RandomLoss(rate, seed, subject);
    }

    /** Drops exactly the datagrams whose 0-based index (in the order this injector sees them) is in the set. */
    static LossInjector indexes(BitSet dropped) {
        return new IndexLoss(dropped);
    }

    /** Drops the datagrams the predicate selects (e.g. "NORM_DATA of object 3, block 0, symbol 5"). */
    static LossInjector matching(Predicate<ByteBuf> predicate) {
        return predicate::test;
    }

    /** Drops what either injector drops (both see every datagram, so their sequences stay independent). */
    default LossInjector or(LossInjector other) {
        LossInjector self = this;
        return datagram -> self.drop(datagram) | other.drop(datagram);
    }

    /** Seeded random loss. */
    final class RandomLoss implements LossInjector {
        private final double rate;
        private final long seed;
        private final SplittableRandom random;
        private final Predicate<ByteBuf> subject;

        RandomLoss(double rate, long seed, Predicate<ByteBuf> subject) {
            this.rate = rate;
            this.seed = seed;
            this.random = new SplittableRandom(seed);
            this.subject = subject;
        }

        @Override
        public boolean drop(ByteBuf datagram) {
            if (subject != null && !subject.test(datagram)) {
                return false;
            }
            return random.nextDouble() < rate;
        }

        @Override
        public String toString() {
            return "random loss " + (rate * 100) + "% seed " + seed;
        }
    }

    /** Deterministic loss by datagram index. */
    final class IndexLoss implements LossInjector {
        private final BitSet dropped;
        private int index;

        IndexLoss(BitSet dropped) {
            this.dropped = (BitSet) dropped.clone();
        }

        @Override
        public boolean drop(ByteBuf datagram) {
            return dropped.get(index++);
        }

        @Override
        public String toString() {
            return "drop datagrams " + dropped;
        }
    }
}
