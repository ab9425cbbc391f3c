package org.fjm2.norm.fec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

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

    /** Eight bytes of a byte[] as one little-endian long (byte i of the long is bits 8i..8i+7). */
    static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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

    /**
     * Builds the 2^bitCount-entry slice of a table from the packed images of its single-bit inputs by doubling: the
     * entries for inputs with bit b set are those without it XOR image b. Each entry reads one written a whole
     * half-table earlier, so the loop pipelines (a chain through the entry just written would not).
     */
    static void fillByLinearity(long[] singleBitImages, int bitCount, long[] table, int offset, int stride) {
        table[offset] = 0L;
        for (int bit = 0; bit < bitCount; bit++) {
            int half = 1 << bit;
            long image = singleBitImages[bit];
            for (int v = 0, from = offset, to = offset + half * stride; v < half; v++, from += stride, to += stride) {
                table[to] = table[from] ^ image;
            }
        }
    }

    /** Multiplies each of the eight GF(2^8) lanes of {@code v} by x (0x11D reduction). */
    static long timesX8(long v) {
        return ((v & 0x7F7F7F7F7F7F7F7FL) << 1) ^ (((v >>> 7) & 0x0101010101010101L) * 0x1D);
    }

    /** Multiplies each of the four GF(2^16) lanes of {@code v} by x (0x1100B reduction). */
    static long timesX16(long v) {
        return ((v & 0x7FFF7FFF7FFF7FFFL) << 1) ^ (((v >>> 15) & 0x0001000100010001L) * 0x100B);
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
                long image = 0; // the coefficients themselves: the image of input 1
                for (int lane = 0; lane < lanes; lane++) {
                    image |= (long) coefficients[first + (g * lanesPerLong + lane) * stride] << (lane << 3);
                }
                for (int bit = 0; bit < 8; bit++) {
                    singleBitImages[bit] = image;
                    image = timesX8(image);
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
            int fullGroups = outputs >>> 3;
            int blocked = symbolLength & ~7;
            for (int g = 0; g < fullGroups; g++) {
                storeTransposed(accumulator, groups, g, blocked, out, outOffset);
            }
            for (int o = 0; o < outputs; o++) {
                // what the 8x8 blocks did not cover: a partial last group, and every output's last bytes
                int from = o < fullGroups * 8 ? blocked : 0;
                byte[] dst = out[o];
                int d = outOffset[o];
                int shift = (o & 7) << 3;
                for (int x = from, a = from * groups + (o >>> 3); x < symbolLength; x++, a += groups) {
                    dst[d + x] = (byte) (accumulator[a] >>> shift);
                }
            }
        }

        /**
         * Stores the eight outputs of group g for bytes [0, length), length a multiple of 8: eight accumulator longs
         * (8 positions x 8 outputs) are an 8x8 byte matrix; its transpose is 8 bytes of each output, one long store
         * apiece instead of 64 byte stores.
         */
        private static void storeTransposed(long[] acc, int groups, int g, int length, byte[][] out, int[] outOffset) {
            int base = 8 * g;
            byte[] d0 = out[base];
            byte[] d1 = out[base + 1];
            byte[] d2 = out[base + 2];
            byte[] d3 = out[base + 3];
            byte[] d4 = out[base + 4];
            byte[] d5 = out[base + 5];
            byte[] d6 = out[base + 6];
            byte[] d7 = out[base + 7];
            int o0 = outOffset[base];
            int o1 = outOffset[base + 1];
            int o2 = outOffset[base + 2];
            int o3 = outOffset[base + 3];
            int o4 = outOffset[base + 4];
            int o5 = outOffset[base + 5];
            int o6 = outOffset[base + 6];
            int o7 = outOffset[base + 7];
            for (int x = 0; x < length; x += 8) {
                int a = x * groups + g;
                long r0 = acc[a];
                long r1 = acc[a + groups];
                long r2 = acc[a + 2 * groups];
                long r3 = acc[a + 3 * groups];
                long r4 = acc[a + 4 * groups];
                long r5 = acc[a + 5 * groups];
                long r6 = acc[a + 6 * groups];
                long r7 = acc[a + 7 * groups];
                long t;
                // swap the off-diagonal 4x4 blocks, then 2x2 blocks within them, then single bytes
                t = ((r0 >>> 32) ^ r4) & 0x00000000FFFFFFFFL; r0 ^= t << 32; r4 ^= t;
                t = ((r1 >>> 32) ^ r5) & 0x00000000FFFFFFFFL; r1 ^= t << 32; r5 ^= t;
                t = ((r2 >>> 32) ^ r6) & 0x00000000FFFFFFFFL; r2 ^= t << 32; r6 ^= t;
                t = ((r3 >>> 32) ^ r7) & 0x00000000FFFFFFFFL; r3 ^= t << 32; r7 ^= t;
                t = ((r0 >>> 16) ^ r2) & 0x0000FFFF0000FFFFL; r0 ^= t << 16; r2 ^= t;
                t = ((r1 >>> 16) ^ r3) & 0x0000FFFF0000FFFFL; r1 ^= t << 16; r3 ^= t;
                t = ((r4 >>> 16) ^ r6) & 0x0000FFFF0000FFFFL; r4 ^= t << 16; r6 ^= t;
                t = ((r5 >>> 16) ^ r7) & 0x0000FFFF0000FFFFL; r5 ^= t << 16; r7 ^= t;
                t = ((r0 >>> 8) ^ r1) & 0x00FF00FF00FF00FFL; r0 ^= t << 8; r1 ^= t;
                t = ((r2 >>> 8) ^ r3) & 0x00FF00FF00FF00FFL; r2 ^= t << 8; r3 ^= t;
                t = ((r4 >>> 8) ^ r5) & 0x00FF00FF00FF00FFL; r4 ^= t << 8; r5 ^= t;
                t = ((r6 >>> 8) ^ r7) & 0x00FF00FF00FF00FFL; r6 ^= t << 8; r7 ^= t;
                LITTLE_ENDIAN_LONG.set(d0, o0 + x, r0);
                LITTLE_ENDIAN_LONG.set(d1, o1 + x, r1);
                LITTLE_ENDIAN_LONG.set(d2, o2 + x, r2);
                LITTLE_ENDIAN_LONG.set(d3, o3 + x, r3);
                LITTLE_ENDIAN_LONG.set(d4, o4 + x, r4);
                LITTLE_ENDIAN_LONG.set(d5, o5 + x, r5);
                LITTLE_ENDIAN_LONG.set(d6, o6 + x, r6);
                LITTLE_ENDIAN_LONG.set(d7, o7 + x, r7);
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
                long image = 0; // the coefficients themselves: the image of input 1
                for (int lane = 0; lane < lanes; lane++) {
                    image |= (long) coefficients[first + (g * lanesPerLong + lane) * stride] << (lane << 4);
                }
                for (int half = 0; half < 2; half++) { // low byte: x^0..x^7, high byte: x^8..x^15
                    for (int bit = 0; bit < 8; bit++) {
                        singleBitImages[bit] = image;
                        image = timesX16(image);
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
            if (groups == 1) { // up to four outputs: the common case, kept free of the inner loop
                for (int x = 0; x < words; x++) {
                    accumulator[x] ^= table[tableOffset + (src[srcOffset + 2 * x] & 0xFF)]
                            ^ table[high + (src[srcOffset + 2 * x + 1] & 0xFF)];
                }
            } else {
                for (int x = 0; x < words; x++) {
                    int lo = tableOffset + (src[srcOffset + 2 * x] & 0xFF) * groups;
                    int hi = high + (src[srcOffset + 2 * x + 1] & 0xFF) * groups;
                    int a = x * groups;
                    for (int g = 0; g < groups; g++) {
                        accumulator[a + g] ^= table[lo + g] ^ table[hi + g];
                    }
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
