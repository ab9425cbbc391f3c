package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.FecPayloadId;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.session.LossReason;
import org.fjm2.norm.session.NormConfig;
import org.fjm2.norm.session.NormContext;
import org.fjm2.norm.session.NormCounters.Counter;
import org.fjm2.norm.session.RemoteSenderInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts a remote sender's objects together: takes an object's structure from the FTI extension, copies NORM_INFO
 * and source symbols into the object's container, keeps parity symbols, and FEC-decodes a block as soon as enough
 * symbols arrived. Checks every field against the object's structure and the configured limits: what does not
 * fit is counted and dropped, an object it cannot take is abandoned with its reason. Owned by the session's event
 * loop.
 */
final class ObjectAssembler {

    private static final Logger LOG = LoggerFactory.getLogger(ObjectAssembler.class);

    private final NormContext ctx;
    private final NormConfig config;
    private final RemoteSenderInfo sender;
    private final RxWindow window;
    private final BlockDecoder decoder;
    private final Fti fti = new Fti();
    private final Presence presence = new Presence();
    private int lastSegmentSize;

    /** Which source symbols of a block arrived (reused for every decode). */
    private static final class Presence implements BlockDecoder.SourcePresence {
        RxObject object;
        int block;

        @Override
        public boolean has(int symbol) {
            return object.received.get(block, symbol);
        }
    }

    ObjectAssembler(NormContext ctx, RemoteSenderInfo sender, RxWindow window, BlockDecoder decoder) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.sender = sender;
        this.window = window;
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
        ByteBuf info = ctx.output().allocate(Math.max(length, 1));
        info.writeBytes(msg.buffer(), msg.payloadIndex(), length);
        object.info = info;
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
        int block = (int) msg.blockNumber(object.fieldSize);
        int symbol = msg.symbolId(object.fieldSize);
        int k = object.partition.blockLength(block);
        if (object.isBlockComplete(block) || object.received.get(block, symbol)) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        int payload = msg.payloadLength();
        if (symbol < k) {
            int expected = object.partition.segmentLength(block, symbol);
            if (payload < expected) {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);
                return;
            }
            if (object.data == null && isDeliverableWhole(object)) {
                // The whole object in one datagram, delivered before this datagram is let go: lend the listener a
                // slice of it instead of copying (JMS batches of up to 64 KB on loopback are all like this).
                window.adoptData(object, msg.buffer().retainedSlice(msg.payloadIndex(), expected));
            } else {
                if (object.data == null && !window.allocateData(object)) {
                    return;
                }
                int offset = (int) object.partition.segmentOffset(block, symbol);
                object.data.setBytes(offset, msg.buffer(), msg.payloadIndex(), expected);
            }
            object.received.set(block, symbol);
            if (object.received.count(block, k) == k) {
                object.markBlockComplete(block);
            }
        } else {
            if (!canDecode(object)) {
                ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
                return;
            }
            // Parity is as long as the block's longest source symbol (NRL sends no more): E, except for a block
            // that is only the object's short final segment. Bytes past it are zero.
            int longest = object.partition.segmentLength(block, 0);
            if (payload < longest) {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);
                return;
            }
            if (object.data == null && !window.allocateData(object)) {
                return;
            }
            ByteBuf copy = ctx.output().allocateHeap(object.segmentSize);
            copy.writeBytes(msg.buffer(), msg.payloadIndex(), Math.min(payload, object.segmentSize));
            copy.writeZero(object.segmentSize - copy.readableBytes());
            object.received.set(block, symbol);
            object.addParity(block, symbol, copy, object.symbolLimit - k);
        }
        if (!object.isBlockComplete(block) && decoder != null && object.parityCount[block] > 0
                && object.received.count(block, object.symbolLimit) >= k) {
            decode(object, block, k);
        }
    }

    /**
     * Whether an object is one segment that completes with the datagram at hand and is next to be released: it is
     * then delivered within this datagram's handling, so its data may be the datagram itself.
     */
    private boolean isDeliverableWhole(RxObject object) {
        return object.partition.blockCount() == 1 && object.partition.blockLength(0) == 1 && !object.infoMissing()
                && object.objectId == window.nextReleaseId();
    }

    private void decode(RxObject object, int block, int k) {
        int parity = object.parityPerBlock;
        for (int i = 0; i < object.parityCount[block]; i++) {
            parity = Math.max(parity, object.parityEsi[block][i] - k + 1);
        }
        presence.block = block;
        presence.object = object;
        boolean ok = decoder.decode(object.fecId, object.fieldSize, object.data, object.partition, block,
                parity, presence, object.parity[block], object.parityEsi[block], object.parityCount[block]);
        if (ok) {
            object.received.setRange(block, 0, k);
            object.markBlockComplete(block);
            ctx.counters().increment(Counter.FEC_DECODES);
        } else {
            LOG.warn("{}: object {} block {} did not decode (k={}, parity {}, {} parity symbols)", sender,
                    object.objectId, block, k, parity, object.parityCount[block]);
        }
    }
}
