package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.object.BlockPartition;
import org.fjm2.norm.object.SymbolMask;

/**
 * One object being reassembled from a remote sender: its FTI-derived block structure, the symbols received, the
 * data container (a pooled buffer of exactly the object's size, allocated at the first segment) and parity symbols
 * kept until their block decodes. Also what other receivers asked for during the current NACK back-off
 * ({@link #requestedByOthers}), which suppresses our own NACK. Recycled; owned by the session's event loop.
 */
final class RxObject {

    int objectId;
    boolean described;      // FTI known
    int fecId;
    int fieldSize;
    long size;
    int segmentSize;
    int maxBlockLength;
    int symbolLimit;        // ESIs must stay below this
    final BlockPartition partition = new BlockPartition();
    final SymbolMask received = new SymbolMask();
    final SymbolMask requestedByOthers = new SymbolMask();
    long[] completeBlocks = new long[0];
    long[] blockRequestedByOthers = new long[0];
    int completeBlockCount;
    ByteBuf data;
    ByteBuf info;
    boolean infoExpected;
    boolean infoRequestedByOthers;
    boolean heardByOthers;
    boolean complete;
    /** Why the object was given up (when complete without data). */
    org.fjm2.norm.session.LossReason lossReason;
    /** Parity symbols per block the sender can send (FTI last field, read either way). */
    int parityPerBlock;
    /** Per block: received parity symbols (parallel arrays), until the block completes. */
    ByteBuf[][] parity = new ByteBuf[0][];
    int[][] parityEsi = new int[0][];
    int[] parityCount = new int[0];

    void reset(int objectId) {
        this.objectId = objectId;
        described = false;
        complete = false;
        infoExpected = false;
        infoRequestedByOthers = false;
        heardByOthers = false;
        completeBlockCount = 0;
    }

    /** Sets the structure from an FTI; false when the block bookkeeping would be unreasonable. */
    boolean describe(Fti fti, long maxBlockNumber) {
        if (!partition.set(fti.transferLength(), fti.symbolLength(), fti.maxBlockLength(), maxBlockNumber)) {
            return false;
        }
        long blocks = partition.blockCount();
        int limit = fti.symbolIdLimit();
        // Bookkeeping must stay small next to the data: at most one bitmask word per 64 bytes of object.
        long words = blocks * ((limit + 63) / 64);
        if (blocks > Integer.MAX_VALUE / 2 || words * 64 > Math.max(fti.transferLength(), 64L) * 8) {
            return false;
        }
        fecId = fti.fecId();
        fieldSize = fti.fieldSize();
        size = fti.transferLength();
        segmentSize = fti.symbolLength();
        maxBlockLength = fti.maxBlockLength();
        symbolLimit = limit;
        parityPerBlock = fti.lastField() > fti.maxBlockLength() ? fti.lastField() - fti.maxBlockLength() : fti.lastField();
        int b = (int) blocks;
        received.reset(b, limit);
        requestedByOthers.reset(b, limit);
        int w = (b + 63) >>> 6;
        if (completeBlocks.length < w) {
            completeBlocks = new long[w];
            blockRequestedByOthers = new long[w];
        } else {
            java.util.Arrays.fill(completeBlocks, 0, w, 0L);
            java.util.Arrays.fill(blockRequestedByOthers, 0, w, 0L);
        }
        if (parityCount.length < b) {
            parity = new ByteBuf[b][];
            parityEsi = new int[b][];
            parityCount = new int[b];
        } else {
            java.util.Arrays.fill(parityCount, 0, b, 0);
        }
        completeBlockCount = 0;
        described = true;
        return true;
    }

    int blockCount() {
        return (int) partition.blockCount();
    }

    boolean isBlockComplete(int block) {
        return (completeBlocks[block >>> 6] & (1L << block)) != 0;
    }

    void markBlockComplete(int block) {
        long bit = 1L << block;
        if ((completeBlocks[block >>> 6] & bit) == 0) {
            completeBlocks[block >>> 6] |= bit;
            completeBlockCount++;
        }
        releaseParity(block);
    }

    boolean isBlockRequestedByOthers(int block) {
        return (blockRequestedByOthers[block >>> 6] & (1L << block)) != 0;
    }

    void markBlockRequestedByOthers(int block) {
        blockRequestedByOthers[block >>> 6] |= 1L << block;
    }

    void clearRequestedByOthers() {
        if (described) {
            int b = blockCount();
            for (int i = 0; i < b; i++) {
                requestedByOthers.clearBlock(i);
            }
            java.util.Arrays.fill(blockRequestedByOthers, 0, (b + 63) >>> 6, 0L);
        }
        infoRequestedByOthers = false;
        heardByOthers = false;
    }

    boolean allBlocksComplete() {
        return described && completeBlockCount == blockCount();
    }

    boolean infoMissing() {
        return infoExpected && info == null;
    }

    /** Keeps a parity symbol for a block (the caller passes a retained buffer). */
    void addParity(int block, int esi, ByteBuf symbol, int maxPerBlock) {
        if (parity[block] == null || parity[block].length < maxPerBlock) {
            ByteBuf[] grown = new ByteBuf[maxPerBlock];
            int[] grownEsi = new int[maxPerBlock];
            if (parity[block] != null) {
                System.arraycopy(parity[block], 0, grown, 0, parityCount[block]);
                System.arraycopy(parityEsi[block], 0, grownEsi, 0, parityCount[block]);
            }
            parity[block] = grown;
            parityEsi[block] = grownEsi;
        }
        int n = parityCount[block];
        if (n >= parity[block].length) {
            symbol.release();
            return;
        }
        parity[block][n] = symbol;
        parityEsi[block][n] = esi;
        parityCount[block] = n + 1;
    }

    void releaseParity(int block) {
        int n = parityCount[block];
        for (int i = 0; i < n; i++) {
            parity[block][i].release();
            parity[block][i] = null;
        }
        parityCount[block] = 0;
    }

    /** Frees every buffer (delivered, lost or aborted). */
    void release() {
        if (described) {
            for (int b = 0; b < blockCount(); b++) {
                releaseParity(b);
            }
        }
        if (data != null) {
            data.release();
            data = null;
        }
        if (info != null) {
            info.release();
            info = null;
        }
        described = false;
    }
}
