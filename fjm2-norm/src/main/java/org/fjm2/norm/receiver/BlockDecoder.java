package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.object.BlockPartition;

/** Rebuilds the missing source symbols of a block from any k of its symbols (the FEC code behind repairs). */
public interface BlockDecoder {

    /** Whether this decoder handles the fec_id and field size. */
    boolean supports(int fecId, int m);

    /**
     * Reconstructs the source symbols of {@code block} that {@code received} says are missing, writing them into
     * {@code objectData} at their place (the last symbol truncated to its length). {@code parity[i]} holds the
     * parity symbol with encoding symbol id {@code parityEsi[i]} (segmentSize bytes each, {@code parityCount}
     * of them). Returns false when decoding is impossible (then nothing was written).
     */
    boolean decode(int fecId, int m, ByteBuf objectData, BlockPartition partition, int block, int maxParity,
                   SourcePresence received, ByteBuf[] parity, int[] parityEsi, int parityCount);

    /** Which source symbols of the block are present. */
    interface SourcePresence {
        boolean has(int symbol);
    }
}
