package org.fjm2.norm.fec;

/**
 * The generator of the systematic Reed-Solomon code that RFC 5510 describes and NRL NORM implements (after Luigi
 * Rizzo's Vandermonde construction): encoding symbol r is the value at point x_r of the unique polynomial of degree
 * below B whose values at x_0 .. x_{B-1} are the B source symbols, where x_0 = 0 and x_r = alpha^(r-1) for r >= 1.
 *
 * <p>So the coefficient of source symbol i in parity symbol j is the Lagrange basis value
 * {@code L_i(x_{B+j}) = prod_{m != i} (x_{B+j} - x_m) / (x_i - x_m)}: the same numbers as the bottom rows of
 * {@code V * inverse(top B rows of V)} for the Vandermonde matrix V that NRL builds, computed here in O(B^2 + pB)
 * without inverting a matrix. Two facts follow that the codec relies on:
 * <ul>
 *   <li>row j depends on B (the FTI's maximum source block length) and j only, not on the parity count, so it makes
 *       no difference whether the FTI's last byte is read as the parity count or as max_n = B + parity;</li>
 *   <li>a short block of k &lt; B source symbols is the same code with source symbols k .. B-1 taken as zero (NRL
 *       initialises its coder once per session with B, and encodes a short block's k symbols against it).</li>
 * </ul>
 */
final class SystematicVandermonde {

    private SystematicVandermonde() {
    }

    /** Evaluation point of encoding symbol {@code r} (0 for r = 0, alpha^(r-1) after). */
    static int point(GaloisField field, int r) {
        return r == 0 ? 0 : field.alphaPower(r - 1);
    }

    /**
     * The parity rows for a code of B source and {@code parity} repair symbols, row-major:
     * {@code result[j * maxBlockLength + i]} is the coefficient of source symbol i in parity symbol j.
     * The caller has checked {@code maxBlockLength + parity <= field.size() - 1}.
     */
    static int[] parityRows(GaloisField field, int maxBlockLength, int parity) {
        int b = maxBlockLength;
        int[] x = new int[b + parity];
        for (int r = 0; r < x.length; r++) {
            x[r] = point(field, r);
        }
        // denominators[i] = prod_{m != i} (x_i - x_m), shared by every parity row
        int[] inverseDenominator = new int[b];
        for (int i = 0; i < b; i++) {
            int d = 1;
            for (int m = 0; m < b; m++) {
                if (m != i) {
                    d = field.multiply(d, x[i] ^ x[m]);
                }
            }
            inverseDenominator[i] = field.inverse(d);
        }
        int[] rows = new int[parity * b];
        for (int j = 0; j < parity; j++) {
            int t = x[b + j];
            int numerator = 1;
            for (int m = 0; m < b; m++) {
                numerator = field.multiply(numerator, t ^ x[m]);
            }
            for (int i = 0; i < b; i++) {
                // numerator / (t - x_i) leaves prod_{m != i} (t - x_m); t differs from every source point
                int partial = field.multiply(numerator, field.inverse(t ^ x[i]));
                rows[j * b + i] = field.multiply(partial, inverseDenominator[i]);
            }
        }
        return rows;
    }
}
