package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.FecPayloadId;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.StreamPayloadFlyweight;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.object.BlockPartition;
import org.fjm2.norm.protocol.ProtocolContext;

/**
 * A stream object (NORM_OBJECT_STREAM) being received from one remote sender: an unbounded byte stream sent as FEC
 * blocks whose ids count up modulo the scheme's block number space (2^24 for fec_id 5), every block B segments of
 * up to E stream bytes behind an 8-byte stream payload header ({@link StreamPayloadFlyweight}).
 *
 * <p>This receiver keeps a window of blocks from its read position on: the sender's announced stream buffer (the
 * FTI transfer length, doubled as NRL receivers do), capped by {@code streamBufferBytes}. Within it, symbols are
 * stored as they arrive (each allocated and charged to the session's {@link ReceiveBudget} on arrival), blocks are
 * FEC-decoded as soon as they can be, and segments are handed to the {@link StreamDelivery} in order. It joins a
 * running stream where it first hears it (the first source segment of a first transmission), like an NRL receiver
 * with its default sync policy; except in the stream's first block, when that segment's offset shows that the stream
 * began in that block: it then starts at the beginning and asks for what it missed (a receiver that was there from
 * the start does not lose the stream's first bytes to the loss of its first datagrams). Data more than the window
 * ahead of the read position, a SQUELCH naming a later block, or a FLUSH beyond the window moves the read position
 * forward: what was skipped is reported as a gap.
 *
 * <p>Hostile input: symbols that do not fit the stream's FTI, segments whose payload_len exceeds E or the datagram,
 * whose message start lies outside their data, or whose payload_offset cannot follow what was delivered (more
 * bytes ahead than the segments between could hold) are counted as malformed and dropped. Memory never exceeds the
 * window: one datagram stores at most one symbol (E + 8 bytes) plus its block's bookkeeping. Owned by the session's
 * event loop.
 */
final class RxStream {

    /** Most blocks of a stream window, whatever the FTI announces. */
    static final int MAX_WINDOW_BLOCKS = 1 << 14;
    /** Smallest segment size taken (the object path's limit too). */
    static final int MIN_SEGMENT_SIZE = 16;
    /** Largest segment size: E + 8 must fit a datagram's 16-bit payload. */
    static final int MAX_SEGMENT_SIZE = 65_000;
    /** Spare blocks kept for reuse. */
    static final int MAX_SPARE_BLOCKS = 16;

    private final ProtocolContext ctx;
    private final ReceiveBudget budget;
    private final BlockDecoder decoder;
    private final StreamPayloadFlyweight payload = new StreamPayloadFlyweight();
    private final StreamDecodeSources sources = new StreamDecodeSources();
    private final java.util.ArrayDeque<RxStreamBlock> spare = new java.util.ArrayDeque<>(4);
    private final StreamDelivery delivery;

    final int streamId;
    // Structure, from the FTI.
    final int fecId;
    final int fieldSize;
    final long blockMask;
    final int segmentSize;
    final int blockSize;
    final int symbolLimit;
    final int parityPerBlock;
    /** Bytes a coded symbol has: the segment and its stream header. */
    final int symbolBytes;
    final int windowBlocks;
    private final long limitBytes;
    private final BlockPartition codeShape = new BlockPartition();
    private final boolean decodes;

    private final RxStreamBlock[] ring;
    private final int ringMask;
    private long heldBytes;
    private boolean closed;

    // The sender's transmit position (first transmissions and FLUSHes), for loss detection and NACKs.
    private boolean positionKnown;
    private long positionBlock;
    private int positionSymbol;
    /** The position is a FLUSH's: the sender wrote no more, so a partly sent block there is asked for now. */
    private boolean positionFlushed;

    private RxStream(ProtocolContext ctx, RxWindow window, BlockDecoder decoder, int streamId, Fti fti,
                     int windowBlocks, long limitBytes) {
        this.ctx = ctx;
        this.budget = window.budget();
        this.decoder = decoder;
        this.streamId = streamId;
        this.fecId = fti.fecId();
        this.fieldSize = fti.fieldSize();
        this.blockMask = FecPayloadId.blockNumberMask(fecId, fieldSize);
        this.segmentSize = fti.symbolLength();
        this.blockSize = fti.maxBlockLength();
        this.symbolLimit = fti.symbolIdLimit();
        this.parityPerBlock = fti.lastField() > fti.maxBlockLength() ? fti.lastField() - fti.maxBlockLength()
                : fti.lastField();
        this.symbolBytes = segmentSize + StreamPayloadFlyweight.HEADER_LENGTH;
        this.windowBlocks = windowBlocks;
        this.limitBytes = limitBytes;
        this.decodes = decoder != null && decoder.supports(fecId, fieldSize) && parityPerBlock > 0;
        int capacity = Integer.highestOneBit(Math.max(2, windowBlocks) * 2 - 1);
        this.ring = new RxStreamBlock[capacity];
        this.ringMask = capacity - 1;
        this.delivery = new StreamDelivery(ctx, window.sender(), this);
    }

    /**
     * A stream receiver for the FTI, or null when this receiver cannot take the stream (the reason is then in
     * {@code refusal[0]}): a block of it (twice, with parity) does not fit {@code streamBufferBytes}, or the FTI
     * describes no usable block structure.
     */
    static RxStream open(ProtocolContext ctx, RxWindow window, BlockDecoder decoder, int streamId, Fti fti,
                         LossReason[] refusal) {
        int e = fti.symbolLength();
        int b = fti.maxBlockLength();
        long mask = FecPayloadId.blockNumberMask(fti.fecId(), fti.fieldSize());
        if (e < MIN_SEGMENT_SIZE || e > MAX_SEGMENT_SIZE || b < 1 || fti.symbolIdLimit() < b || mask < 3
                || fti.transferLength() < 1) {
            refusal[0] = LossReason.UNSUPPORTED;
            return null;
        }
        int parity = fti.lastField() > b ? fti.lastField() - b : fti.lastField();
        long blockBytes = (long) b * (e + StreamPayloadFlyweight.HEADER_LENGTH);
        long perBlock = blockBytes * (parity > 0 ? 2 : 1) + RxStreamBlock.bookkeepingBytes(b, fti.symbolIdLimit());
        long limit = Math.min(ctx.config().streamBufferBytes(), ctx.config().receiveBufferBytes());
        long fit = limit / perBlock;
        if (fit < 2) {
            refusal[0] = LossReason.TOO_LARGE;
            return null;
        }
        long announcedBlocks = (fti.transferLength() + (long) b * e - 1) / ((long) b * e);
        long blocks = Math.max(2, 2 * announcedBlocks);
        blocks = Math.min(blocks, fit);
        blocks = Math.min(blocks, MAX_WINDOW_BLOCKS);
        blocks = Math.min(blocks, (mask + 1) / 4);
        return new RxStream(ctx, window, decoder, streamId, fti, (int) blocks, blocks * perBlock);
    }

    /** Whether a message's FTI describes this stream (a sender does not change a stream's structure). */
    boolean matches(Fti fti) {
        return fti.fecId() == fecId && fti.fieldSize() == fieldSize && fti.symbolLength() == segmentSize
                && fti.maxBlockLength() == blockSize && fti.symbolIdLimit() == symbolLimit;
    }

    boolean isClosed() {
        return closed;
    }

    /** Bytes held now (symbols and bookkeeping). */
    long heldBytes() {
        return heldBytes;
    }

    StreamDelivery delivery() {
        return delivery;
    }

    // ---- arrival --------------------------------------------------------------------------------------------------

    /**
     * A NORM_DATA of this stream (its fec_id checked by the caller). Returns true when it shows that symbols the
     * sender already sent are missing here (the repair cycle should start).
     */
    boolean onData(ObjectMessageFlyweight msg) {
        long block = msg.blockNumber(fieldSize) & blockMask;
        int symbol = msg.symbolId(fieldSize);
        if (symbol >= symbolLimit) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return false;
        }
        boolean repair = (msg.flags() & NormWire.FLAG_REPAIR) != 0;
        boolean source = symbol < blockSize;
        if (source) {
            payload.wrap(msg);
            if (!payload.fits(segmentSize) || !payload.messageStartValid()) {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);
                return false;
            }
            if (!delivery.isSynced()) {
                if (repair) {
                    return false;       // never join on a repair (NRL neither): it may be far behind the sender
                }
                if (block == 0 && payload.streamOffset() <= (long) symbol * segmentSize) {
                    // The stream's first block, at an offset its start can explain: we were there from the start
                    // and lost its first segments, so ask for them rather than join after them.
                    delivery.syncTo(0, 0, 0);
                } else {
                    delivery.syncTo(block, symbol, payload.streamOffset());
                }
            }
        } else if (msg.payloadLength() > symbolBytes) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return false;
        } else if (!delivery.isSynced()) {
            return false;               // parity before anything to deliver: nothing to place it against
        }
        long ahead = relative(block);
        if (ahead < 0) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);     // behind the read position: passed
            return false;
        }
        if (ahead >= windowBlocks) {
            // The sender is further ahead than our window: what we could not complete before is given up.
            delivery.forceTo((block - windowBlocks + 1) & blockMask);
            if (closed) {
                return false;
            }
            ahead = relative(block);
        }
        if (source && !delivery.plausible(block, symbol, payload)) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return false;
        }
        boolean gap = !repair && advancePosition(block, symbol);
        store(block, symbol, msg, source);
        delivery.deliverReady();
        return gap;
    }

    private void store(long blockId, int symbol, ObjectMessageFlyweight msg, boolean source) {
        RxStreamBlock block = ring[(int) (blockId & ringMask)];
        if (block != null && block.id != blockId) {
            block = null;       // cannot happen within the window; treat as not held
        }
        if (block != null && (block.state.isComplete() || block.state.has(symbol)
                || (!source && block.state.parityCount() >= blockSize))) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        if (!source && !decodes) {
            ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);   // parity we cannot use
            return;
        }
        if (block == null) {
            block = newBlock(blockId);
            if (block == null) {
                return;
            }
        }
        // Kept as long as it arrived (a source symbol: its header and data; parity: what was sent), so that memory
        // follows the bytes received whatever segment size the FTI announces; decoding pads with zeros.
        int length = source ? StreamPayloadFlyweight.HEADER_LENGTH + payload.dataLength()
                : Math.min(msg.payloadLength(), symbolBytes);
        if (!charge(block, length)) {
            return;
        }
        ByteBuf copy = ctx.output().allocateHeap(Math.max(1, length));
        copy.writeBytes(msg.buffer(), msg.payloadIndex(), length);
        if (source) {
            block.put(symbol, copy);
            if (block.state.markSource(symbol)) {
                block.state.markComplete();
            }
        } else {
            block.state.addParity(symbol, copy);
        }
        if (decodes && block.state.decodable()) {
            decode(block);
        }
    }

    private RxStreamBlock newBlock(long blockId) {
        long bookkeeping = RxStreamBlock.bookkeepingBytes(blockSize, symbolLimit);
        if (heldBytes + bookkeeping > limitBytes || !budget.chargeStream(bookkeeping)) {
            ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
            return null;
        }
        heldBytes += bookkeeping;
        RxStreamBlock block = spare.isEmpty() ? new RxStreamBlock() : spare.pollFirst();
        block.reset(blockId, blockSize, symbolLimit);
        block.charged = bookkeeping;
        ring[(int) (blockId & ringMask)] = block;
        return block;
    }

    /** Charges one symbol to the block, the stream's bound and the session's budget; false when refused. */
    private boolean charge(RxStreamBlock block, long bytes) {
        if (heldBytes + bytes > limitBytes || !budget.chargeStream(bytes)) {
            ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
            return false;
        }
        heldBytes += bytes;
        block.charged += bytes;
        return true;
    }

    /**
     * Rebuilds the block's missing source symbols from parity. Every symbol of a block is at most as long as its
     * parity (NRL sends parity as long as the block's longest segment, the rest being zero), so the block is decoded
     * over the longest symbol received rather than E + 8 bytes: the room this takes follows what arrived. Rebuilt
     * symbols are kept as long as their stream header says (checked again when delivered).
     */
    private void decode(RxStreamBlock block) {
        int k = blockSize;
        int parityCount = block.state.parityCount();
        ByteBuf[] parity = block.state.parity();
        int longest = 0;
        for (int i = 0; i < parityCount; i++) {
            longest = Math.max(longest, parity[i].readableBytes());
        }
        int length = fieldSize == 16 ? (longest + 1) & ~1 : longest;
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
            int maxParity = parityPerBlock;
            for (int i = 0; i < parityCount; i++) {
                maxParity = Math.max(maxParity, block.state.parityEsi()[i] - k + 1);
            }
            boolean ok = decoder.decode(fecId, fieldSize, codeShape, 0, maxParity, sources, slots, esis, missing);
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
        for (int i = 0; i < blockSize; i++) {
            if (block.state.has(i)) {
                continue;
            }
            int at = sources.outputIndex(i);
            payload.wrap(room, at, length);
            int kept = Math.min(length, StreamPayloadFlyweight.HEADER_LENGTH + payload.dataLength());
            if (!charge(block, kept)) {
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
        for (int i = 0; i < blockSize; i++) {
            if (block.segment(i) != null && !block.state.has(i)) {
                ByteBuf symbol = block.take(i);
                int kept = symbol.readableBytes();
                heldBytes -= kept;
                block.charged -= kept;
                budget.unchargeStream(kept);
                symbol.release();
            }
        }
    }

    // ---- the window -----------------------------------------------------------------------------------------------

    /** Blocks from the read position to {@code blockId}, negative when it lies behind. */
    long relative(long blockId) {
        long d = (blockId - delivery.readBlock()) & blockMask;
        return d > (blockMask >>> 1) ? d - blockMask - 1 : d;
    }

    /** The block with this id if held, else null. */
    RxStreamBlock held(long blockId) {
        RxStreamBlock block = ring[(int) (blockId & ringMask)];
        return block != null && block.id == blockId ? block : null;
    }

    /** Releases a block the read position passed (or the stream closing). */
    void free(long blockId) {
        int slot = (int) (blockId & ringMask);
        RxStreamBlock block = ring[slot];
        if (block == null || block.id != blockId) {
            return;
        }
        ring[slot] = null;
        block.release();
        heldBytes -= block.charged;
        budget.unchargeStream(block.charged);
        block.charged = 0;
        if (spare.size() < MAX_SPARE_BLOCKS) {
            spare.addFirst(block);
        }
    }

    // ---- the sender's position, loss ----------------------------------------------------------------------------

    /** A first transmission at (block, symbol): moves the position; true when symbols were skipped on the way. */
    private boolean advancePosition(long block, int symbol) {
        if (!positionKnown) {
            setPosition(block, symbol);
            return false;
        }
        long d = (block - positionBlock) & blockMask;
        boolean forward;
        boolean inOrder;
        if (d == 0) {
            forward = symbol > positionSymbol;
            inOrder = symbol == positionSymbol + 1;
        } else if (d <= (blockMask >>> 1)) {
            forward = true;
            inOrder = d == 1 && symbol == 0 && positionSymbol >= blockSize - 1;
        } else {
            forward = false;
            inOrder = true;
        }
        if (forward) {
            setPosition(block, symbol);
            positionFlushed = false;
            return !inOrder;
        }
        return false;
    }

    private void setPosition(long block, int symbol) {
        positionKnown = true;
        positionBlock = block;
        positionSymbol = symbol;
    }

    /**
     * A FLUSH naming this stream at (block, symbol), the last segment the sender wrote: the position moves there
     * (a FLUSH beyond the window first moves the read position). Returns whether anything up to it is missing.
     */
    boolean onFlush(long block, int symbol) {
        block &= blockMask;
        if (!delivery.isSynced()) {
            return false;
        }
        long ahead = relative(block);
        if (ahead < 0) {
            return hasMissing();
        }
        if (ahead >= windowBlocks) {
            delivery.forceTo((block - windowBlocks + 1) & blockMask);
            if (closed) {
                return false;
            }
        }
        if (!positionKnown) {
            setPosition(block, symbol);
            positionFlushed = true;
        } else {
            long d = (block - positionBlock) & blockMask;
            if ((d != 0 && d <= (blockMask >>> 1)) || (d == 0 && symbol >= positionSymbol)) {
                setPosition(block, symbol);
                positionFlushed = true;
            }
        }
        return hasMissing();
    }

    /** A SQUELCH naming this stream: blocks before {@code block} can no longer be repaired. */
    void onSquelch(long block) {
        block &= blockMask;
        if (delivery.isSynced() && relative(block) > 0) {
            delivery.forceTo(block);
        }
    }

    /** Whether anything from the read position up to the sender's position is missing here. */
    boolean hasMissing() {
        if (closed || !delivery.isSynced() || !positionKnown) {
            return false;
        }
        long last = relative(positionBlock);
        if (last < 0) {
            return false;
        }
        for (long r = 0; r <= last && r < windowBlocks; r++) {
            long id = (delivery.readBlock() + r) & blockMask;
            int from = r == 0 ? delivery.readSegment() : 0;
            int limit = r == last ? Math.min(positionSymbol + 1, blockSize) : blockSize;
            if (from >= limit) {
                continue;
            }
            RxStreamBlock block = held(id);
            if (block == null || (!block.state.isComplete() && block.state.nextMissing(from, limit) >= 0)) {
                return true;
            }
        }
        return false;
    }

    /** Appends this cycle's repair requests for the stream to the NACK being built; false once the NACK is full. */
    boolean appendRequests(NackBuilder nacks) {
        if (closed || !delivery.isSynced() || !positionKnown) {
            return true;
        }
        long last = relative(positionBlock);
        long runStart = -1;
        for (long r = 0; r <= last && r < windowBlocks; r++) {
            long id = (delivery.readBlock() + r) & blockMask;
            int from = r == 0 ? delivery.readSegment() : 0;
            int limit = r == last ? Math.min(positionSymbol + 1, blockSize) : blockSize;
            RxStreamBlock block = held(id);
            boolean wholeMissing = block == null && from == 0 && limit == blockSize;
            if (wholeMissing) {
                if (runStart < 0) {
                    runStart = id;
                }
                continue;
            }
            if (runStart >= 0) {
                if (!nacks.appendStreamBlocks(streamId, runStart, (id - 1) & blockMask, blockMask, blockSize)) {
                    return false;
                }
                runStart = -1;
            }
            if (from >= limit || (block != null && block.state.isComplete())) {
                continue;
            }
            if (!appendBlockRequests(nacks, id, block, from, limit, r == last && positionFlushed)) {
                return false;
            }
        }
        if (runStart >= 0) {
            long lastHeld = (delivery.readBlock() + Math.min(last, windowBlocks - 1L)) & blockMask;
            return nacks.appendStreamBlocks(streamId, runStart, lastHeld, blockMask, blockSize);
        }
        return true;
    }

    /**
     * Requests for one partly received block. When it was sent whole and parity can cover what is missing: as many
     * parity symbols as erasures, named by parity ESIs not received yet (an NRL sender reads them as a count of
     * fresh parity, and once its fresh parity ran out sends the ESIs named, so they must be ones we lack); when
     * parity cannot cover it all, the parity not received plus the last missing source symbols. Otherwise (no
     * parity, or a block the sender flushed part of and then paused in) the missing source symbols. The block a late
     * joiner started in is always asked for by source symbol (its erasure count includes what was sent before the
     * join).
     */
    private boolean appendBlockRequests(NackBuilder nacks, long id, RxStreamBlock block, int from, int limit,
                                        boolean flushedHere) {
        boolean sentWhole = limit == blockSize;
        if (decodes && from == 0) {
            if (!sentWhole && !flushedHere) {
                return true;        // parity may follow the block: ask once the sender moved past it
            }
            if (sentWhole) {
                int erasures = block == null ? blockSize : block.state.erasures();
                if (erasures <= 0) {
                    return true;    // enough symbols are here: the block decodes as soon as it can
                }
                int width = block == null ? RxBlock.trackedWidth(blockSize, symbolLimit) : block.state.width();
                int parityEnd = (int) Math.min(Math.min((long) blockSize + parityPerBlock, symbolLimit), width);
                int parityHere = block == null ? 0
                        : block.state.receivedBelow(parityEnd) - block.state.receivedBelow(blockSize);
                int unreceivedParity = parityEnd - blockSize - parityHere;
                if (unreceivedParity >= erasures) {
                    return appendMissing(nacks, id, block, blockSize, parityEnd, erasures);
                }
                if (!appendMissing(nacks, id, block, blockSize, parityEnd, unreceivedParity)) {
                    return false;
                }
                // the rest explicitly: the last missing source symbols
                int explicit = erasures - unreceivedParity;
                int sourceMissing = blockSize - (block == null ? 0 : block.state.sourceReceived());
                int s = -1;
                for (int i = 0; i <= Math.max(0, sourceMissing - explicit); i++) {
                    s = nextMissing(block, s + 1, blockSize);
                    if (s < 0) {
                        return true;
                    }
                }
                return appendMissing(nacks, id, block, s, blockSize, explicit);
            }
        }
        return appendMissing(nacks, id, block, from, limit, Integer.MAX_VALUE);
    }

    private static int nextMissing(RxStreamBlock block, int from, int to) {
        if (block == null) {
            return from < to ? from : -1;
        }
        return block.state.nextMissing(from, to);
    }

    /** Up to {@code max} symbols of [from, to) not received, in runs; false once the NACK cycle is full. */
    private boolean appendMissing(NackBuilder nacks, long id, RxStreamBlock block, int from, int to, int max) {
        int left = max;
        int s = nextMissing(block, from, to);
        while (s >= 0 && left > 0) {
            int end = s;
            while (end + 1 < to && end - s + 1 < left && (block == null || !block.state.has(end + 1))) {
                end++;
            }
            if (!nacks.appendStreamSymbols(streamId, id, s, end, blockSize)) {
                return false;
            }
            left -= end - s + 1;
            s = end + 1 < to ? nextMissing(block, end + 1, to) : -1;
        }
        return true;
    }

    // ---- closing --------------------------------------------------------------------------------------------------

    /** Frees everything held; the stream takes no more data. Idempotent. */
    void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (int i = 0; i < ring.length; i++) {
            RxStreamBlock block = ring[i];
            if (block != null) {
                free(block.id);
            }
        }
        spare.clear();
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
