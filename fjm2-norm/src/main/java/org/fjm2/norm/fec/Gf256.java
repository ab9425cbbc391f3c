package org.fjm2.norm.fec;

/**
 * GF(2^8) built on the primitive polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D) with alpha = x: the field of RFC 5510
 * and of NRL NORM's 8-bit Reed-Solomon coder. The tables are built once per JVM; the full 64 KiB product table lets
 * the symbol kernels multiply a byte by a constant with one load.
 */
final class Gf256 implements GaloisField {

    /** The single instance (all state is static tables). */
    static final Gf256 FIELD = new Gf256();

    static final int BITS = 8;
    static final int SIZE = 1 << BITS;
    /** Multiplicative group order, 2^8 - 1: alpha^ORDER = 1. */
    static final int ORDER = SIZE - 1;
    /** x^8 + x^4 + x^3 + x^2 + 1. */
    static final int PRIMITIVE_POLYNOMIAL = 0x11D;

    /** alpha^i for i in [0, 2*ORDER): doubled so that exp[log a + log b] needs no reduction. */
    private static final int[] EXP = new int[2 * ORDER];
    /** log_alpha(a) for a in [1, SIZE); LOG[0] is unused. */
    private static final int[] LOG = new int[SIZE];
    /** a*b at index (a << 8) | b. */
    private static final byte[] PRODUCT = new byte[SIZE * SIZE];

    static {
        int value = 1;
        for (int i = 0; i < ORDER; i++) {
            EXP[i] = value;
            EXP[i + ORDER] = value;
            LOG[value] = i;
            value <<= 1;
            if ((value & SIZE) != 0) {
                value ^= PRIMITIVE_POLYNOMIAL;
            }
        }
        for (int a = 1; a < SIZE; a++) {
            for (int b = 1; b < SIZE; b++) {
                PRODUCT[(a << BITS) | b] = (byte) EXP[LOG[a] + LOG[b]];
            }
        }
    }

    private Gf256() {
    }

    /** a*b for a, b in [0, 256). */
    static int mul(int a, int b) {
        return PRODUCT[(a << BITS) | b] & 0xFF;
    }

    static int inv(int a) {
        if (a == 0) {
            throw new ArithmeticException("zero has no inverse in GF(2^8)");
        }
        return EXP[ORDER - LOG[a]];
    }

    static int exp(int exponent) {
        return EXP[exponent % ORDER];
    }

    static int log(int a) {
        if (a == 0) {
            throw new ArithmeticException("log of zero in GF(2^8)");
        }
        return LOG[a];
    }

    @Override
    public int bits() {
        return BITS;
    }

    @Override
    public int size() {
        return SIZE;
    }

    @Override
    public int multiply(int a, int b) {
        return mul(a, b);
    }

    @Override
    public int inverse(int a) {
        return inv(a);
    }

    @Override
    public int alphaPower(int exponent) {
        return exp(exponent);
    }
}
