package org.fjm2.norm.fec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.object.BlockPartition;
import org.junit.jupiter.api.Test;

/** The engine's FEC adapter: parity from the sender side decodes on the receiver side, for every block shape. */
class ReedSolomonBlockCoderTest {

    static final long SEED = Long.getLong("fjm2.test.seed", 42);

    @Test
    void everyBlockShapeDecodesFromAnyErasuresWithinTheParity() {
        SplittableRandom random = new SplittableRandom(SEED);
        ReedSolomonBlockCoder coder = new ReedSolomonBlockCoder();
        int[] objectSizes = {10, 1024, 1025, 5000, 16 * 1024, 16 * 1024 + 1, 40_000, 300_000};
        for (int size : objectSizes) {
            for (int[] bp : new int[][] {{16, 4}, {64, 8}, {1, 1}, {5, 3}}) {
                int b = bp[0];
                int parity = bp[1];
                byte[] content = new byte[size];
                random.nextBytes(content);
                BlockPartition partition = new BlockPartition();
                assertThat(partition.set(size, 1024, b, 0xFFFFFF)).isTrue();
                for (int block = 0; block < partition.blockCount(); block++) {
                    int k = partition.blockLength(block);
                    ByteBuf parityOut = Unpooled.buffer(parity * 1024).writerIndex(parity * 1024);
                    coder.encodeBlock(Unpooled.wrappedBuffer(content), partition, block, parity, parityOut, 0);
                    // lose up to `parity` source symbols at random, repair from the first parity symbols
                    int lose = Math.min(k, 1 + random.nextInt(parity));
                    boolean[] present = new boolean[k];
                    java.util.Arrays.fill(present, true);
                    for (int n = 0; n < lose; n++) {
                        present[random.nextInt(k)] = false;
                    }
                    int missing = 0;
                    for (boolean p : present) {
                        missing += p ? 0 : 1;
                    }
                    byte[] damaged = content.clone();
                    for (int i = 0; i < k; i++) {
                        if (!present[i]) {
                            int off = (int) partition.segmentOffset(block, i);
                            java.util.Arrays.fill(damaged, off, off + partition.segmentLength(block, i), (byte) 0x5A);
                        }
                    }
                    ByteBuf[] paritySymbols = new ByteBuf[missing];
                    int[] esis = new int[missing];
                    for (int j = 0; j < missing; j++) {
                        paritySymbols[j] = parityOut.copy(j * 1024, 1024);
                        esis[j] = k + j;
                    }
                    final int e = partition.segmentSize();
                    final long base = partition.blockOffset(block);
                    org.fjm2.norm.fec.BlockDecoder.SourceSymbols source =
                            new org.fjm2.norm.fec.BlockDecoder.SourceSymbols() {
                                @Override
                                public boolean has(int s) {
                                    return present[s];
                                }

                                @Override
                                public byte[] array(int s) {
                                    return damaged;
                                }

                                @Override
                                public int arrayOffset(int s) {
                                    return (int) base + s * e;
                                }
                            };
                    boolean ok = coder.decode(5, 8, partition, block, parity, source, paritySymbols, esis, missing);
                    assertThat(ok).as("decode size %d B %d parity %d block %d lost %d (seed %d)", size, b, parity,
                            block, missing, SEED).isTrue();
                    assertThat(damaged).as("rebuilt size %d block %d (seed %d)", size, block, SEED).isEqualTo(content);
                }
            }
        }
    }
}
