package org.fjm2.norm.fec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GaloisFieldTest {

    private static final long SEED = 0x5EED_F1E1DL;

    /** Carry-less multiply then reduce by the polynomial: the definition, independent of the tables. */
    private static int slowMultiply(int a, int b, int bits, int polynomial) {
        long product = 0;
        for (int i = 0; i < bits; i++) {
            if ((b & (1 << i)) != 0) {
                product ^= (long) a << i;
            }
        }
        for (int i = 2 * bits - 2; i >= bits; i--) {
            if ((product & (1L << i)) != 0) {
                product ^= (long) polynomial << (i - bits);
            }
        }
        return (int) product;
    }

    @Test
    void gf256TablesMatchPolynomialArithmeticForEveryPair() {
        GaloisField f = GaloisField.GF256;
        assertThat(GaloisField.GF256.polynomial()).isEqualTo(0x11D);
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                int expected = slowMultiply(a, b, 8, 0x11D);
                assertThat(f.multiply(a, b)).as("%d*%d", a, b).isEqualTo(expected);
            }
        }
    }

    @Test
    void gf256FieldAxioms() {
        GaloisField f = GaloisField.GF256;
        for (int a = 0; a < 256; a++) {
            assertThat(f.multiply(a, 1)).isEqualTo(a);
            assertThat(f.multiply(a, 0)).isZero();
            if (a != 0) {
                assertThat(f.multiply(a, f.inverse(a))).as("a * a^-1 for %d", a).isEqualTo(1);
                assertThat(f.alphaPower(f.log(a))).isEqualTo(a);
            }
            for (int b = 0; b < 256; b++) {
                assertThat(f.multiply(a, b)).isEqualTo(f.multiply(b, a));
                for (int c = 0; c < 256; c += 37) {
                    assertThat(f.multiply(a, b ^ c)).isEqualTo(f.multiply(a, b) ^ f.multiply(a, c));
                    assertThat(f.multiply(f.multiply(a, b), c)).isEqualTo(f.multiply(a, f.multiply(b, c)));
                }
            }
        }
        assertThatThrownBy(() -> f.inverse(0)).isInstanceOf(ArithmeticException.class);
        assertThatThrownBy(() -> f.log(0)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void alphaIsPrimitiveInBothFields() {
        for (GaloisField f : new GaloisField[] {GaloisField.GF256, GaloisField.GF65536}) {
            Set<Integer> powers = new HashSet<>();
            for (int i = 0; i < f.order(); i++) {
                powers.add(f.alphaPower(i));
            }
            assertThat(powers).hasSize(f.size() - 1).doesNotContain(0);
            assertThat(f.alphaPower(f.order())).isEqualTo(1);
        }
    }

    @Test
    void gf65536MatchesPolynomialArithmeticOnRandomPairs() {
        GaloisField f = GaloisField.GF65536;
        assertThat(f.polynomial()).isEqualTo(0x1100B);
        Random random = new Random(SEED);
        for (int n = 0; n < 200_000; n++) {
            int a = random.nextInt(65536);
            int b = random.nextInt(65536);
            int c = random.nextInt(65536);
            String why = "seed " + SEED + " a=" + a + " b=" + b + " c=" + c;
            assertThat(f.multiply(a, b)).as(why).isEqualTo(slowMultiply(a, b, 16, 0x1100B));
            assertThat(f.multiply(a, b ^ c)).as(why).isEqualTo(f.multiply(a, b) ^ f.multiply(a, c));
            if (a != 0) {
                assertThat(f.multiply(a, f.inverse(a))).as(why).isEqualTo(1);
            }
        }
        assertThatThrownBy(() -> f.inverse(0)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void matrixInverseTimesMatrixIsIdentityAndSingularIsRefused() {
        Random random = new Random(SEED);
        for (GaloisField field : new GaloisField[] {GaloisField.GF256, GaloisField.GF65536}) {
            for (int n = 1; n <= 12; n++) {
                int[] a = new int[n * n];
                for (int i = 0; i < a.length; i++) {
                    a[i] = random.nextInt(field.size());
                }
                int[] copy = a.clone();
                int[] inverse = new int[n * n];
                if (!GfMatrix.invert(field, copy, n, inverse)) {
                    continue; // a random matrix may be singular; the identity check needs an invertible one
                }
                for (int r = 0; r < n; r++) {
                    for (int c = 0; c < n; c++) {
                        int sum = 0;
                        for (int m = 0; m < n; m++) {
                            sum ^= field.multiply(a[r * n + m], inverse[m * n + c]);
                        }
                        assertThat(sum).as("seed %d, m=%d, n=%d, (%d,%d)", SEED, field.bits(), n, r, c)
                                .isEqualTo(r == c ? 1 : 0);
                    }
                }
            }
            // row 2 = row 0 + row 1: singular
            int[] singular = {1, 2, 3, 4, 5, 6, 1 ^ 4, 2 ^ 5, 3 ^ 6};
            assertThat(GfMatrix.invert(field, singular, 3, new int[9])).isFalse();
        }
    }
}
