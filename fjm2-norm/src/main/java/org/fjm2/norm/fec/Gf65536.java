package org.fjm2.norm.fec;

/**
 * GF(2^16) built on the primitive polynomial x^16 + x^12 + x^3 + x + 1 (0x1100B) with alpha = x, the field of NRL
 * NORM's 16-bit Reed-Solomon coder (fec_id 2, m = 16). A product table would take 8 GiB, so products go through
 * log/exp tables; the symbol kernel avoids even that by splitting each element into two bytes (multiplication is
 * linear over GF(2)).
 */
final class Gf65536 implements GaloisField {

    /** The single instance (all state is static tables). */
    static final Gf65536 FIELD = new Gf65536();

    static final int BITS = 16;
    static final int SIZE = 1 << BITS;
    /** Multiplicative group order, 2^16 - 1. */
    static final int ORDER = SIZE - 1;
    /** x^16 + x^12 + x^3 + x + 1. */
    static final int PRIMITIVE_POLYNOMIAL = 0x1100B;

    /** alpha^i for i in [0, 2*ORDER). */
    private static final char[] EXP = new char[2 * ORDER];
    /** log_alpha(a) for a in [1, SIZE); LOG[0] is unused. */
    private static final char[] LOG = new char[SIZE];

    static {
        int value = 1;
        for (int i = 0; i < ORDER; i++) {
            EXP[i] = (char) value;
            EXP[i + ORDER] = (char) value;
            LOG[value] = (char) i;
            value <<= 1;
            if ((value & SIZE) != 0) {
                value ^= PRIMITIVE_POLYNOMIAL;
            }
        }
    }

    private Gf65536() {
    }

    /** a*b for a, b in [0, 65536). */
    static int mul(int a, int b) {
        if (a == 0 || b == 0) {
            return 0;
        }
        return EXP[LOG[a] + LOG[b]];
    }

    static int inv(int a) {
        if (a == 0) {
            throw new ArithmeticException("zero has no inverse in GF(2^16)");
        }
        return EXP[ORDER - LOG[a]];
    }

    static int exp(int exponent) {
        return EXP[exponent % ORDER];
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
