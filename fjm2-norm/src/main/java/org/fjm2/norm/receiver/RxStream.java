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
 * window: one datagram stores at most one symbol (E + 8 bytes) plus its block's bookkeeping.
 *
 * <p>Its parts: {@link StreamDelivery} (the read position, delivery, gaps, the end), {@link StreamLoss} (the
 * sender's position, what is missing, the NACK requests) and {@link StreamBlockDecoder} (FEC). Owned by the session's
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
    private final StreamPayloadFlyweight payload = new StreamPayloadFlyweight();
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
    /** Whether parity can rebuild this stream's blocks here. */
    final boolean decodes;

    /** Longest stream NORM_INFO taken (NRL allows up to a segment; more is malformed). */
    static final int MAX_INFO_BYTES = MAX_SEGMENT_SIZE;
    /** Repair cycles that ask for a missing NORM_INFO before the stream goes on without it. */
    static final int MAX_INFO_REQUESTS = 8;

    private final RxStreamBlock[] ring;
    private final int ringMask;
    private long heldBytes;
    private boolean closed;
    /** The sender's data says the stream has a NORM_INFO; whether it arrived; how often it was asked for. */
    private boolean infoExpected;
    private boolean infoArrived;
    private int infoRequests;

    private final StreamLoss loss = new StreamLoss(this);
    private final StreamBlockDecoder blockDecoder;

    private RxStream(ProtocolContext ctx, RxWindow window, BlockDecoder decoder, int streamId, Fti fti,
                     int windowBlocks, long limitBytes) {
        this.ctx = ctx;
        this.budget = window.budget();
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
        this.blockDecoder = new StreamBlockDecoder(ctx, this, decoder);
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
        boolean gap = !repair && loss.advance(block, symbol);
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
            blockDecoder.decode(block);
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
    boolean charge(RxStreamBlock block, long bytes) {
        if (heldBytes + bytes > limitBytes || !budget.chargeStream(bytes)) {
            ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
            return false;
        }
        heldBytes += bytes;
        block.charged += bytes;
        return true;
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
            return loss.hasMissing();
        }
        if (ahead >= windowBlocks) {
            delivery.forceTo((block - windowBlocks + 1) & blockMask);
            if (closed) {
                return false;
            }
        }
        return loss.flushAt(block, symbol);
    }

    /** A SQUELCH naming this stream: blocks before {@code block} can no longer be repaired. */
    void onSquelch(long block) {
        block &= blockMask;
        if (delivery.isSynced() && relative(block) > 0) {
            delivery.forceTo(block);
        }
    }

    /** Bytes freed from a block (a rebuilt symbol given up). */
    void uncharge(RxStreamBlock block, int bytes) {
        heldBytes -= bytes;
        block.charged -= bytes;
        budget.unchargeStream(bytes);
    }

    /** Whether anything from the read position up to the sender's position is missing here. */
    boolean hasMissing() {
        return loss.hasMissing() || infoMissing();
    }

    /** Appends this cycle's repair requests for the stream to the NACK being built; false once the NACK is full. */
    boolean appendRequests(NackBuilder nacks) {
        if (infoMissing()) {
            infoRequests++;
            if (!nacks.appendStreamInfo(streamId, blockSize)) {
                return false;
            }
        }
        return loss.appendRequests(nacks);
    }

    /**
     * A data message flagged as having info: true the first time, when the info has not arrived (a repair cycle
     * should ask for it).
     */
    boolean infoAnnounced() {
        if (infoExpected || infoArrived) {
            return false;
        }
        infoExpected = true;
        return true;
    }

    /** The stream's NORM_INFO was delivered. */
    void infoArrived() {
        infoArrived = true;
    }

    boolean hasInfo() {
        return infoArrived;
    }

    private boolean infoMissing() {
        return infoExpected && !infoArrived && infoRequests < MAX_INFO_REQUESTS;
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

}
