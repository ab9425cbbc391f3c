package org.fjm2.norm.fec;

/** Dense square matrices over a {@link GaloisField}, row-major in int arrays; only what decoding needs. */
final class GfMatrix {

    private GfMatrix() {
    }

    /**
     * Inverts the n x n matrix {@code a} (destroyed) into {@code inverse} by Gauss-Jordan elimination.
     *
     * @return false when {@code a} is singular
     */
    static boolean invert(GaloisField field, int[] a, int n, int[] inverse) {
        for (int r = 0; r < n; r++) {
            for (int c = 0; c < n; c++) {
                inverse[r * n + c] = r == c ? 1 : 0;
            }
        }
        for (int col = 0; col < n; col++) {
            int pivot = col;
            while (pivot < n && a[pivot * n + col] == 0) {
                pivot++;
            }
            if (pivot == n) {
                return false;
            }
            if (pivot != col) {
                swapRows(a, n, pivot, col);
                swapRows(inverse, n, pivot, col);
            }
            int scale = field.inverse(a[col * n + col]);
            if (scale != 1) {
                scaleRow(field, a, n, col, scale);
                scaleRow(field, inverse, n, col, scale);
            }
            for (int r = 0; r < n; r++) {
                int factor = a[r * n + col];
                if (r != col && factor != 0) {
                    addScaledRow(field, a, n, col, r, factor);
                    addScaledRow(field, inverse, n, col, r, factor);
                }
            }
        }
        return true;
    }

    private static void swapRows(int[] m, int n, int r1, int r2) {
        for (int c = 0; c < n; c++) {
            int t = m[r1 * n + c];
            m[r1 * n + c] = m[r2 * n + c];
            m[r2 * n + c] = t;
        }
    }

    private static void scaleRow(GaloisField field, int[] m, int n, int row, int scale) {
        for (int c = 0; c < n; c++) {
            m[row * n + c] = field.multiply(m[row * n + c], scale);
        }
    }

    /** row[target] += factor * row[source]. */
    private static void addScaledRow(GaloisField field, int[] m, int n, int source, int target, int factor) {
        for (int c = 0; c < n; c++) {
            m[target * n + c] ^= field.multiply(factor, m[source * n + c]);
        }
    }
}
