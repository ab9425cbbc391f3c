package org.fjm2.norm.sender;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.object.BlockPartition;
import org.fjm2.norm.object.SymbolMask;

/**
 * One object in the sender: its data (kept for repairs until it leaves the cache), its block structure, what is
 * pending transmission now ({@link #pending}: first pass and activated repairs) and what repairs accumulate during
 * the NACK aggregation period ({@link #repair}). Recycled through a free list; owned by the event loop.
 */
final class TxObject {

    long ticket;
    int priority;
    int objectId = -1;
    ByteBuf data;
    ByteBuf info;
    int size;
    final BlockPartition partition = new BlockPartition();
    final SymbolMask pending = new SymbolMask();
    final SymbolMask repair = new SymbolMask();
    /** Per block: next parity index never sent yet (parity repair uses fresh parity first). */
    int[] nextFreshParity = new int[0];
    /** Per block: fresh parity symbols requested during aggregation (the largest erasure count heard). */
    int[] parityRepair = new int[0];
    /** Blocks with pending symbols (bit per block), and their count. */
    long[] pendingBlocks = new long[0];
    int pendingBlockCount;
    boolean infoPending;
    boolean infoRepair;
    boolean hasRepairs;
    boolean firstPassDone;
    long lastActivityNanos;
    long firstPassEndNanos;
    /** When its repairs were last made pending, as {@link RepairScheduler}'s stamp (0: never). */
    long repairStamp;
    /** Parity symbols of blocks already encoded, kept while the object is cached ({@code P * E} bytes per block). */
    ByteBuf parityCache;
    long[] parityEncoded = new long[0];

    int blockCount() {
        return (int) partition.blockCount();
    }

    void prepare(int segmentSize, int blockSize, int parity, int autoParity) {
        partition.set(size, segmentSize, blockSize, 0xFFFFFFL);
        repairStamp = 0;
        int blocks = blockCount();
        pending.reset(blocks, blockSize + parity);
        repair.reset(blocks, blockSize + parity);
        if (nextFreshParity.length < blocks) {
            nextFreshParity = new int[blocks];
            parityRepair = new int[blocks];
        } else {
            java.util.Arrays.fill(nextFreshParity, 0, blocks, 0);
            java.util.Arrays.fill(parityRepair, 0, blocks, 0);
        }
        int words = (blocks + 63) >>> 6;
        if (pendingBlocks.length < words) {
            pendingBlocks = new long[words];
            parityEncoded = new long[words];
        } else {
            java.util.Arrays.fill(pendingBlocks, 0, words, 0L);
            java.util.Arrays.fill(parityEncoded, 0, words, 0L);
        }
        pendingBlockCount = 0;
        for (int b = 0; b < blocks; b++) {
            int k = partition.blockLength(b);
            pending.setRange(b, 0, k);
            if (autoParity > 0) {
                pending.setRange(b, k, k + autoParity);
                nextFreshParity[b] = autoParity;
            }
            markBlockPending(b);
        }
        infoPending = info != null;
        infoRepair = false;
        hasRepairs = false;
        firstPassDone = false;
    }

    void markBlockPending(int block) {
        long bit = 1L << block;
        int w = block >>> 6;
        if ((pendingBlocks[w] & bit) == 0) {
            pendingBlocks[w] |= bit;
            pendingBlockCount++;
        }
    }

    void clearBlockPending(int block) {
        long bit = 1L << block;
        int w = block >>> 6;
        if ((pendingBlocks[w] & bit) != 0) {
            pendingBlocks[w] &= ~bit;
            pendingBlockCount--;
        }
    }

    boolean isBlockPending(int block) {
        return (pendingBlocks[block >>> 6] & (1L << block)) != 0;
    }

    int firstPendingBlock() {
        for (int w = 0; w < pendingBlocks.length; w++) {
            if (pendingBlocks[w] != 0) {
                return (w << 6) + Long.numberOfTrailingZeros(pendingBlocks[w]);
            }
        }
        return -1;
    }

    boolean hasPending() {
        return infoPending || pendingBlockCount > 0;
    }

    boolean isParityEncoded(int block) {
        return (parityEncoded[block >>> 6] & (1L << block)) != 0;
    }

    void markParityEncoded(int block) {
        parityEncoded[block >>> 6] |= 1L << block;
    }

    /** Releases the buffers; the object goes back to the free list. */
    void recycle() {
        if (data != null) {
            data.release();
            data = null;
        }
        if (info != null) {
            info.release();
            info = null;
        }
        if (parityCache != null) {
            parityCache.release();
            parityCache = null;
        }
        objectId = -1;
        ticket = -1;
    }
}
