package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.RepairRequestWriter;
import org.fjm2.norm.protocol.ProtocolContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Builds and sends one repair cycle's NACKs to a remote sender: everything missing from the release point up to
 * the sender's transmit position, as OBJECT requests for objects never heard, BLOCK requests for blocks never
 * heard, and SEGMENT requests for the rest — parity ESIs as many as erasures remain where parity can repair them.
 * Requests go in ITEMS (runs of one or two) or RANGES, over up to {@link #MAX_NACKS_PER_CYCLE} datagrams of one
 * segment each. A NACK is sent only when it asks for something other receivers have not asked for already
 * ({@link OverheardRequests}). The sender's stream, if any, adds its requests after the objects'
 * ({@link RxStream#appendRequests}: never suppressed). Owned by the session's event loop.
 */
final class NackBuilder {

    private static final Logger LOG = LoggerFactory.getLogger(NackBuilder.class);

    /** NACK datagrams sent per repair cycle at most (each carries up to one segment of repair requests). */
    static final int MAX_NACKS_PER_CYCLE = 8;
    /** Smallest NACK payload budget when the sender's segment size is not known yet. */
    static final int MIN_NACK_PAYLOAD = 512;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final RemoteSenderInfo sender;
    private final RxWindow window;
    private final TransmitPosition position;
    private final ObjectAssembler assembler;
    private final OverheardRequests overheard;
    private final ReceiverFeedback feedback;
    private final RxStreams streams;
    private final RepairRequestWriter writer;
    /** fec_id and field size of the NACK being built (its requests' payload ids). */
    private int nackFecId;
    private int nackM;
    private boolean nackHasUncovered;
    private ByteBuf nackPacket;
    private int nacksThisCycle;
    /** The cycle's datagrams are full: stop looking for more to ask (the work follows what can be sent). */
    private boolean cycleFull;

    NackBuilder(ProtocolContext ctx, RemoteSenderInfo sender, RxWindow window, TransmitPosition position,
                ObjectAssembler assembler, OverheardRequests overheard, ReceiverFeedback feedback,
                RxStreams streams, ReceiverScratch scratch) {
        this.writer = scratch.writer;
        this.ctx = ctx;
        this.config = ctx.config();
        this.sender = sender;
        this.window = window;
        this.position = position;
        this.assembler = assembler;
        this.overheard = overheard;
        this.feedback = feedback;
        this.streams = streams;
    }

    /** Builds and sends this cycle's NACK(s); false when there was nothing to ask that others had not asked. */
    boolean sendNacks() {
        RxStream stream = streams.current();
        boolean streamMissing = stream != null && stream.hasMissing();
        int nextReleaseId = window.nextReleaseId();
        int count = position.isKnown() ? ((position.objectId() - nextReleaseId) & 0xFFFF) + 1 : 0x8000;
        if (count >= 0x8000 && !streamMissing) {
            return false;
        }
        startCycle();
        if (count >= 0x8000) {
            beginNack(stream.fecId, stream.fieldSize);
            stream.appendRequests(this);
            return finishNack(true);
        }
        beginNack();
        appendObjects(nextReleaseId, count);
        if (streamMissing && !cycleFull && nacksThisCycle < MAX_NACKS_PER_CYCLE) {
            if (stream.fecId != nackFecId || stream.fieldSize != nackM) {
                finishNack(false);
                beginNack(stream.fecId, stream.fieldSize);
            }
            stream.appendRequests(this);
        }
        return finishNack(true);
    }

    /**
     * Objects one NACK sent during hold-off looks at, at most: it goes out per data message that shows a loss, so its
     * work must not follow how far a (forged) message moved the transmit position; what lies beyond is asked for by
     * the cycle after the hold-off.
     */
    static final int MAX_OBJECTS_BEYOND_HORIZON = 256;

    /**
     * A NACK for what is missing from object {@code firstObjectId} towards the transmit position only (the objects a
     * cycle in hold-off has not asked for), over at most {@link #MAX_OBJECTS_BEYOND_HORIZON} objects; false when
     * nothing there was missing or the position is before it.
     */
    boolean sendNacksFrom(int firstObjectId) {
        int count = position.isKnown() ? ((position.objectId() - firstObjectId) & 0xFFFF) + 1 : 0x8000;
        if (count >= 0x8000) {
            return false;
        }
        count = Math.min(count, MAX_OBJECTS_BEYOND_HORIZON);
        startCycle();
        beginNack();
        appendObjects(firstObjectId, count);
        return finishNack(true);
    }

    private void startCycle() {
        nacksThisCycle = 0;
        nackHasUncovered = false;
        cycleFull = false;
    }

    private void appendObjects(int nextReleaseId, int count) {
        int missingRunStart = -1;
        int missingRunLength = 0;
        for (int i = 0; i < count && nacksThisCycle < MAX_NACKS_PER_CYCLE && !cycleFull; i++) {
            int id = (nextReleaseId + i) & 0xFFFF;
            RxObject o = window.slot(id);
            if (o == null) {
                if (missingRunLength == 0) {
                    missingRunStart = id;
                }
                missingRunLength++;
                if (!overheard.isMissingRequested(id)) {
                    nackHasUncovered = true;
                }
                continue;
            }
            if (missingRunLength > 0) {
                appendMissingObjects(missingRunStart, missingRunLength);
                missingRunLength = 0;
            }
            if (!o.complete) {
                appendObjectRequests(o, id == position.objectId());
            }
        }
        if (missingRunLength > 0) {
            appendMissingObjects(missingRunStart, missingRunLength);
        }
    }

    private int nackPayloadBudget() {
        RxStream stream = streams.current();
        int streamSegment = stream == null ? 0 : stream.segmentSize;
        return Math.max(Math.max(assembler.lastSegmentSize(), streamSegment), MIN_NACK_PAYLOAD);
    }

    private void beginNack() {
        int fecId = position.fecId();
        beginNack(fecId, position.fieldSizeFor(fecId));
    }

    private void beginNack(int fecId, int m) {
        nackFecId = fecId;
        nackM = m;
        nackPacket = ctx.output().allocate(ReceiverFeedback.NACK_HEADER_ROOM + 16 + nackPayloadBudget());
        writer.reset(nackPacket, nackPacket.writerIndex() + ReceiverFeedback.NACK_HEADER_ROOM, nackPayloadBudget(),
                fecId, m);
    }

    /** Sends the NACK being built (if it has content not covered by others); returns whether one was sent. */
    private boolean finishNack(boolean last) {
        writer.close();
        boolean sent = false;
        if (!writer.isEmpty() && nackHasUncovered) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("{}: NACK #{} with {} bytes of requests (release point {}, position {}/{}/{})", sender,
                        nacksThisCycle, writer.length(), window.nextReleaseId(), position.objectId(),
                        position.block(), position.symbol());
            }
            feedback.sendNack(nackPacket, writer.length());
            ctx.counters().increment(Counter.NACKS_SENT);
            nacksThisCycle++;
            sent = true;
        } else {
            nackPacket.release();
        }
        nackPacket = null;
        if (!last) {
            beginNack(nackFecId, nackM);
        }
        return sent;
    }

    /** Rolls over to a fresh NACK datagram when the current one is full. */
    private boolean roomFor(int form, int items) {
        if (writer.remainingItems() >= items + (form == NormWire.FORM_RANGES ? 1 : 0)) {
            return true;
        }
        if (nacksThisCycle + 1 >= MAX_NACKS_PER_CYCLE) {
            cycleFull = true;
            return false;
        }
        boolean uncovered = nackHasUncovered;
        finishNack(false);
        nackHasUncovered = uncovered;
        return true;
    }

    // ---- stream requests (RxStream) --------------------------------------------------------------------------------

    /**
     * SEGMENT requests for symbols [first, last] of one stream block; false once the cycle's NACKs are full. Stream
     * requests are never suppressed by other receivers' NACKs.
     */
    boolean appendStreamSymbols(int streamId, long block, int first, int last, int k) {
        nackHasUncovered = true;
        int run = last - first + 1;
        int form = run <= 2 ? NormWire.FORM_ITEMS : NormWire.FORM_RANGES;
        if (!roomFor(form, run <= 2 ? run : 2) || !writer.open(form, NormWire.REPAIR_SEGMENT)) {
            return false;
        }
        if (form == NormWire.FORM_ITEMS) {
            writer.item(streamId, block, first, k);
            if (run == 2) {
                writer.item(streamId, block, last, k);
            }
        } else {
            writer.range(streamId, block, first, streamId, block, last, k);
        }
        writer.close();
        return !cycleFull;
    }

    /** An INFO request for a stream's NORM_INFO; false once the cycle's NACKs are full. */
    boolean appendStreamInfo(int streamId, int k) {
        nackHasUncovered = true;
        if (!roomFor(NormWire.FORM_ITEMS, 1) || !writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_INFO)) {
            return false;
        }
        writer.item(streamId, 0, 0, k);
        writer.close();
        return !cycleFull;
    }

    /**
     * BLOCK requests for stream blocks [first, last] (ids modulo {@code mask + 1}; a run across the wrap goes as two
     * ranges); false once the cycle's NACKs are full.
     */
    boolean appendStreamBlocks(int streamId, long first, long last, long mask, int k) {
        if (last < first) {
            return appendStreamBlocks(streamId, first, mask, mask, k) && appendStreamBlocks(streamId, 0, last, mask, k);
        }
        nackHasUncovered = true;
        int form = first == last ? NormWire.FORM_ITEMS : NormWire.FORM_RANGES;
        if (!roomFor(form, form == NormWire.FORM_ITEMS ? 1 : 2) || !writer.open(form, NormWire.REPAIR_BLOCK)) {
            return false;
        }
        if (form == NormWire.FORM_ITEMS) {
            writer.item(streamId, first, 0, k);
        } else {
            writer.range(streamId, first, 0, streamId, last, 0, k);
        }
        writer.close();
        return !cycleFull;
    }

    private void appendMissingObjects(int firstId, int length) {
        int b = config.blockSize();
        if (length <= 2) {
            if (!roomFor(NormWire.FORM_ITEMS, length) || !writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_OBJECT)) {
                return;
            }
            for (int i = 0; i < length; i++) {
                writer.item((firstId + i) & 0xFFFF, 0, 0, b);
            }
        } else {
            if (!roomFor(NormWire.FORM_RANGES, 2) || !writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_OBJECT)) {
                return;
            }
            writer.range(firstId, 0, 0, (firstId + length - 1) & 0xFFFF, 0, 0, b);
        }
        writer.close();
    }

    /** Appends the repair requests for what is missing of one known object. */
    private void appendObjectRequests(RxObject o, boolean current) {
        if (!o.described) {
            // Heard it without FTI: ask for everything.
            if (!o.heardByOthers) {
                nackHasUncovered = true;
            }
            if (roomFor(NormWire.FORM_ITEMS, 1) && writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_OBJECT)) {
                writer.item(o.objectId, 0, 0, config.blockSize());
                writer.close();
            }
            return;
        }
        int infoFlag = o.infoMissing() ? NormWire.REPAIR_INFO : 0;
        if (infoFlag != 0 && !o.infoRequestedByOthers) {
            nackHasUncovered = true;
        }
        long posBlock = position.block();
        long lastBlock = current ? Math.min(posBlock, o.partition.finalBlock()) : o.partition.finalBlock();
        boolean anyBlockRequest = false;
        // Blocks never heard at all (and fully sent): BLOCK requests, grouped in runs; a page of blocks never
        // heard is passed in one step, so the scan follows the blocks we hold, not the count the FTI announces.
        int runStart = -1;
        int b = o.firstIncompleteBlock();
        while (b <= lastBlock && !cycleFull) {
            RxBlock block = o.block(b);
            boolean currentBlock = current && b == posBlock;
            if (block == null && !currentBlock) {
                int end = b;
                if (b % RxObject.PAGE_BLOCKS == 0 && o.pageEmpty(b)) {
                    end = (int) Math.min(lastBlock, b + RxObject.PAGE_BLOCKS - 1L);
                    if (current && end >= posBlock) {
                        end = (int) posBlock - 1;
                    }
                }
                if (runStart < 0) {
                    runStart = b;
                }
                if (!coveredByOthers(o, b, end)) {
                    nackHasUncovered = true;
                }
                b = end + 1;
                continue;
            }
            if (runStart >= 0) {
                appendBlockRun(o, runStart, b - 1, infoFlag);
                anyBlockRequest = true;
                runStart = -1;
            }
            if (block == null || !block.isComplete()) {
                anyBlockRequest |= appendSegmentRequests(o, b, block, currentBlock, infoFlag);
            }
            b++;
        }
        if (runStart >= 0 && !cycleFull) {
            appendBlockRun(o, runStart, (int) lastBlock, infoFlag);
            anyBlockRequest = true;
        }
        if (infoFlag != 0 && !anyBlockRequest) {
            if (roomFor(NormWire.FORM_ITEMS, 1) && writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_INFO)) {
                writer.item(o.objectId, 0, 0, o.partition.blockLength(0));
                writer.close();
            }
        }
    }

    /** Whether other receivers asked for every block of [first, last] whole. */
    private static boolean coveredByOthers(RxObject o, int first, int last) {
        if (o.wholeRequestedByOthers) {
            return true;
        }
        return o.blocksRequestedByOthers.contains(first) && o.blocksRequestedByOthers.contains(last);
    }

    private void appendBlockRun(RxObject o, int first, int last, int infoFlag) {
        int k = o.partition.blockLength(first);
        if (first == last) {
            if (roomFor(NormWire.FORM_ITEMS, 1) && writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_BLOCK | infoFlag)) {
                writer.item(o.objectId, first, 0, k);
            }
        } else if (roomFor(NormWire.FORM_RANGES, 2)
                && writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_BLOCK | infoFlag)) {
            writer.range(o.objectId, first, 0, o.objectId, last, 0, k);
        }
        writer.close();
    }

    /**
     * SEGMENT requests for a partly received block ({@code block} null: nothing of it arrived yet). With parity, once
     * the block has been sent whole, ask for as many parity symbols as erasures remain (ESIs from k upward that have
     * not arrived; the sender answers a count of parity ESIs with fresh parity, NRL-style): one parity symbol
     * repairs a different loss at each receiver. When the parity range cannot cover the erasures, ask for the
     * remaining source symbols explicitly.
     */
    private boolean appendSegmentRequests(RxObject o, int b, RxBlock block, boolean currentBlock, int infoFlag) {
        int k = o.partition.blockLength(b);
        int parity = o.parityPerBlock;
        int posSymbol = position.symbol();
        boolean blockSent = !currentBlock || posSymbol >= k - 1;
        int limit = blockSent ? k : Math.min(posSymbol, k);
        int erasures = block == null ? k : block.erasures();
        if (erasures <= 0) {
            return false;
        }
        boolean parityRepair = assembler.canDecode(o) && parity > 0;
        if (parityRepair && !blockSent) {
            // The sender is still sending this block, parity may follow: ask once it has moved past the block (as
            // NRL NORM receivers do), when parity can repair it, rather than for source symbols now.
            return false;
        }
        boolean useParity = blockSent && parityRepair;
        if (!useParity) {
            return appendSymbolRuns(o, b, block, 0, limit, k, infoFlag, Integer.MAX_VALUE);
        }
        int width = block == null ? RxBlock.trackedWidth(k, o.symbolLimit) : block.width();
        int parityEnd = (int) Math.min(Math.min((long) k + parity, o.symbolLimit), width);
        int parityHere = block == null ? 0 : block.receivedBelow(parityEnd) - block.receivedBelow(k);
        int unreceivedParity = (parityEnd - k) - parityHere;
        if (unreceivedParity >= erasures) {
            return appendSymbolRuns(o, b, block, k, parityEnd, k, infoFlag, erasures);
        }
        boolean any = appendSymbolRuns(o, b, block, k, parityEnd, k, infoFlag, unreceivedParity);
        // the rest explicitly: the last missing source symbols
        int explicit = erasures - unreceivedParity;
        int sourceMissing = k - (block == null ? 0 : block.sourceReceived());
        int skip = Math.max(0, sourceMissing - explicit);
        int s = -1;
        for (int i = 0; i <= skip; i++) {
            s = nextMissing(block, s + 1, limit);
            if (s < 0) {
                return any;
            }
        }
        return any | appendSymbolRuns(o, b, block, s, limit, k, infoFlag, explicit);
    }

    private static int nextMissing(RxBlock block, int from, int to) {
        if (block == null) {
            return from < to ? from : -1;
        }
        return block.nextMissing(from, to);
    }

    private static boolean requestedByOthers(RxObject o, int b, RxBlock block, int esi) {
        return o.wholeRequestedByOthers || o.blocksRequestedByOthers.contains(b)
                || (block != null && block.requestedByOthers(esi));
    }

    /**
     * Appends up to {@code max} not-received symbols of [from, to) as ITEMS (runs of 1-2) and RANGES (longer runs).
     */
    private boolean appendSymbolRuns(RxObject o, int b, RxBlock block, int from, int to, int k, int infoFlag,
                                     int max) {
        boolean any = false;
        int left = max;
        int s = nextMissing(block, from, to);
        while (s >= 0 && left > 0) {
            int end = s;
            while (end + 1 < to && end - s + 1 < left && (block == null || !block.has(end + 1))) {
                end++;
            }
            for (int x = s; x <= end && !nackHasUncovered; x++) {
                if (!requestedByOthers(o, b, block, x)) {
                    nackHasUncovered = true;
                }
            }
            int run = end - s + 1;
            if (run <= 2) {
                if (!roomFor(NormWire.FORM_ITEMS, run)
                        || !writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_SEGMENT | infoFlag)) {
                    return any;
                }
                writer.item(o.objectId, b, s, k);
                if (run == 2) {
                    writer.item(o.objectId, b, end, k);
                }
            } else {
                if (!roomFor(NormWire.FORM_RANGES, 2)
                        || !writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_SEGMENT | infoFlag)) {
                    return any;
                }
                writer.range(o.objectId, b, s, o.objectId, b, end, k);
            }
            writer.close();
            any = true;
            left -= run;
            s = end + 1 < to ? nextMissing(block, end + 1, to) : -1;
        }
        return any;
    }
}
