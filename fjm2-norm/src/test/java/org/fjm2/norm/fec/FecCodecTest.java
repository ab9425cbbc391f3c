package org.fjm2.norm.fec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class FecCodecTest {

    private static final long SEED = 20240517L;

    /** One block: k source symbols (the last possibly short) and all its parity, as a sender would have it. */
    private static final class Block {
        final int b;
        final int k;
        final int parity;
        final int symbolLength;
        final byte[][] source;
        final int[] sourceLength;
        final byte[][] paritySymbols;

        Block(FecCodec codec, Random random, int b, int k, int parity, int symbolLength, int lastLength) {
            this.b = b;
            this.k = k;
            this.parity = parity;
            this.symbolLength = symbolLength;
            source = new byte[k][];
            sourceLength = new int[k];
            for (int i = 0; i < k; i++) {
                sourceLength[i] = i == k - 1 ? lastLength : symbolLength;
                source[i] = new byte[symbolLength];
                for (int x = 0; x < sourceLength[i]; x++) {
                    source[i][x] = (byte) random.nextInt(256);
                }
            }
            paritySymbols = new byte[parity][symbolLength];
            codec.encodeParity(b, k, parity, source, new int[k], sourceLength, symbolLength, paritySymbols,
                    new int[parity]);
        }

        /** A copy of encoding symbol esi in a buffer of room bytes at offset 3, as a receiver may hold it. */
        byte[] copyOf(int esi, int room) {
            byte[] buffer = new byte[3 + room];
            byte[] symbol = esi < k ? source[esi] : paritySymbols[esi - k];
            int length = esi < k ? sourceLength[esi] : symbolLength;
            System.arraycopy(symbol, 0, buffer, 3, length);
            return buffer;
        }

        int lengthOf(int esi) {
            return esi < k ? sourceLength[esi] : symbolLength;
        }
    }

    /** Parity by the definition: each parity element is the sum of row coefficient times source element. */
    private static byte[][] naiveParity(GaloisField field, Block block) {
        int[] rows = SystematicVandermonde.parityRows(field, block.b, block.parity);
        int elementBytes = field.bits() / 8;
        byte[][] out = new byte[block.parity][block.symbolLength];
        for (int j = 0; j < block.parity; j++) {
            for (int x = 0; x < block.symbolLength; x += elementBytes) {
                int sum = 0;
                for (int i = 0; i < block.k; i++) {
                    sum ^= field.multiply(rows[j * block.b + i], element(block.source[i], x, elementBytes));
                }
                out[j][x] = (byte) sum;
                if (elementBytes == 2 && x + 1 < block.symbolLength) {
                    out[j][x + 1] = (byte) (sum >>> 8);
                }
            }
        }
        return out;
    }

    private static int element(byte[] symbol, int x, int elementBytes) {
        int v = symbol[x] & 0xFF;
        if (elementBytes == 2 && x + 1 < symbol.length) {
            v |= (symbol[x + 1] & 0xFF) << 8; // little-endian, as NRL on x86
        }
        return v;
    }

    @Test
    void parityMatchesTheDefinitionForManyCodes() {
        Random random = new Random(SEED);
        // m, B, k, parity, symbol length, last symbol length
        int[][] cases = {
            {8, 1, 1, 1, 10, 10}, {8, 4, 4, 3, 17, 5}, {8, 16, 16, 4, 1400, 1400}, {8, 16, 9, 4, 1400, 1},
            {8, 64, 64, 16, 333, 100}, {8, 20, 20, 9, 64, 64}, {8, 128, 128, 100, 40, 7}, // 100 parity: no table cache
            {8, 200, 37, 55, 50, 49}, {8, 254, 254, 1, 8, 3},
            {16, 3, 3, 2, 11, 11}, {16, 300, 300, 10, 30, 29}, {16, 300, 17, 5, 31, 2}, {16, 8, 8, 9, 12, 0},
        };
        for (int[] c : cases) {
            FecCodec codec = FecCodec.forFecId(c[0] == 16 ? FecCodec.FEC_ID_RS : FecCodec.FEC_ID_RS8, c[0]);
            Block block = new Block(codec, random, c[1], c[2], c[3], c[4], c[5]);
            GaloisField field = c[0] == 16 ? GaloisField.GF65536 : GaloisField.GF256;
            assertThat(block.paritySymbols).as("seed %d case %s", SEED, Arrays.toString(c))
                    .isDeepEqualTo(naiveParity(field, block));
        }
    }

    @Test
    void singleParityOnDemandEqualsTheBlockPass() {
        Random random = new Random(SEED);
        int[][] cases = {{8, 16, 11, 4, 100, 33}, {8, 128, 128, 100, 21, 20}, {16, 300, 299, 6, 45, 13},
            {16, 40, 40, 30, 20, 20}};
        for (int[] c : cases) {
            FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS, c[0]);
            Block block = new Block(codec, random, c[1], c[2], c[3], c[4], c[5]);
            for (int j = 0; j < block.parity; j++) {
                byte[] one = new byte[block.symbolLength + 2];
                Arrays.fill(one, (byte) 0x55); // stale content must not leak in
                codec.encodeOneParity(block.b, block.k, block.parity, block.source, new int[block.k],
                        block.sourceLength, block.symbolLength, j, one, 1);
                assertThat(Arrays.copyOfRange(one, 1, 1 + block.symbolLength))
                        .as("seed %d case %s parity %d", SEED, Arrays.toString(c), j)
                        .isEqualTo(block.paritySymbols[j]);
                assertThat(one[0]).isEqualTo((byte) 0x55);
                assertThat(one[block.symbolLength + 1]).isEqualTo((byte) 0x55);
            }
        }
    }

    @Test
    void everyErasurePatternOfSmallCodesDecodes() {
        Random random = new Random(SEED);
        // m, B, k, parity, symbol length, last length
        int[][] cases = {{8, 4, 4, 3, 9, 9}, {8, 4, 3, 3, 9, 4}, {8, 6, 6, 2, 5, 1}, {16, 3, 3, 2, 8, 3},
            {16, 5, 2, 3, 8, 5}};
        for (int[] c : cases) {
            FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS, c[0]);
            Block block = new Block(codec, random, c[1], c[2], c[3], c[4], c[5]);
            int n = block.k + block.parity;
            for (int mask = 0; mask < (1 << n); mask++) {
                if (Integer.bitCount(mask) != block.k) {
                    continue;
                }
                List<Integer> chosen = new ArrayList<>();
                for (int esi = 0; esi < n; esi++) {
                    if ((mask & (1 << esi)) != 0) {
                        chosen.add(esi);
                    }
                }
                Collections.shuffle(chosen, random);
                decodeAndCheck(codec, block, chosen, "seed " + SEED + " case " + Arrays.toString(c) + " mask " + mask);
            }
        }
    }

    @Test
    void randomErasurePatternsOfLargeCodesDecode() {
        Random random = new Random(SEED);
        // m, B, k, parity, symbol length, last length
        int[][] cases = {{8, 64, 64, 16, 1400, 1400}, {8, 64, 50, 16, 1400, 3}, {8, 200, 200, 55, 64, 64},
            {8, 16, 16, 4, 1024, 1000}, {16, 400, 400, 30, 32, 32}, {16, 400, 123, 30, 34, 1}};
        for (int[] c : cases) {
            FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS, c[0]);
            Block block = new Block(codec, random, c[1], c[2], c[3], c[4], c[5]);
            int n = block.k + block.parity;
            for (int round = 0; round < 12; round++) {
                List<Integer> all = new ArrayList<>();
                for (int esi = 0; esi < n; esi++) {
                    all.add(esi);
                }
                Collections.shuffle(all, random);
                if (round == 0) { // worst case: every parity symbol used
                    all.sort((x, y) -> Integer.compare(y, x));
                }
                decodeAndCheck(codec, block, all.subList(0, block.k),
                        "seed " + SEED + " case " + Arrays.toString(c) + " round " + round);
            }
        }
    }

    private static void decodeAndCheck(FecCodec codec, Block block, List<Integer> esiList, String why) {
        int k = block.k;
        byte[][] symbols = new byte[k][];
        int[] offsets = new int[k];
        int[] lengths = new int[k];
        int[] esis = new int[k];
        for (int s = 0; s < k; s++) {
            int esi = esiList.get(s);
            esis[s] = esi;
            // received source symbols come exactly sized; parity slots get room for a rebuilt symbol
            symbols[s] = block.copyOf(esi, esi < k ? block.lengthOf(esi) : block.symbolLength);
            offsets[s] = 3;
            lengths[s] = block.lengthOf(esi);
        }
        assertThat(codec.decode(block.b, k, block.parity, symbols, offsets, lengths, esis, block.symbolLength))
                .as(why).isTrue();
        for (int i = 0; i < k; i++) {
            assertThat(esis[i]).as(why).isEqualTo(i);
            byte[] expected = Arrays.copyOf(block.source[i], lengths[i]);
            assertThat(Arrays.copyOfRange(symbols[i], offsets[i], offsets[i] + lengths[i]))
                    .as("%s source %d", why, i).isEqualTo(expected);
            if (lengths[i] == block.symbolLength) { // rebuilt short symbol: the padding must come back as zeros
                assertThat(Arrays.copyOfRange(symbols[i], offsets[i], offsets[i] + block.symbolLength))
                        .as("%s source %d padded", why, i).isEqualTo(block.source[i]);
            }
        }
    }

    @Test
    void oddSymbolLengthOverGf65536DecodesOnlyWithoutErasures() {
        FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS, 16);
        Block block = new Block(codec, new Random(SEED), 3, 3, 2, 7, 7);
        byte[][] withParity = {block.copyOf(0, 7), block.copyOf(3, 7), block.copyOf(2, 7)};
        assertThat(codec.decode(3, 3, 2, withParity, new int[] {3, 3, 3}, new int[] {0, 3, 2}, 7)).isFalse();
        byte[][] complete = {block.copyOf(2, 7), block.copyOf(0, 7), block.copyOf(1, 7)};
        assertThat(codec.decode(3, 3, 2, complete, new int[] {3, 3, 3}, new int[] {2, 0, 1}, 7)).isTrue();
        // with the whole parity (an even length) the same loss is repaired
        Block even = new Block(codec, new Random(SEED), 3, 3, 2, 8, 7);
        byte[][] repaired = {even.copyOf(0, 8), even.copyOf(3, 8), even.copyOf(2, 8)};
        assertThat(codec.decode(3, 3, 2, repaired, new int[] {3, 3, 3}, new int[] {0, 3, 2}, 8)).isTrue();
        assertThat(Arrays.copyOfRange(repaired[1], 3, 11)).isEqualTo(even.source[1]);
    }

    @Test
    void parityPlacedInMissingSlotsIsReplacedInPlace() {
        FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS8, 8);
        Block block = new Block(codec, new Random(SEED), 8, 8, 4, 100, 100);
        byte[][] symbols = new byte[8][];
        int[] esis = new int[8];
        int nextParity = 8;
        for (int s = 0; s < 8; s++) {
            boolean lost = s == 1 || s == 4 || s == 7;
            esis[s] = lost ? nextParity++ : s;
            symbols[s] = block.copyOf(esis[s], 100);
        }
        byte[][] before = symbols.clone();
        assertThat(codec.decode(8, 8, 4, symbols, new int[] {3, 3, 3, 3, 3, 3, 3, 3}, esis, 100)).isTrue();
        for (int s = 0; s < 8; s++) {
            assertThat(symbols[s]).isSameAs(before[s]);
            assertThat(Arrays.copyOfRange(symbols[s], 3, 103)).isEqualTo(block.source[s]);
        }
    }

    @Test
    void decodeWithoutErasuresOnlyReordersReferences() {
        FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS8, 8);
        Block block = new Block(codec, new Random(SEED), 4, 4, 2, 10, 10);
        byte[][] symbols = {block.copyOf(2, 10), block.copyOf(0, 10), block.copyOf(3, 10), block.copyOf(1, 10)};
        int[] esis = {2, 0, 3, 1};
        byte[][] before = symbols.clone();
        assertThat(codec.decode(4, 4, 2, symbols, new int[] {3, 3, 3, 3}, esis, 10)).isTrue();
        byte[][] expected = {before[1], before[3], before[0], before[2]};
        for (int i = 0; i < 4; i++) {
            assertThat(symbols[i]).isSameAs(expected[i]);
        }
        assertThat(esis).containsExactly(0, 1, 2, 3);
    }

    @Test
    void invalidDecodeInputIsRefusedWithoutWriting() {
        FecCodec codec = FecCodec.forFecId(FecCodec.FEC_ID_RS8, 8);
        Block block = new Block(codec, new Random(SEED), 4, 4, 2, 10, 10);
        int[][] esiSets = {
            {0, 1, 4, 5}, // valid, used as the base
            {0, 1, 4, 4}, // repeated
            {0, 1, 4, 6}, // beyond k + parity
            {0, 1, -1, 5}, // negative
        };
        for (int t = 0; t < esiSets.length; t++) {
            byte[][] symbols = new byte[4][];
            for (int s = 0; s < 4; s++) {
                int esi = esiSets[t][s];
                symbols[s] = esi >= 0 && esi < 6 ? block.copyOf(esi, 10) : new byte[13];
            }
            byte[][] snapshot = deepCopy(symbols);
            boolean ok = codec.decode(4, 4, 2, symbols, new int[] {3, 3, 3, 3}, esiSets[t].clone(), 10);
            assertThat(ok).as("esi set %d", t).isEqualTo(t == 0);
            if (!ok) {
                assertThat(symbols).isDeepEqualTo(snapshot);
            }
        }
        byte[][] symbols = {block.copyOf(0, 10), block.copyOf(1, 10), block.copyOf(4, 10), block.copyOf(5, 10)};
        int[] offsets = {3, 3, 3, 3};
        int[] esis = {0, 1, 4, 5};
        byte[][] snapshot = deepCopy(symbols);
        assertThat(codec.decode(4, 0, 2, symbols, offsets, esis.clone(), 10)).as("k = 0").isFalse();
        assertThat(codec.decode(4, 5, 2, symbols, offsets, esis.clone(), 10)).as("k > B").isFalse();
        assertThat(codec.decode(250, 4, 6, symbols, offsets, esis.clone(), 10)).as("B + parity > 255").isFalse();
        assertThat(codec.decode(4, 4, -1, symbols, offsets, esis.clone(), 10)).as("negative parity").isFalse();
        assertThat(codec.decode(4, 4, 2, symbols, offsets, esis.clone(), -1)).as("negative length").isFalse();
        assertThat(codec.decode(4, 4, 2, symbols, offsets, esis.clone(), 11)).as("buffer too small").isFalse();
        assertThat(codec.decode(4, 4, 2, symbols, new int[] {3, 3, 4, 3}, esis.clone(), 10)).as("offset").isFalse();
        assertThat(codec.decode(4, 4, 2, symbols, new int[] {3, 3, -3, 3}, esis.clone(), 10)).as("offset<0").isFalse();
        assertThat(codec.decode(4, 4, 2, symbols, offsets, new int[] {11, 10, 10, 10}, esis.clone(), 10))
                .as("length > symbol length").isFalse();
        assertThat(codec.decode(4, 4, 2, symbols, offsets, new int[3], esis.clone(), 10)).as("short lengths")
                .isFalse();
        assertThat(codec.decode(4, 4, 2, Arrays.copyOf(symbols, 3), offsets, esis.clone(), 10)).as("3 slots")
                .isFalse();
        assertThat(codec.decode(4, 4, 2, symbols, offsets, new int[] {0, 1, 4}, 10)).as("3 esis").isFalse();
        assertThat(codec.decode(4, 4, 2, null, offsets, esis.clone(), 10)).as("null symbols").isFalse();
        assertThat(codec.decode(4, 4, 2, new byte[][] {symbols[0], null, symbols[2], symbols[3]}, offsets,
                esis.clone(), 10)).as("null buffer").isFalse();
        assertThat(symbols).isDeepEqualTo(snapshot);
    }

    private static byte[][] deepCopy(byte[][] a) {
        byte[][] copy = new byte[a.length][];
        for (int i = 0; i < a.length; i++) {
            copy[i] = a[i].clone();
        }
        return copy;
    }

    @Test
    void factoryAndLimits() {
        assertThat(FecCodec.isSupported(5, 8)).isTrue();
        assertThat(FecCodec.isSupported(129, 8)).isTrue();
        assertThat(FecCodec.isSupported(2, 8)).isTrue();
        assertThat(FecCodec.isSupported(2, 16)).isTrue();
        assertThat(FecCodec.isSupported(5, 16)).isFalse();
        assertThat(FecCodec.isSupported(0, 8)).isFalse();
        assertThat(FecCodec.isSupported(3, 8)).isFalse();
        assertThatThrownBy(() -> FecCodec.forFecId(5, 16)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("fec_id 5");
        FecCodec rs8 = FecCodec.forFecId(129, 8);
        assertThat(rs8.fecId()).isEqualTo(129);
        assertThat(rs8.fieldBits()).isEqualTo(8);
        assertThat(rs8.maxParity(16)).isEqualTo(239);
        assertThat(rs8.maxParity(255)).isZero();
        assertThat(rs8.maxParity(0)).isZero();
        assertThat(rs8.isValidCode(64, 191)).isTrue();
        assertThat(rs8.isValidCode(64, 192)).isFalse();
        FecCodec rs16 = FecCodec.forFecId(2, 16);
        assertThat(rs16.maxEncodingSymbols()).isEqualTo(65535);
        assertThat(rs16.maxParity(1000)).isEqualTo(64535);
    }

    @Test
    void badEncodeArgumentsThrow() {
        FecCodec codec = FecCodec.forFecId(5, 8);
        byte[][] src = new byte[4][10];
        byte[][] par = new byte[2][10];
        int[] zeros = new int[4];
        assertThatThrownBy(() -> codec.encodeParity(250, 4, 6, src, zeros, null, 10, par, zeros))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("B + parity <= 255");
        assertThatThrownBy(() -> codec.encodeParity(4, 5, 2, src, zeros, null, 10, par, zeros))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> codec.encodeParity(4, 4, 2, src, zeros, new int[] {10, 10, 11, 10}, 10, par, zeros))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> codec.encodeParity(4, 4, 2, src, zeros, null, 11, par, zeros))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> codec.encodeOneParity(4, 4, 2, src, zeros, null, 10, 2, new byte[10], 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void steadyStateAllocatesNothing() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        FecCodec codec = FecCodec.forFecId(5, 8);
        Block block = new Block(codec, new Random(SEED), 16, 16, 4, 1400, 1400);
        byte[][] symbols = new byte[16][];
        int[] offsets = new int[16];
        int[] esis = new int[16];
        Runnable work = () -> {
            codec.encodeParity(16, 16, 4, block.source, offsets, null, 1400, block.paritySymbols, offsets);
            for (int s = 0; s < 16; s++) {
                esis[s] = s < 4 ? 16 + s : s;
                symbols[s] = s < 4 ? block.paritySymbols[s] : block.source[s];
            }
            codec.decode(16, 16, 4, symbols, offsets, esis, 1400);
        };
        work.run();
        long threadId = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(threadId);
        for (int i = 0; i < 200; i++) {
            work.run();
        }
        long allocated = threads.getThreadAllocatedBytes(threadId) - before;
        // 200 rounds; a single allocation per round would exceed this
        assertThat(allocated).as("bytes allocated by 200 encode+decode rounds").isLessThan(1024);
    }
}
