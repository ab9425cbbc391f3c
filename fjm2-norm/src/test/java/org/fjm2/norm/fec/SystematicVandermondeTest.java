package org.fjm2.norm.fec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The Lagrange form must give the same numbers as the matrix form NRL computes: fill an n x B matrix V with
 * V[0] = (1, 0, ..., 0) and V[r][c] = alpha^((r-1)*c), invert its top B rows, and multiply the bottom rows by that.
 */
class SystematicVandermondeTest {

    private static int[] matrixForm(GaloisField field, int b, int parity) {
        int n = b + parity;
        int[] v = new int[n * b];
        v[0] = 1;
        for (int r = 1; r < n; r++) {
            for (int c = 0; c < b; c++) {
                v[r * b + c] = field.alphaPower((r - 1) * c % (field.size() - 1));
            }
        }
        int[] top = new int[b * b];
        System.arraycopy(v, 0, top, 0, b * b);
        int[] topInverse = new int[b * b];
        assertThat(GfMatrix.invert(field, top, b, topInverse)).isTrue();
        int[] rows = new int[parity * b];
        for (int j = 0; j < parity; j++) {
            for (int c = 0; c < b; c++) {
                int sum = 0;
                for (int m = 0; m < b; m++) {
                    sum ^= field.multiply(v[(b + j) * b + m], topInverse[m * b + c]);
                }
                rows[j * b + c] = sum;
            }
        }
        return rows;
    }

    @Test
    void lagrangeRowsEqualNrlMatrixRowsOverGf256() {
        int[][] codes = {{1, 1}, {1, 4}, {2, 1}, {4, 2}, {16, 4}, {20, 8}, {64, 16}, {100, 155}, {254, 1}, {200, 55}};
        for (int[] code : codes) {
            assertThat(SystematicVandermonde.parityRows(GaloisField.GF256, code[0], code[1]))
                    .as("B=%d parity=%d", code[0], code[1])
                    .isEqualTo(matrixForm(GaloisField.GF256, code[0], code[1]));
        }
    }

    @Test
    void lagrangeRowsEqualNrlMatrixRowsOverGf65536() {
        int[][] codes = {{1, 3}, {8, 4}, {40, 10}, {300, 5}};
        for (int[] code : codes) {
            assertThat(SystematicVandermonde.parityRows(GaloisField.GF65536, code[0], code[1]))
                    .as("B=%d parity=%d", code[0], code[1])
                    .isEqualTo(matrixForm(GaloisField.GF65536, code[0], code[1]));
        }
    }

    @Test
    void parityRowDoesNotDependOnParityCount() {
        int[] few = SystematicVandermonde.parityRows(GaloisField.GF256, 16, 2);
        int[] many = SystematicVandermonde.parityRows(GaloisField.GF256, 16, 20);
        for (int i = 0; i < few.length; i++) {
            assertThat(many[i]).isEqualTo(few[i]);
        }
    }

    @Test
    void firstParityOfAnyCodeIsNotTrivial() {
        // a row of zeros would mean the parity carries nothing; a Vandermonde code never has one
        int[] rows = SystematicVandermonde.parityRows(GaloisField.GF256, 32, 8);
        for (int j = 0; j < 8; j++) {
            for (int i = 0; i < 32; i++) {
                assertThat(rows[j * 32 + i]).as("row %d col %d", j, i).isNotZero();
            }
        }
    }
}
