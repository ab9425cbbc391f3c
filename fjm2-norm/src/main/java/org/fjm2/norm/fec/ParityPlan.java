package org.fjm2.norm.fec;

/**
 * What encoding and decoding need to know about one code (B source symbols, p parity symbols): its parity rows and,
 * when they fit in {@link FecCodec#TABLE_CACHE_LIMIT_BYTES}, the ready-made kernel tables of every source position.
 * Immutable once built.
 */
final class ParityPlan {

    final int maxBlockLength;
    final int parity;
    /** {@code rows[j * maxBlockLength + i]}: coefficient of source i in parity j. */
    final int[] rows;
    /** Kernel table of source i at {@code i * tableLength}, or null when too large to keep. */
    final long[] tables;
    /** Longs per source position in {@link #tables}. */
    final int tableLength;

    private ParityPlan(int maxBlockLength, int parity, int[] rows, long[] tables, int tableLength) {
        this.maxBlockLength = maxBlockLength;
        this.parity = parity;
        this.rows = rows;
        this.tables = tables;
        this.tableLength = tableLength;
    }

    static ParityPlan build(GaloisField field, SymbolKernel kernel, int maxBlockLength, int parity,
                            long tableCacheLimitBytes) {
        int[] rows = SystematicVandermonde.parityRows(field, maxBlockLength, parity);
        int tableLength = kernel.tableLength(parity);
        long[] tables = null;
        if (parity > 0 && (long) tableLength * maxBlockLength * Long.BYTES <= tableCacheLimitBytes) {
            tables = new long[tableLength * maxBlockLength];
            for (int i = 0; i < maxBlockLength; i++) {
                kernel.buildTable(rows, i, maxBlockLength, parity, tables, i * tableLength);
            }
        }
        return new ParityPlan(maxBlockLength, parity, rows, tables, tableLength);
    }

    boolean matches(int b, int p) {
        return maxBlockLength == b && parity == p;
    }
}
