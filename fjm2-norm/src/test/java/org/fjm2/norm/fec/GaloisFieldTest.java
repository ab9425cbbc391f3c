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
        for (int a = 0; a < 256; a++) {
            for (int b = 0; b < 256; b++) {
                assertThat(Gf256.mul(a, b)).as("%d*%d", a, b)
                        .isEqualTo(slowMultiply(a, b, 8, Gf256.PRIMITIVE_POLYNOMIAL));
            }
        }
    }

    @Test
    void gf256FieldAxioms() {
        for (int a = 0; a < 256; a++) {
            assertThat(Gf256.mul(a, 1)).isEqualTo(a);
            assertThat(Gf256.mul(a, 0)).isZero();
            if (a != 0) {
                assertThat(Gf256.mul(a, Gf256.inv(a))).as("a * a^-1 for %d", a).isEqualTo(1);
                assertThat(Gf256.exp(Gf256.log(a))).isEqualTo(a);
            }
            for (int b = 0; b < 256; b++) {
                assertThat(Gf256.mul(a, b)).isEqualTo(Gf256.mul(b, a));
                for (int c = 0; c < 256; c += 37) {
                    assertThat(Gf256.mul(a, b ^ c)).isEqualTo(Gf256.mul(a, b) ^ Gf256.mul(a, c));
                    assertThat(Gf256.mul(Gf256.mul(a, b), c)).isEqualTo(Gf256.mul(a, Gf256.mul(b, c)));
                }
            }
        }
        assertThatThrownBy(() -> Gf256.inv(0)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void alphaIsPrimitiveInBothFields() {
        Set<Integer> powers = new HashSet<>();
        for (int i = 0; i < Gf256.ORDER; i++) {
            powers.add(Gf256.exp(i));
        }
        assertThat(powers).hasSize(255).doesNotContain(0);
        Set<Integer> powers16 = new HashSet<>();
        for (int i = 0; i < Gf65536.ORDER; i++) {
            powers16.add(Gf65536.exp(i));
        }
        assertThat(powers16).hasSize(65535).doesNotContain(0);
        assertThat(Gf256.exp(Gf256.ORDER)).isEqualTo(1);
        assertThat(Gf65536.exp(Gf65536.ORDER)).isEqualTo(1);
    }

    @Test
    void gf65536MatchesPolynomialArithmeticOnRandomPairs() {
        Random random = new Random(SEED);
        for (int n = 0; n < 200_000; n++) {
            int a = random.nextInt(65536);
            int b = random.nextInt(65536);
            int c = random.nextInt(65536);
            String why = "seed " + SEED + " a=" + a + " b=" + b + " c=" + c;
            assertThat(Gf65536.mul(a, b)).as(why).isEqualTo(slowMultiply(a, b, 16, Gf65536.PRIMITIVE_POLYNOMIAL));
            assertThat(Gf65536.mul(a, b ^ c)).as(why).isEqualTo(Gf65536.mul(a, b) ^ Gf65536.mul(a, c));
            if (a != 0) {
                assertThat(Gf65536.mul(a, Gf65536.inv(a))).as(why).isEqualTo(1);
            }
        }
        assertThatThrownBy(() -> Gf65536.inv(0)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void matrixInverseTimesMatrixIsIdentityAndSingularIsRefused() {
        Random random = new Random(SEED);
        for (GaloisField field : new GaloisField[] {Gf256.FIELD, Gf65536.FIELD}) {
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
