package org.fjm2.norm.fec;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.object.BlockPartition;

/** Computes the parity symbols of one block of an object (the FEC code behind the sender's parity repairs). */
public interface ParityEncoder {

    /**
     * Writes {@code parity} parity symbols of {@code segmentSize} bytes each for block {@code block} of the object
     * (source symbols shorter than the segment size count as zero padded) into {@code out} at {@code outIndex}.
     */
    void encodeBlock(ByteBuf objectData, BlockPartition partition, int block, int parity, ByteBuf out, int outIndex);
}
