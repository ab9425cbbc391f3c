package org.fjm2.norm.receiver;

import org.fjm2.norm.fec.BlockDecoder;

/** The source symbols of the block being decoded, where they are (or will be) in the object's chunks. */
final class DecodeSources implements BlockDecoder.SourceSymbols {
    RxObject object;
    RxBlock block;
    long firstSegment;

    @Override
    public boolean has(int symbol) {
        return block.has(symbol);
    }

    @Override
    public byte[] array(int symbol) {
        return object.data.array(firstSegment + symbol);
    }

    @Override
    public int arrayOffset(int symbol) {
        return object.data.arrayOffset(firstSegment + symbol);
    }
}
