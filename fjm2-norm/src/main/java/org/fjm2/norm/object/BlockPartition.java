package org.fjm2.norm.object;

/**
 * How an object of L bytes is cut into segments of E bytes and blocks of at most B segments (RFC 5740 section
 * 5.1.1, the RFC 5510 block partitioning algorithm): T = ceil(L/E) source segments, N = ceil(T/B) blocks, the first
 * {@code T - N*floor(T/N)} blocks ("large") have ceil(T/N) segments and the rest floor(T/N). Only the very last
 * segment of the object may be shorter than E.
 *
 * <p>Mutable and reusable: {@link #set} recomputes everything, so a receiver can keep one per object slot.
 */
public final class BlockPartition {

    private long objectSize;
    private int segmentSize;
    private int maxBlockLength;
    private long segmentCount;
    private long blockCount;
    private int largeBlockLength;
    private int smallBlockLength;
    private long largeBlockCount;
    private int finalSegmentLength;

    /**
     * Partitions an object; returns false (leaving the partition unusable) when a parameter is out of range or the
     * block count does not fit in {@code maxBlockNumber + 1}.
     */
    public boolean set(long objectSize, int segmentSize, int maxBlockLength, long maxBlockNumber) {
        if (objectSize < 0 || segmentSize <= 0 || maxBlockLength <= 0) {
            return false;
        }
        long segments = objectSize == 0 ? 0 : (objectSize + segmentSize - 1) / segmentSize;
        long blocks = segments == 0 ? 0 : (segments + maxBlockLength - 1) / maxBlockLength;
        if (blocks > 0 && blocks - 1 > maxBlockNumber) {
            return false;
        }
        this.objectSize = objectSize;
        this.segmentSize = segmentSize;
        this.maxBlockLength = maxBlockLength;
        this.segmentCount = segments;
        this.blockCount = blocks;
        if (blocks == 0) {
            largeBlockLength = smallBlockLength = 0;
            largeBlockCount = 0;
            finalSegmentLength = 0;
            return true;
        }
        largeBlockLength = (int) ((segments + blocks - 1) / blocks);
        smallBlockLength = (int) (segments / blocks);
        largeBlockCount = segments - smallBlockLength * blocks;
        finalSegmentLength = (int) (objectSize - (segments - 1) * segmentSize);
        return true;
    }

    public long objectSize() {
        return objectSize;
    }

    public int segmentSize() {
        return segmentSize;
    }

    public int maxBlockLength() {
        return maxBlockLength;
    }

    public long segmentCount() {
        return segmentCount;
    }

    public long blockCount() {
        return blockCount;
    }

    public long finalBlock() {
        return blockCount - 1;
    }

    /** Number of source segments (k) of a block. */
    public int blockLength(long block) {
        return block < largeBlockCount ? largeBlockLength : smallBlockLength;
    }

    /** Byte offset in the object of the first segment of a block. */
    public long blockOffset(long block) {
        if (block < largeBlockCount) {
            return block * largeBlockLength * (long) segmentSize;
        }
        return (largeBlockCount * largeBlockLength + (block - largeBlockCount) * smallBlockLength) * (long) segmentSize;
    }

    /** Byte offset in the object of source segment {@code symbol} of {@code block}. */
    public long segmentOffset(long block, int symbol) {
        return blockOffset(block) + (long) symbol * segmentSize;
    }

    /** Bytes of source segment {@code symbol} of {@code block}: E, except for the object's final segment. */
    public int segmentLength(long block, int symbol) {
        return (block == blockCount - 1 && symbol == blockLength(block) - 1) ? finalSegmentLength : segmentSize;
    }

    public int finalSegmentLength() {
        return finalSegmentLength;
    }
}
