package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.codec.FecPayloadId;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.RemoteEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a remote sender's objects together: takes an object's structure from the FTI extension, copies NORM_INFO
 * and source symbols into the object's container, keeps parity symbols, and FEC-decodes a block as soon as enough
 * symbols arrived. Checks every field against the object's structure and the configured limits: what does not
 * fit is counted and dropped, an object it cannot take is abandoned with its reason. Memory is taken only for what
 * arrives (a data chunk, a block's bookkeeping, a parity symbol), each charged to the session's
 * {@link ReceiveBudget} first. Owned by the session's event loop.
 */
final class ObjectAssembler {

    private static final Logger LOG = LoggerFactory.getLogger(ObjectAssembler.class);

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final RemoteSenderInfo sender;
    private final RxWindow window;
    private final ReceiveBudget budget;
    private final BlockDecoder decoder;
    private final Fti fti;
    private final DecodeSources sources;
    private int lastSegmentSize;

    ObjectAssembler(ProtocolContext ctx, RemoteSenderInfo sender, RxWindow window, BlockDecoder decoder,
                    ReceiverScratch scratch) {
        this.fti = scratch.fti;
        this.sources = scratch.sources;
        this.ctx = ctx;
        this.config = ctx.config();
        this.sender = sender;
        this.window = window;
        this.budget = window.budget();
        this.decoder = decoder;
    }

    /** Segment size of the last object described, 0 before the first. */
    int lastSegmentSize() {
        return lastSegmentSize;
    }

    /** Whether this receiver can rebuild lost symbols of an object with parity. */
    boolean canDecode(RxObject object) {
        return decoder != null && decoder.supports(object.fecId, object.fieldSize);
    }

    /** Sets the object's structure from the message's FTI; false when it has none, or one we cannot take. */
    boolean describe(RxObject object, ObjectMessageFlyweight msg) {
        int extStart = msg.extensionsIndex();
        int extEnd = msg.offset() + msg.headerLength();
        int ftiIndex = HeaderExtensions.find(msg.buffer(), extStart, extEnd, NormWire.EXT_FTI);
        if (ftiIndex < 0 || !HeaderExtensions.readFti(msg.buffer(), ftiIndex, extEnd, msg.fecId(), fti)) {
            // Without FTI (RFC 5740 lets senders send it out of band) we cannot place data: wait for a message with it.
            ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
            return false;
        }
        if (fti.transferLength() > config.maxObjectSize()) {
            window.abandon(object, LossReason.TOO_LARGE);
            return false;
        }
        if (fti.transferLength() == 0 || fti.symbolLength() < 16
                || !object.describe(fti, FecPayloadId.blockNumberMask(fti.fecId(), fti.fieldSize()))) {
            window.abandon(object, LossReason.UNSUPPORTED);
            return false;
        }
        if (!budget.charge(object, object.directoryBytes())) {
            window.abandon(object, LossReason.RECEIVER_OVERRUN);
            return false;
        }
        lastSegmentSize = fti.symbolLength();
        return true;
    }

    /** A NORM_INFO for a described object. */
    void onInfo(RxObject object, ObjectMessageFlyweight msg) {
        object.infoExpected = true;
        if (object.info != null) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        int length = msg.payloadLength();
        if (length > Math.max(object.segmentSize, 8192)) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return;
        }
        if (!budget.charge(object, length)) {
            window.abandon(object, LossReason.RECEIVER_OVERRUN);
            return;
        }
        ByteBuf info = ctx.output().allocate(Math.max(length, 1));
        info.writeBytes(msg.buffer(), msg.payloadIndex(), length);
        object.info = info;
        budget.progressed(object, ctx.nanoTime());
    }

    /** Whether a NORM_DATA's payload id fits the described object (counted as malformed when not). */
    boolean fits(RxObject object, ObjectMessageFlyweight msg) {
        if (msg.fecId() != object.fecId || msg.blockNumber(object.fieldSize) >= object.blockCount()
                || msg.symbolId(object.fieldSize) >= object.symbolLimit) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return false;
        }
        return true;
    }

    /** A NORM_DATA that {@link #fits} the object: stores its symbol, and decodes the block when it can. */
    void onData(RxObject object, ObjectMessageFlyweight msg) {
        int b = (int) msg.blockNumber(object.fieldSize);
        int symbol = msg.symbolId(object.fieldSize);
        RxBlock block = object.block(b);
        if (block != null && (block.isComplete() || block.has(symbol))) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        int k = object.partition.blockLength(b);
        int payload = msg.payloadLength();
        if (symbol < k) {
            int expected = object.partition.segmentLength(b, symbol);
            if (payload < expected) {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);
                return;
            }
            if (block == null && (block = newBlock(object, b)) == null) {
                return;
            }
            long segment = segmentIndex(object, b, symbol);
            if (object.data.isEmpty() && isDeliverableWhole(object)) {
                // The whole object in one datagram, delivered before this datagram is let go: lend the listener a
                // slice of it instead of copying (JMS batches of up to 64 KB on loopback are all like this).
                if (!budget.charge(object, expected)) {
                    window.abandon(object, LossReason.RECEIVER_OVERRUN);
                    return;
                }
                object.data.adopt(msg.buffer().retainedSlice(msg.payloadIndex(), expected));
            } else {
                if (!allocateChunk(object, segment)) {
                    return;
                }
                object.data.write(segment, msg.buffer(), msg.payloadIndex(), expected);
            }
            if (block.markSource(symbol)) {
                object.markBlockComplete(b, block);
            }
        } else {
            if (!canDecode(object)) {
                ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
                return;
            }
            // Parity is as long as the block's longest source symbol (NRL sends no more): E, except for a block
            // that is only the object's short final segment. Bytes past it are zero.
            int longest = object.partition.segmentLength(b, 0);
            if (payload < longest) {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);
                return;
            }
            if (block == null && (block = newBlock(object, b)) == null) {
                return;
            }
            if (block.parityCount() >= k) {
                ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);     // k symbols decode any block
                return;
            }
            if (!budget.charge(object, object.segmentSize)) {
                window.abandon(object, LossReason.RECEIVER_OVERRUN);
                return;
            }
            ByteBuf copy = ctx.output().allocateHeap(object.segmentSize);
            copy.writeBytes(msg.buffer(), msg.payloadIndex(), Math.min(payload, object.segmentSize));
            copy.writeZero(object.segmentSize - copy.readableBytes());
            block.addParity(symbol, copy);
        }
        budget.progressed(object, ctx.nanoTime());
        if (decoder != null && block.decodable()) {
            decode(object, b, block, k);
        }
    }

    /** Index of a source segment in the whole object (every segment but the last is E bytes). */
    private static long segmentIndex(RxObject object, int block, int symbol) {
        return object.partition.segmentOffset(block, symbol) / object.segmentSize;
    }

    /** The state of a block heard for the first time, charged to the budget; null when refused (object given up). */
    private RxBlock newBlock(RxObject object, int b) {
        if (!budget.charge(object, object.newBlockBytes(b))) {
            window.abandon(object, LossReason.RECEIVER_OVERRUN);
            return null;
        }
        return object.createBlock(b, budget.blockPool().take());
    }

    /** Allocates the data chunk holding a segment if needed; false when refused (object given up). */
    private boolean allocateChunk(RxObject object, long segment) {
        long bytes = object.data.bytesToAllocate(segment);
        if (bytes > 0) {
            if (!budget.charge(object, bytes)) {
                window.abandon(object, LossReason.RECEIVER_OVERRUN);
                return false;
            }
            object.data.allocate(segment, ctx.output().allocator());
        }
        return true;
    }

    /**
     * Whether an object is one segment that completes with the datagram at hand and is next to be released: it is
     * then delivered within this datagram's handling, so its data may be the datagram itself.
     */
    private boolean isDeliverableWhole(RxObject object) {
        return object.partition.blockCount() == 1 && object.partition.blockLength(0) == 1 && !object.infoMissing()
                && object.objectId == window.nextReleaseId();
    }

    private void decode(RxObject object, int b, RxBlock block, int k) {
        long first = segmentIndex(object, b, 0);
        for (int i = 0; i < k; i++) {
            if (!block.has(i) && !allocateChunk(object, first + i)) {
                return;
            }
        }
        int parity = object.parityPerBlock;
        for (int i = 0; i < block.parityCount(); i++) {
            parity = Math.max(parity, block.parityEsi()[i] - k + 1);
        }
        sources.object = object;
        sources.block = block;
        sources.firstSegment = first;
        boolean ok = decoder.decode(object.fecId, object.fieldSize, object.partition, b, parity, sources,
                block.parity(), block.parityEsi(), block.parityCount());
        sources.object = null;
        sources.block = null;
        if (ok) {
            object.markBlockComplete(b, block);
            ctx.counters().increment(Counter.FEC_DECODES);
        } else {
            if (ctx.remoteEvents().allow(RemoteEvent.DECODE_FAILED)) {
                LOG.warn("{}: object {} block {} did not decode (k={}, parity {}, {} parity symbols; {} more since "
                        + "the last line)", sender, object.objectId, b, k, parity, block.parityCount(),
                        ctx.remoteEvents().takeSuppressed(RemoteEvent.DECODE_FAILED));
            }
        }
    }
}
