package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.object.BlockPartition;

/**
 * One object being reassembled from a remote sender: its FTI-derived structure, its data ({@link ObjectData},
 * allocated as segments arrive), and an {@link RxBlock} for each block that something arrived for, in pages of
 * {@link #PAGE_BLOCKS} created on demand — nothing is sized by the block count a header announces but the page
 * directory, whose size the FTI check bounds. Everything it allocates is charged to the session's
 * {@link ReceiveBudget} and given back when the object is released. Recycled; owned by the session's event loop.
 */
final class RxObject {

    /** Blocks per page of the block table. */
    static final int PAGE_BLOCKS = 64;
    /**
     * Most blocks an object may have (RFC 5740 allows 2^24 with fec_id 5): the page directory must stay small
     * next to a datagram. 262,144 blocks of 64 segments of 1,400 bytes would be 23 GB.
     */
    static final int MAX_BLOCKS = 1 << 18;

    int objectId;
    boolean described;      // FTI known
    int fecId;
    int fieldSize;
    long size;
    int segmentSize;
    int maxBlockLength;
    int symbolLimit;        // ESIs must stay below this
    /** Parity symbols per block the sender can send (FTI last field, read either way). */
    int parityPerBlock;
    final BlockPartition partition = new BlockPartition();
    final ObjectData data = new ObjectData();
    ByteBuf info;
    boolean infoExpected;
    boolean complete;
    /** The id is a stream's (NORM_OBJECT_STREAM): released in order without delivery, the stream has its own path. */
    boolean stream;
    /** Why the object was given up (when complete without data). */
    LossReason lossReason;
    /** The window the object lives in (for the budget: an object given up for room is reported there). */
    RxWindow window;

    // Block table.
    private RxBlock[][] pages = new RxBlock[1][];
    private int pageCount;
    private int completeBlockCount;
    /** No block before this one is incomplete. */
    private int firstIncompleteBlock;
    private RxBlock lastBlock;
    private int lastBlockNumber = -1;

    // What other receivers asked for during the current NACK back-off (suppression of our own NACK).
    boolean infoRequestedByOthers;
    boolean heardByOthers;
    boolean wholeRequestedByOthers;
    final BlockRanges blocksRequestedByOthers = new BlockRanges();

    // Budget bookkeeping: bytes charged, and the session-wide list of objects by last progress.
    long charged;
    long lastProgressNanos;
    RxObject olderProgress;
    RxObject newerProgress;
    boolean inProgressList;

    void reset(int objectId, RxWindow window) {
        this.objectId = objectId;
        this.window = window;
        described = false;
        complete = false;
        stream = false;
        infoExpected = false;
        lossReason = null;
        infoRequestedByOthers = false;
        heardByOthers = false;
        wholeRequestedByOthers = false;
        blocksRequestedByOthers.clear();
        completeBlockCount = 0;
        firstIncompleteBlock = 0;
        lastBlock = null;
        lastBlockNumber = -1;
    }

    /** Sets the structure from an FTI; false when the block bookkeeping would be unreasonable. */
    boolean describe(Fti fti, long maxBlockNumber) {
        if (!partition.set(fti.transferLength(), fti.symbolLength(), fti.maxBlockLength(), maxBlockNumber)) {
            return false;
        }
        long blocks = partition.blockCount();
        int limit = fti.symbolIdLimit();
        if (blocks > MAX_BLOCKS || limit < fti.maxBlockLength()) {
            return false;
        }
        fecId = fti.fecId();
        fieldSize = fti.fieldSize();
        size = fti.transferLength();
        segmentSize = fti.symbolLength();
        maxBlockLength = fti.maxBlockLength();
        symbolLimit = limit;
        parityPerBlock = fti.lastField() > fti.maxBlockLength() ? fti.lastField() - fti.maxBlockLength() : fti.lastField();
        int pagesNeeded = (int) ((blocks + PAGE_BLOCKS - 1) / PAGE_BLOCKS);
        if (pages.length < pagesNeeded || pages.length > 16 && pages.length > 4 * pagesNeeded) {
            pages = new RxBlock[pagesNeeded][];
        }
        pageCount = pagesNeeded;
        data.reset(size, segmentSize);
        described = true;
        return true;
    }

    /** Bytes the block table's page directory takes (charged when the object is described). */
    long directoryBytes() {
        return 16L + 8L * pageCount;
    }

    int blockCount() {
        return (int) partition.blockCount();
    }

    /** The block's state, or null when nothing of it arrived yet. */
    RxBlock block(int b) {
        if (b == lastBlockNumber) {
            return lastBlock;
        }
        RxBlock[] page = pages[b / PAGE_BLOCKS];
        RxBlock block = page == null ? null : page[b % PAGE_BLOCKS];
        if (block != null) {
            lastBlock = block;
            lastBlockNumber = b;
        }
        return block;
    }

    /** Whether no block state exists in the page of block {@code b} (64 blocks never heard of). */
    boolean pageEmpty(int b) {
        return pages[b / PAGE_BLOCKS] == null;
    }

    /** Bytes a new block state for block {@code b} takes, its page included when that is new too. */
    long newBlockBytes(int b) {
        long page = pages[b / PAGE_BLOCKS] == null ? 16L + 8L * PAGE_BLOCKS : 0;
        return page + RxBlock.bookkeepingBytes(partition.blockLength(b), symbolLimit);
    }

    /** Creates the state of block {@code b} (the caller charged {@link #newBlockBytes}). */
    RxBlock createBlock(int b, RxBlock recycled) {
        RxBlock[] page = pages[b / PAGE_BLOCKS];
        if (page == null) {
            page = new RxBlock[PAGE_BLOCKS];
            pages[b / PAGE_BLOCKS] = page;
        }
        RxBlock block = recycled != null ? recycled : new RxBlock();
        block.reset(partition.blockLength(b), symbolLimit);
        page[b % PAGE_BLOCKS] = block;
        lastBlock = block;
        lastBlockNumber = b;
        return block;
    }

    boolean isBlockComplete(int b) {
        RxBlock block = block(b);
        return block != null && block.isComplete();
    }

    void markBlockComplete(int b, RxBlock block) {
        if (!block.isComplete()) {
            block.markComplete();
            completeBlockCount++;
            while (firstIncompleteBlock < blockCount() && isBlockComplete(firstIncompleteBlock)) {
                firstIncompleteBlock++;
            }
        }
    }

    /** The first block not complete (blockCount when all are). */
    int firstIncompleteBlock() {
        return firstIncompleteBlock;
    }

    boolean allBlocksComplete() {
        return described && completeBlockCount == blockCount();
    }

    boolean infoMissing() {
        return infoExpected && info == null;
    }

    /** Forgets what other receivers asked for (a new back-off starts). */
    void clearRequestedByOthers() {
        if (described) {
            for (int p = 0; p < pageCount; p++) {
                RxBlock[] page = pages[p];
                if (page != null) {
                    for (RxBlock block : page) {
                        if (block != null) {
                            block.clearRequestedByOthers();
                        }
                    }
                }
            }
        }
        blocksRequestedByOthers.clear();
        wholeRequestedByOthers = false;
        infoRequestedByOthers = false;
        heardByOthers = false;
    }

    /** Frees every buffer and block state (delivered, lost or aborted); block states go back to {@code spare}. */
    void release(BlockPool spare) {
        for (int p = 0; p < pageCount; p++) {
            RxBlock[] page = pages[p];
            if (page != null) {
                for (int i = 0; i < PAGE_BLOCKS; i++) {
                    RxBlock block = page[i];
                    if (block != null) {
                        block.releaseParity();
                        spare.give(block);
                        page[i] = null;
                    }
                }
                pages[p] = null;
            }
        }
        if (pages.length > 16) {
            pages = new RxBlock[1][];       // a recycled object keeps nothing sized by a past header
        }
        pageCount = 0;
        lastBlock = null;
        lastBlockNumber = -1;
        data.release();
        if (info != null) {
            info.release();
            info = null;
        }
        described = false;
    }

    /**
     * Block ranges another receiver asked for whole (REPAIR_BLOCK), kept as a few ranges rather than per block: a
     * NACK may name a range of blocks we never heard of. Beyond {@link #MAX_RANGES} further ranges are not kept,
     * which only means our own NACK is not suppressed for them.
     */
    static final class BlockRanges {
        static final int MAX_RANGES = 16;
        private final long[] first = new long[MAX_RANGES];
        private final long[] last = new long[MAX_RANGES];
        private int count;

        void add(long from, long to) {
            if (count < MAX_RANGES) {
                first[count] = from;
                last[count] = to;
                count++;
            }
        }

        boolean contains(long block) {
            for (int i = 0; i < count; i++) {
                if (block >= first[i] && block <= last[i]) {
                    return true;
                }
            }
            return false;
        }

        void clear() {
            count = 0;
        }
    }

    /** Block states kept for reuse by a session's receivers, at most a bounded number. */
    static final class BlockPool {
        static final int MAX_SPARE = 1024;
        private final java.util.ArrayDeque<RxBlock> spare = new java.util.ArrayDeque<>();

        RxBlock take() {
            return spare.pollFirst();
        }

        void give(RxBlock block) {
            if (spare.size() < MAX_SPARE && block.isSmall()) {
                spare.addFirst(block);
            }
        }
    }
}
