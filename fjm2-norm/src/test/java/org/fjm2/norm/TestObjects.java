package org.fjm2.norm;

import java.util.SplittableRandom;

/** Deterministic test objects: sizes and contents follow from a seed and an index, so receivers can verify. */
public final class TestObjects {

    private TestObjects() {
    }

    /** Sizes spread log-uniformly over [min, max]. */
    public static int[] logUniformSizes(int count, int min, int max, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int[] sizes = new int[count];
        double lo = Math.log(min);
        double hi = Math.log(max);
        for (int i = 0; i < count; i++) {
            sizes[i] = (int) Math.min(max, Math.max(min, Math.round(Math.exp(lo + random.nextDouble() * (hi - lo)))));
        }
        return sizes;
    }

    /** The content of object {@code index}: pseudo-random bytes from (seed, index). */
    public static byte[] content(long seed, int index, int size) {
        byte[] b = new byte[size];
        new SplittableRandom(seed * 31 + index).nextBytes(b);
        return b;
    }
}
