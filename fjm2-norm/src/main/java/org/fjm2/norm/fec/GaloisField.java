package org.fjm2.norm.fec;

/**
 * The few field operations that building code and decoding matrices needs. Matrix set-up is not on the hot path,
 * so one interface serves GF(2^8) and GF(2^16); the symbol kernels use the concrete tables directly.
 *
 * <p>Elements are ints in {@code [0, size())}. Addition and subtraction are XOR in every field of characteristic 2,
 * so they have no method here.
 */
interface GaloisField {

    /** Bits per element: 8 or 16 (the "m" of RFC 5510). */
    int bits();

    /** Number of elements, {@code 2^bits()}. */
    int size();

    int multiply(int a, int b);

    /** Multiplicative inverse; {@code a} must not be zero. */
    int inverse(int a);

    /** {@code alpha^exponent} for the field's primitive element alpha (the polynomial x), exponent >= 0. */
    int alphaPower(int exponent);
}
