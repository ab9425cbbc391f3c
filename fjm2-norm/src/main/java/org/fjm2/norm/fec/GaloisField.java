package org.fjm2.norm.fec;

/**
 * GF(2^m) for the two fields NORM's Reed-Solomon codes use; alpha = x is primitive in both. GF(2^8) multiplies
 * through a full 64 KiB product table, GF(2^16) through log/exp tables. Matrix set-up uses these methods; the symbol
 * kernels use tables built per coefficient.
 *
 * <p>Elements are ints in {@code [0, size())}. Addition and subtraction are XOR in every field of characteristic 2,
 * so they have no method here.
 */
final class GaloisField {

    /** GF(2^8) on x^8 + x^4 + x^3 + x^2 + 1: RFC 5510 and NRL NORM's 8-bit Reed-Solomon coder. */
    static final GaloisField GF256 = new GaloisField(8, 0x11D);
    /** GF(2^16) on x^16 + x^12 + x^3 + x + 1: NRL NORM's 16-bit Reed-Solomon coder (fec_id 2, m = 16). */
    static final GaloisField GF65536 = new GaloisField(16, 0x1100B);

    private final int bits;
    private final int polynomial;
    /** Multiplicative group order, 2^m - 1: alpha^order = 1. */
    private final int order;
    /** alpha^i for i in [0, 2*order): doubled so that exp[log a + log b] needs no reduction. */
    private final int[] exp;
    /** log_alpha(a) for a in [1, 2^m); log[0] is unused. */
    private final int[] log;
    /** For m = 8 only: a*b at index (a << 8) | b; null for m = 16 (it would take 8 GiB). */
    private final byte[] product;

    private GaloisField(int bits, int polynomial) {
        this.bits = bits;
        this.polynomial = polynomial;
        this.order = (1 << bits) - 1;
        this.exp = new int[2 * order];
        this.log = new int[1 << bits];
        int value = 1;
        for (int i = 0; i < order; i++) {
            exp[i] = value;
            exp[i + order] = value;
            log[value] = i;
            value <<= 1;
            if ((value >>> bits) != 0) {
                value ^= polynomial;
            }
        }
        product = bits <= 8 ? productTable() : null;
    }

    private byte[] productTable() {
        int size = size();
        byte[] table = new byte[size * size];
        for (int a = 1; a < size; a++) {
            for (int b = 1; b < size; b++) {
                table[(a << bits) | b] = (byte) exp[log[a] + log[b]];
            }
        }
        return table;
    }

    /** Bits per element: 8 or 16 (the "m" of RFC 5510). */
    int bits() {
        return bits;
    }

    /** Number of elements, 2^m. */
    int size() {
        return order + 1;
    }

    /** Multiplicative group order, 2^m - 1. */
    int order() {
        return order;
    }

    /** The primitive polynomial, x^m included. */
    int polynomial() {
        return polynomial;
    }

    int multiply(int a, int b) {
        if (product != null) {
            return product[(a << bits) | b] & 0xFF;
        }
        if (a == 0 || b == 0) {
            return 0;
        }
        return exp[log[a] + log[b]];
    }

    /** Multiplicative inverse; {@code a} must not be zero. */
    int inverse(int a) {
        if (a == 0) {
            throw new ArithmeticException("zero has no inverse in GF(2^" + bits + ")");
        }
        return exp[order - log[a]];
    }

    /** {@code alpha^exponent}, exponent >= 0. */
    int alphaPower(int exponent) {
        return exp[exponent % order];
    }

    /** log_alpha(a); {@code a} must not be zero. */
    int log(int a) {
        if (a == 0) {
            throw new ArithmeticException("log of zero in GF(2^" + bits + ")");
        }
        return log[a];
    }
}
