package org.fjm2.norm.fec;

/**
 * Multiplies a set of input symbols by a coefficient matrix, the one loop that encoding and decoding share.
 *
 * <p>The trick that makes it fast in plain Java: products for several outputs are packed into one long. For each
 * input symbol a table maps every possible input element to the packed products of that element with the
 * coefficients of up to {@link #lanesPerLong} outputs, so one table load and one XOR per input element feed that many
 * outputs at once. The accumulator holds, for each element position x and each group g of outputs, one long at
 * {@code x * groups + g}; {@link #store} unpacks it into the output symbols at the end. Tables are built by
 * linearity (t[a ^ b] = t[a] ^ t[b]), 256 XORs per group, so building one costs far less than using it.
 */
abstract class SymbolKernel {

    /** Outputs whose products share one long. */
    final int lanesPerLong;
    /** Table longs per input per output group. */
    final int entriesPerGroup;

    SymbolKernel(int lanesPerLong, int entriesPerGroup) {
        this.lanesPerLong = lanesPerLong;
        this.entriesPerGroup = entriesPerGroup;
    }

    /** The kernel for a field of {@code bits} (8 or 16) bits. */
    static SymbolKernel forFieldBits(int bits) {
        return bits == 8 ? new Gf256Kernel() : new Gf65536Kernel();
    }

    final int groups(int outputs) {
        return (outputs + lanesPerLong - 1) / lanesPerLong;
    }

    /** Longs in the table of one input feeding {@code outputs} outputs. */
    final int tableLength(int outputs) {
        return entriesPerGroup * groups(outputs);
    }

    /** Longs of accumulator for symbols of {@code symbolLength} bytes feeding {@code outputs} outputs. */
    abstract int accumulatorLength(int symbolLength, int outputs);

    /**
     * Builds, at {@code table[tableOffset]}, the table of one input whose coefficient for output o is
     * {@code coefficients[first + o * stride]}, o in [0, outputs).
     */
    abstract void buildTable(int[] coefficients, int first, int stride, int outputs, long[] table, int tableOffset);

    /**
     * XORs the products of one input symbol (its first {@code length} bytes; the rest of the symbol is zero and adds
     * nothing) into the accumulator.
     */
    abstract void accumulate(long[] table, int tableOffset, int groups, byte[] src, int srcOffset, int length,
                             long[] accumulator);

    /** Unpacks the accumulator: output o gets {@code symbolLength} bytes at {@code out[o][outOffset[o]]}. */
    abstract void store(long[] accumulator, int outputs, int symbolLength, byte[][] out, int[] outOffset);

    /**
     * XORs into {@code dst} the products of one input symbol with the coefficient of output {@code output} only,
     * using a table built for all outputs (repairing with one parity symbol on demand). {@code dst} is a symbol of
     * {@code symbolLength >= length} bytes.
     */
    abstract void accumulateOne(long[] table, int tableOffset, int outputs, int output, byte[] src, int srcOffset,
                                int length, int symbolLength, byte[] dst, int dstOffset);

    /** Builds the 2^bitCount-entry slice of a table from the packed images of its single-bit inputs. */
    static void fillByLinearity(long[] singleBitImages, int bitCount, long[] table, int offset, int stride) {
        table[offset] = 0L;
        for (int v = 1; v < (1 << bitCount); v++) {
            int lowBit = Integer.numberOfTrailingZeros(v);
            table[offset + v * stride] = table[offset + (v & (v - 1)) * stride] ^ singleBitImages[lowBit];
        }
    }

    /** GF(2^8): eight 8-bit products per long, one 256-entry table per group. */
    static final class Gf256Kernel extends SymbolKernel {

        private final long[] singleBitImages = new long[8];

        Gf256Kernel() {
            super(8, 256);
        }

        @Override
        int accumulatorLength(int symbolLength, int outputs) {
            return symbolLength * groups(outputs);
        }

        @Override
        void buildTable(int[] coefficients, int first, int stride, int outputs, long[] table, int tableOffset) {
            int groups = groups(outputs);
            for (int g = 0; g < groups; g++) {
                int lanes = Math.min(lanesPerLong, outputs - g * lanesPerLong);
                for (int bit = 0; bit < 8; bit++) {
                    long image = 0;
                    for (int lane = 0; lane < lanes; lane++) {
                        int c = coefficients[first + (g * lanesPerLong + lane) * stride];
                        image |= (long) GaloisField.GF256.multiply(c, 1 << bit) << (lane << 3);
                    }
                    singleBitImages[bit] = image;
                }
                fillByLinearity(singleBitImages, 8, table, tableOffset + g, groups);
            }
        }

        @Override
        void accumulate(long[] table, int tableOffset, int groups, byte[] src, int srcOffset, int length,
                        long[] accumulator) {
            if (groups == 1) {
                for (int x = 0; x < length; x++) {
                    accumulator[x] ^= table[tableOffset + (src[srcOffset + x] & 0xFF)];
                }
            } else if (groups == 2) {
                for (int x = 0; x < length; x++) {
                    int t = tableOffset + ((src[srcOffset + x] & 0xFF) << 1);
                    int a = x << 1;
                    accumulator[a] ^= table[t];
                    accumulator[a + 1] ^= table[t + 1];
                }
            } else {
                for (int x = 0; x < length; x++) {
                    int t = tableOffset + (src[srcOffset + x] & 0xFF) * groups;
                    int a = x * groups;
                    for (int g = 0; g < groups; g++) {
                        accumulator[a + g] ^= table[t + g];
                    }
                }
            }
        }

        @Override
        void store(long[] accumulator, int outputs, int symbolLength, byte[][] out, int[] outOffset) {
            int groups = groups(outputs);
            for (int o = 0; o < outputs; o++) {
                byte[] dst = out[o];
                int d = outOffset[o];
                int shift = (o & 7) << 3;
                for (int x = 0, a = o >>> 3; x < symbolLength; x++, a += groups) {
                    dst[d + x] = (byte) (accumulator[a] >>> shift);
                }
            }
        }

        @Override
        void accumulateOne(long[] table, int tableOffset, int outputs, int output, byte[] src, int srcOffset,
                           int length, int symbolLength, byte[] dst, int dstOffset) {
            int groups = groups(outputs);
            int t = tableOffset + (output >>> 3);
            int shift = (output & 7) << 3;
            for (int x = 0; x < length; x++) {
                dst[dstOffset + x] ^= (byte) (table[t + (src[srcOffset + x] & 0xFF) * groups] >>> shift);
            }
        }
    }

    /**
     * GF(2^16): four 16-bit products per long. An element is two bytes in little-endian order, as NRL NORM reads
     * them on x86 (it casts the symbol to UINT16*); each input has a 256-entry table for the low byte and one for the
     * high byte. An odd-length symbol ends in a half element whose high byte is zero.
     */
    static final class Gf65536Kernel extends SymbolKernel {

        private final long[] singleBitImages = new long[8];

        Gf65536Kernel() {
            super(4, 512);
        }

        @Override
        int accumulatorLength(int symbolLength, int outputs) {
            return ((symbolLength + 1) >>> 1) * groups(outputs);
        }

        @Override
        void buildTable(int[] coefficients, int first, int stride, int outputs, long[] table, int tableOffset) {
            int groups = groups(outputs);
            for (int g = 0; g < groups; g++) {
                int lanes = Math.min(lanesPerLong, outputs - g * lanesPerLong);
                for (int half = 0; half < 2; half++) {
                    for (int bit = 0; bit < 8; bit++) {
                        long image = 0;
                        for (int lane = 0; lane < lanes; lane++) {
                            int c = coefficients[first + (g * lanesPerLong + lane) * stride];
                            image |= (long) GaloisField.GF65536.multiply(c, 1 << (bit + 8 * half)) << (lane << 4);
                        }
                        singleBitImages[bit] = image;
                    }
                    fillByLinearity(singleBitImages, 8, table, tableOffset + half * 256 * groups + g, groups);
                }
            }
        }

        @Override
        void accumulate(long[] table, int tableOffset, int groups, byte[] src, int srcOffset, int length,
                        long[] accumulator) {
            int high = tableOffset + 256 * groups;
            int words = length >>> 1;
            for (int x = 0; x < words; x++) {
                int lo = tableOffset + (src[srcOffset + 2 * x] & 0xFF) * groups;
                int hi = high + (src[srcOffset + 2 * x + 1] & 0xFF) * groups;
                int a = x * groups;
                for (int g = 0; g < groups; g++) {
                    accumulator[a + g] ^= table[lo + g] ^ table[hi + g];
                }
            }
            if ((length & 1) != 0) {
                int lo = tableOffset + (src[srcOffset + length - 1] & 0xFF) * groups;
                int a = words * groups;
                for (int g = 0; g < groups; g++) {
                    accumulator[a + g] ^= table[lo + g];
                }
            }
        }

        @Override
        void store(long[] accumulator, int outputs, int symbolLength, byte[][] out, int[] outOffset) {
            int groups = groups(outputs);
            int words = symbolLength >>> 1;
            for (int o = 0; o < outputs; o++) {
                byte[] dst = out[o];
                int d = outOffset[o];
                int shift = (o & 3) << 4;
                int a = o >>> 2;
                for (int x = 0; x < words; x++, a += groups) {
                    long v = accumulator[a] >>> shift;
                    dst[d + 2 * x] = (byte) v;
                    dst[d + 2 * x + 1] = (byte) (v >>> 8);
                }
                if ((symbolLength & 1) != 0) {
                    dst[d + symbolLength - 1] = (byte) (accumulator[a] >>> shift);
                }
            }
        }

        @Override
        void accumulateOne(long[] table, int tableOffset, int outputs, int output, byte[] src, int srcOffset,
                           int length, int symbolLength, byte[] dst, int dstOffset) {
            int groups = groups(outputs);
            int lo = tableOffset + (output >>> 2);
            int hi = lo + 256 * groups;
            int shift = (output & 3) << 4;
            for (int x = 0; x < length; x += 2) {
                long v = table[lo + (src[srcOffset + x] & 0xFF) * groups];
                if (x + 1 < length) {
                    v ^= table[hi + (src[srcOffset + x + 1] & 0xFF) * groups];
                }
                v >>>= shift;
                dst[dstOffset + x] ^= (byte) v;
                // a short input ending in a lone low byte still has a product whose high byte lies inside the symbol
                if (x + 1 < symbolLength) {
                    dst[dstOffset + x + 1] ^= (byte) (v >>> 8);
                }
            }
        }
    }
}
