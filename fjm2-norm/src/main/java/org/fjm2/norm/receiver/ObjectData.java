package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * The bytes of an object being received, allocated as its segments arrive, never as its header announces: an
 * object of at most {@link #CHUNK_BYTES} gets one buffer of its size at its first segment; a larger one is cut
 * into chunks of whole segments (at most {@link #CHUNK_BYTES} each), each allocated when one of its segments
 * arrives. A datagram thus makes a receiver allocate at most one chunk. Chunks are pooled heap buffers (the FEC
 * decoder works on arrays in place); the complete object is handed over as one buffer, a composite of its chunks
 * when there are several. Owned by the session's event loop.
 */
final class ObjectData {

    /** Largest buffer one datagram may make a receiver allocate (one chunk). */
    static final int CHUNK_BYTES = 128 * 1024;

    private long size;
    private int segmentSize;
    private int chunkSegments;
    private long chunkBytes;
    private ByteBuf[] chunks = new ByteBuf[1];
    private int chunkCount;
    private int allocated;
    /** A buffer the object does not own a copy of (the datagram that completed a one-segment object). */
    private ByteBuf adopted;

    /** Readies the container for an object of {@code size} bytes in segments of {@code segmentSize}. */
    void reset(long size, int segmentSize) {
        release();
        this.size = size;
        this.segmentSize = segmentSize;
        this.chunkSegments = size <= CHUNK_BYTES ? Integer.MAX_VALUE : Math.max(1, CHUNK_BYTES / segmentSize);
        this.chunkBytes = size <= CHUNK_BYTES ? size : (long) chunkSegments * segmentSize;
        this.chunkCount = (int) ((size + chunkBytes - 1) / chunkBytes);
        if (chunks.length < chunkCount || chunks.length > 64 && chunks.length > 4 * chunkCount) {
            chunks = new ByteBuf[chunkCount];
        }
    }

    /** Whether nothing was allocated yet. */
    boolean isEmpty() {
        return allocated == 0 && adopted == null;
    }

    /** Bytes the chunk holding segment {@code segmentIndex} needs, 0 when it is already allocated. */
    long bytesToAllocate(long segmentIndex) {
        int c = chunkOf(segmentIndex);
        return chunks[c] != null ? 0 : chunkLength(c);
    }

    /** Allocates the chunk holding segment {@code segmentIndex} (the caller charged its budget). */
    void allocate(long segmentIndex, ByteBufAllocator allocator) {
        int c = chunkOf(segmentIndex);
        if (chunks[c] == null) {
            int length = chunkLength(c);
            ByteBuf chunk = allocator.heapBuffer(length, length);
            chunk.writerIndex(length);
            chunks[c] = chunk;
            allocated++;
        }
    }

    /** Lends the object a buffer it does not own a copy of (one segment, delivered before the buffer goes). */
    void adopt(ByteBuf whole) {
        adopted = whole;
    }

    /** Copies {@code length} bytes of a source segment into place. */
    void write(long segmentIndex, ByteBuf from, int fromIndex, int length) {
        int c = chunkOf(segmentIndex);
        chunks[c].setBytes(offsetInChunk(segmentIndex), from, fromIndex, length);
    }

    /** The heap array holding segment {@code segmentIndex} (its chunk must be allocated). */
    byte[] array(long segmentIndex) {
        return chunks[chunkOf(segmentIndex)].array();
    }

    /** Where segment {@code segmentIndex} starts in {@link #array}. */
    int arrayOffset(long segmentIndex) {
        ByteBuf chunk = chunks[chunkOf(segmentIndex)];
        return chunk.arrayOffset() + offsetInChunk(segmentIndex);
    }

    /**
     * The whole object, ownership passed to the caller (released once it is done); the container is empty
     * afterwards. Every chunk must be allocated (the object is complete).
     */
    ByteBuf take(ByteBufAllocator allocator) {
        ByteBuf whole;
        if (adopted != null) {
            whole = adopted;
            adopted = null;
        } else if (chunkCount == 1) {
            whole = chunks[0];
            chunks[0] = null;
        } else {
            CompositeByteBuf composite = allocator.compositeHeapBuffer(chunkCount);
            for (int c = 0; c < chunkCount; c++) {
                composite.addComponent(true, chunks[c]);
                chunks[c] = null;
            }
            whole = composite;
        }
        allocated = 0;
        return whole;
    }

    /** Frees whatever is allocated. */
    void release() {
        if (adopted != null) {
            adopted.release();
            adopted = null;
        }
        for (int c = 0; c < chunkCount && allocated > 0; c++) {
            if (chunks[c] != null) {
                chunks[c].release();
                chunks[c] = null;
                allocated--;
            }
        }
        allocated = 0;
    }

    private int chunkOf(long segmentIndex) {
        return chunkSegments == Integer.MAX_VALUE ? 0 : (int) (segmentIndex / chunkSegments);
    }

    private int offsetInChunk(long segmentIndex) {
        long inChunk = chunkSegments == Integer.MAX_VALUE ? segmentIndex : segmentIndex % chunkSegments;
        return (int) (inChunk * segmentSize);
    }

    private int chunkLength(int c) {
        return (int) Math.min(chunkBytes, size - c * chunkBytes);
    }
}
