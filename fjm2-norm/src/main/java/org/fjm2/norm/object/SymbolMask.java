package org.fjm2.norm.object;

import java.util.Arrays;

/**
 * A fixed set of bits for the symbols of many blocks: block b owns {@code wordsPerBlock} longs starting at
 * {@code b * wordsPerBlock}. Reused across objects (it only grows), so steady state allocates nothing.
 */
public final class SymbolMask {

    private long[] words = new long[0];
    private int wordsPerBlock;
    private int blocks;

    /** Sizes the mask for {@code blocks} blocks of up to {@code symbolsPerBlock} symbols, all bits clear. */
    public void reset(int blocks, int symbolsPerBlock) {
        this.wordsPerBlock = Math.max(1, (symbolsPerBlock + 63) >>> 6);
        this.blocks = blocks;
        int needed = blocks * wordsPerBlock;
        if (words.length < needed) {
            words = new long[Math.max(needed, words.length * 2)];
        } else {
            Arrays.fill(words, 0, needed, 0L);
        }
    }

    public boolean get(int block, int symbol) {
        return (words[block * wordsPerBlock + (symbol >>> 6)] & (1L << symbol)) != 0;
    }

    /** Sets a bit; returns true when it was clear. */
    public boolean set(int block, int symbol) {
        int index = block * wordsPerBlock + (symbol >>> 6);
        long bit = 1L << symbol;
        long old = words[index];
        words[index] = old | bit;
        return (old & bit) == 0;
    }

    public void clear(int block, int symbol) {
        words[block * wordsPerBlock + (symbol >>> 6)] &= ~(1L << symbol);
    }

    /** Sets bits [from, to) of a block. */
    public void setRange(int block, int from, int to) {
        for (int s = from; s < to; s++) {
            set(block, s);
        }
    }

    public void clearBlock(int block) {
        Arrays.fill(words, block * wordsPerBlock, (block + 1) * wordsPerBlock, 0L);
    }

    /** Lowest set bit of a block at or above {@code from} and below {@code limit}, or -1. */
    public int nextSet(int block, int from, int limit) {
        if (from >= limit) {
            return -1;
        }
        int base = block * wordsPerBlock;
        int wordIndex = from >>> 6;
        long word = words[base + wordIndex] & (-1L << from);
        while (true) {
            if (word != 0) {
                int bit = (wordIndex << 6) + Long.numberOfTrailingZeros(word);
                return bit < limit ? bit : -1;
            }
            if (++wordIndex >= wordsPerBlock || (wordIndex << 6) >= limit) {
                return -1;
            }
            word = words[base + wordIndex];
        }
    }

    /** Lowest clear bit of a block at or above {@code from} and below {@code limit}, or -1. */
    public int nextClear(int block, int from, int limit) {
        for (int s = from; s < limit; s++) {
            if (!get(block, s)) {
                return s;
            }
        }
        return -1;
    }

    /** Number of set bits of a block below {@code limit}. */
    public int count(int block, int limit) {
        int base = block * wordsPerBlock;
        int count = 0;
        int full = limit >>> 6;
        for (int w = 0; w < full; w++) {
            count += Long.bitCount(words[base + w]);
        }
        int rest = limit & 63;
        if (rest != 0) {
            count += Long.bitCount(words[base + full] & ((1L << rest) - 1));
        }
        return count;
    }

    public boolean isBlockEmpty(int block) {
        int base = block * wordsPerBlock;
        for (int w = 0; w < wordsPerBlock; w++) {
            if (words[base + w] != 0) {
                return false;
            }
        }
        return true;
    }

    public int blocks() {
        return blocks;
    }
}
