package org.fjm2.norm.fec;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.object.BlockPartition;

/** Rebuilds the missing source symbols of a block from any k of its symbols (the FEC code behind repairs). */
public interface BlockDecoder {

    /** Whether this decoder handles the fec_id and field size. */
    boolean supports(int fecId, int m);

    /**
     * Reconstructs the source symbols of {@code block} that {@code source} says are missing, writing each into its
     * place in {@code source} (the last symbol truncated to its length). {@code parity[i]} holds the parity symbol
     * with encoding symbol id {@code parityEsi[i]} (segmentSize bytes each, {@code parityCount} of them). Returns
     * false when decoding is impossible (then nothing was written).
     */
    boolean decode(int fecId, int m, BlockPartition partition, int block, int maxParity, SourceSymbols source,
                   ByteBuf[] parity, int[] parityEsi, int parityCount);

    /** Where the source symbols of the block are: present ones hold data, missing ones are room to rebuild into. */
    interface SourceSymbols {
        boolean has(int symbol);

        /** The heap array holding source symbol {@code symbol}. */
        byte[] array(int symbol);

        /** Where the symbol starts in {@link #array}. */
        int arrayOffset(int symbol);

        /**
         * Bytes present of a source symbol that arrived, the rest counting as zero: by default what the block
         * partition says (E, or the object's short last segment). Stream symbols are kept as long as they arrived.
         */
        default int length(int symbol, int partitionLength) {
            return partitionLength;
        }
    }
}
