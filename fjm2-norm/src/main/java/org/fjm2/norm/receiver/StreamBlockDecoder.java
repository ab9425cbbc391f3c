package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.StreamPayloadFlyweight;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.object.BlockPartition;
import org.fjm2.norm.protocol.ProtocolContext;

/**
 * FEC decoding of a received stream's blocks: rebuilds the missing segments of a block (stream payloads, header
 * included, as NRL codes them) from the parity it kept, in room taken for that one decode, and keeps each rebuilt
 * segment as long as its header says, charged to the stream. Owned by the session's event loop.
 */
final class StreamBlockDecoder {

    private final ProtocolContext ctx;
    private final RxStream stream;
    private final BlockDecoder decoder;
    private final BlockPartition codeShape = new BlockPartition();
    private final StreamPayloadFlyweight payload = new StreamPayloadFlyweight();
    private final StreamDecodeSources sources = new StreamDecodeSources();

    StreamBlockDecoder(ProtocolContext ctx, RxStream stream, BlockDecoder decoder) {
        this.ctx = ctx;
        this.stream = stream;
        this.decoder = decoder;
    }

    /**
     * Rebuilds the block's missing source symbols from parity. Every symbol of a block is at most as long as its
     * parity (NRL sends parity as long as the block's longest segment, the rest being zero), so the block is decoded
     * over the longest symbol received rather than E + 8 bytes: the room this takes follows what arrived. Rebuilt
     * symbols are kept as long as their stream header says (checked again when delivered).
     */
    void decode(RxStreamBlock block) {
        int k = stream.blockSize;
        int parityCount = block.state.parityCount();
        ByteBuf[] parity = block.state.parity();
        int longest = 0;
        for (int i = 0; i < parityCount; i++) {
            longest = Math.max(longest, parity[i].readableBytes());
        }
        int length = stream.fieldSize == 16 ? (longest + 1) & ~1 : longest;
        int missing = k - block.state.sourceReceived();
        if (length < StreamPayloadFlyweight.HEADER_LENGTH || missing <= 0 || missing > parityCount
                || !codeShape.set((long) k * length, length, k, 0)) {
            return;
        }
        ByteBuf room = ctx.output().allocateHeap(2 * missing * length);
        room.writeZero(2 * missing * length);
        try {
            ByteBuf[] slots = sources.prepare(block, room, missing, length);
            int[] esis = sources.esis;
            for (int i = 0; i < missing; i++) {
                ByteBuf p = parity[i];
                room.setBytes(i * length, p, p.readerIndex(), Math.min(p.readableBytes(), length));
                esis[i] = block.state.parityEsi()[i];
            }
            int maxParity = stream.parityPerBlock;
            for (int i = 0; i < parityCount; i++) {
                maxParity = Math.max(maxParity, block.state.parityEsi()[i] - k + 1);
            }
            boolean ok = decoder.decode(stream.fecId, stream.fieldSize, codeShape, 0, maxParity, sources, slots, esis, missing);
            if (ok && keepRebuilt(block, room, length)) {
                block.state.markComplete();
                ctx.counters().increment(Counter.FEC_DECODES);
            }
        } finally {
            sources.block = null;
            room.release();
        }
    }

    /** Copies the rebuilt symbols out of the decoding room, each as long as its header says; false when refused. */
    private boolean keepRebuilt(RxStreamBlock block, ByteBuf room, int length) {
        for (int i = 0; i < stream.blockSize; i++) {
            if (block.state.has(i)) {
                continue;
            }
            int at = sources.outputIndex(i);
            payload.wrap(room, at, length);
            int kept = Math.min(length, StreamPayloadFlyweight.HEADER_LENGTH + payload.dataLength());
            if (!stream.charge(block, kept)) {
                dropRebuilt(block);
                return false;
            }
            ByteBuf copy = ctx.output().allocateHeap(kept);
            copy.writeBytes(room, at, kept);
            block.put(i, copy);
        }
        return true;
    }

    /** Frees symbols kept from a decode that could not complete (they must not pass for received). */
    private void dropRebuilt(RxStreamBlock block) {
        for (int i = 0; i < stream.blockSize; i++) {
            if (block.segment(i) != null && !block.state.has(i)) {
                ByteBuf symbol = block.take(i);
                stream.uncharge(block, symbol.readableBytes());
                symbol.release();
            }
        }
    }

    /**
     * The source symbols of the block being decoded: the received ones in their own buffers (as long as they
     * arrived), the missing ones rebuilt into the second half of the decoding room; the first half holds the parity
     * used, one slot per missing symbol.
     */
    private static final class StreamDecodeSources implements BlockDecoder.SourceSymbols {
        RxStreamBlock block;
        private ByteBuf room;
        private int length;
        private int missing;
        private int[] outputSlot = new int[0];
        private ByteBuf[] slots = new ByteBuf[0];
        int[] esis = new int[0];

        /** Readies the room for a block with {@code missing} source symbols lost; returns the parity slots. */
        ByteBuf[] prepare(RxStreamBlock block, ByteBuf room, int missing, int length) {
            this.block = block;
            this.room = room;
            this.length = length;
            this.missing = missing;
            int k = block.state.k();
            if (outputSlot.length < k) {
                outputSlot = new int[k];
            }
            if (slots.length < missing) {
                slots = new ByteBuf[missing];
                esis = new int[missing];
            }
            int next = 0;
            for (int i = 0; i < k; i++) {
                outputSlot[i] = block.state.has(i) ? -1 : next++;
            }
            for (int i = 0; i < missing; i++) {
                slots[i] = room.slice(i * length, length);
            }
            return slots;
        }

        /** Where in the room the rebuilt symbol {@code symbol} lies. */
        int outputIndex(int symbol) {
            return (missing + outputSlot[symbol]) * length;
        }

        @Override
        public boolean has(int symbol) {
            return block.state.has(symbol);
        }

        @Override
        public byte[] array(int symbol) {
            return has(symbol) ? block.segment(symbol).array() : room.array();
        }

        @Override
        public int arrayOffset(int symbol) {
            if (has(symbol)) {
                ByteBuf s = block.segment(symbol);
                return s.arrayOffset() + s.readerIndex();
            }
            return room.arrayOffset() + outputIndex(symbol);
        }

        @Override
        public int length(int symbol, int partitionLength) {
            return has(symbol) ? Math.min(block.segment(symbol).readableBytes(), partitionLength) : partitionLength;
        }
    }
}
