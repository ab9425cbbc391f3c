package org.fjm2.norm.fec;

/**
 * The 64 KiB product table of GF(2^8) ({@link GaloisField#GF256}), so that the symbol kernel multiplies a byte by a
 * constant with one load. Built once per JVM.
 */
final class Gf256 {

    static final int BITS = 8;
    static final int SIZE = 1 << BITS;

    /** a*b at index (a << 8) | b. */
    private static final byte[] PRODUCT = new byte[SIZE * SIZE];

    static {
        for (int a = 1; a < SIZE; a++) {
            for (int b = 1; b < SIZE; b++) {
                PRODUCT[(a << BITS) | b] = (byte) GaloisField.GF256.multiply(a, b);
            }
        }
    }

    private Gf256() {
    }

    /** a*b for a, b in [0, 256). */
    static int mul(int a, int b) {
        return PRODUCT[(a << BITS) | b] & 0xFF;
    }
}
