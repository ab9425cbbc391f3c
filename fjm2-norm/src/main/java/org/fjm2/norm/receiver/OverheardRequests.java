package org.fjm2.norm.receiver;

import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.RepairRequestReader;

/**
 * What other receivers asked a remote sender to repair during this receiver's NACK back-off (RFC 5740 section
 * 5.3): symbols, blocks and info on the objects themselves ({@link RxObject}, {@link RxBlock}), and here a few
 * ranges of object ids for objects not heard at all. The repairs they asked for reach us too, so our NACK is sent
 * only when it asks for something not covered. Cleared when a back-off starts. The work per NACK follows what the
 * NACK names and what we hold, never the ranges it claims: symbol ranges are marked word by word in blocks we
 * have, block and object ranges are kept as ranges. Owned by the session's event loop.
 */
final class OverheardRequests {

    /** Ranges of unheard object ids kept per back-off; more are not kept (our NACK is then simply not suppressed). */
    static final int MAX_MISSING_RANGES = 8;
    /** Objects and blocks one NACK may make us look at; the rest of a NACK that names more is ignored. */
    static final int MAX_WORK_PER_NACK = 1 << 14;

    private final RxWindow window;
    private final TransmitPosition position;
    private final RepairRequestReader reader;
    /** Allocated when another receiver first asks for objects we never heard (most senders never need them). */
    private int[] missingFirst;
    private int[] missingCount;
    private int missingRanges;
    private int workLeft;

    OverheardRequests(RxWindow window, TransmitPosition position, ReceiverScratch scratch) {
        this.reader = scratch.reader;
        this.window = window;
        this.position = position;
    }

    /** Marks what another receiver's NACK to the sender asks for. */
    void onNack(FeedbackFlyweight nack) {
        int fecId = position.fecId();
        int start = nack.payloadIndex();
        reader.reset(nack.buffer(), start, start + nack.payloadLength(), fecId, position.fieldSizeFor(fecId));
        workLeft = MAX_WORK_PER_NACK;
        while (reader.nextRequest() && workLeft > 0) {
            int flags = reader.flags();
            while (reader.nextEntry() && workLeft > 0) {
                workLeft--;
                markHeard(flags, reader.objectId(), reader.blockNumber(), reader.symbolId(), reader.lastObjectId(),
                        reader.lastBlockNumber(), reader.lastSymbolId());
            }
        }
    }

    private void markHeard(int flags, int objectId, long block, int symbol, int lastObjectId, long lastBlock,
                           int lastSymbol) {
        if ((flags & NormWire.REPAIR_SEGMENT) != 0) {
            RxObject o = window.slot(objectId);
            if (o != null && o.described && block < o.blockCount()) {
                RxBlock b = o.block((int) block);
                if (b != null) {
                    b.markRequestedByOthers(symbol, Math.min(lastSymbol, o.symbolLimit - 1));
                } else {
                    o.blocksRequestedByOthers.add(block, block);
                }
                o.heardByOthers = true;
                if ((flags & NormWire.REPAIR_INFO) != 0) {
                    o.infoRequestedByOthers = true;
                }
            }
        } else if ((flags & NormWire.REPAIR_BLOCK) != 0) {
            RxObject o = window.slot(objectId);
            if (o != null && o.described && block < o.blockCount()) {
                o.blocksRequestedByOthers.add(block, Math.min(lastBlock, o.blockCount() - 1L));
                o.heardByOthers = true;
            }
        } else if ((flags & (NormWire.REPAIR_OBJECT | NormWire.REPAIR_INFO)) != 0) {
            int count = ((lastObjectId - objectId) & 0xFFFF) + 1;
            if (count >= 0x8000) {
                return;
            }
            if ((flags & NormWire.REPAIR_OBJECT) != 0) {
                addMissingRange(objectId, count);
            }
            // Objects we hold in that range: at most the window's slots, not the range's length.
            int held = Math.min(Math.min(count, window.capacity()), workLeft);
            workLeft -= held;
            for (int i = 0; i < held; i++) {
                RxObject o = window.slot((objectId + i) & 0xFFFF);
                if (o != null) {
                    o.heardByOthers = true;
                    o.infoRequestedByOthers = true;
                    if ((flags & NormWire.REPAIR_OBJECT) != 0) {
                        o.wholeRequestedByOthers = true;
                    }
                }
            }
        }
    }

    private void addMissingRange(int firstId, int count) {
        if (missingFirst == null) {
            missingFirst = new int[MAX_MISSING_RANGES];
            missingCount = new int[MAX_MISSING_RANGES];
        }
        if (missingRanges < MAX_MISSING_RANGES) {
            missingFirst[missingRanges] = firstId;
            missingCount[missingRanges] = count;
            missingRanges++;
        }
    }

    /** Whether another receiver asked for this whole object, not heard by us at all. */
    boolean isMissingRequested(int id) {
        for (int i = 0; i < missingRanges; i++) {
            if (((id - missingFirst[i]) & 0xFFFF) < missingCount[i]) {
                return true;
            }
        }
        return false;
    }

    /** Forgets everything heard (a new back-off starts). */
    void clear() {
        missingRanges = 0;
        if (!position.isKnown()) {
            return;
        }
        int count = ((position.objectId() - window.nextReleaseId()) & 0xFFFF) + 1;
        for (int i = 0; i < count && i < window.capacity(); i++) {
            RxObject o = window.slot((window.nextReleaseId() + i) & 0xFFFF);
            if (o != null && o.heardByOthers) {
                o.clearRequestedByOthers();
            }
        }
    }
}
