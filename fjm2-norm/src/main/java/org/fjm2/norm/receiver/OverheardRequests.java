package org.fjm2.norm.receiver;

import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.RepairRequestReader;

/**
 * What other receivers asked a remote sender to repair during this receiver's NACK back-off (RFC 5740 section
 * 5.3): symbols, blocks and info on the objects themselves ({@link RxObject#requestedByOthers} and friends), and
 * here a bit per window slot for objects not heard at all. The repairs they asked for reach us too, so our NACK
 * is sent only when it asks for something not covered. Cleared when a back-off starts. Owned by the session's
 * event loop.
 */
final class OverheardRequests {

    private final RxWindow window;
    private final TransmitPosition position;
    private final RepairRequestReader reader = new RepairRequestReader();
    /** OBJECT-level requests heard for objects we have no slot for, by slot. */
    private final long[] missingRequested;
    private final int slotMask;

    OverheardRequests(RxWindow window, TransmitPosition position) {
        this.window = window;
        this.position = position;
        this.missingRequested = new long[(window.capacity() + 63) >>> 6];
        this.slotMask = window.capacity() - 1;
    }

    /** Marks what another receiver's NACK to the sender asks for. */
    void onNack(FeedbackFlyweight nack) {
        int fecId = position.fecId();
        int start = nack.payloadIndex();
        reader.reset(nack.buffer(), start, start + nack.payloadLength(), fecId, position.fieldSizeFor(fecId));
        while (reader.nextRequest()) {
            int flags = reader.flags();
            while (reader.nextEntry()) {
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
                int end = Math.min(lastSymbol, o.symbolLimit - 1);
                for (int s = symbol; s <= end; s++) {
                    o.requestedByOthers.set((int) block, s);
                }
                o.heardByOthers = true;
                if ((flags & NormWire.REPAIR_INFO) != 0) {
                    o.infoRequestedByOthers = true;
                }
            }
        } else if ((flags & NormWire.REPAIR_BLOCK) != 0) {
            RxObject o = window.slot(objectId);
            if (o != null && o.described) {
                long end = Math.min(lastBlock, o.blockCount() - 1L);
                for (long b = block; b <= end; b++) {
                    o.markBlockRequestedByOthers((int) b);
                    int k = o.partition.blockLength((int) b);
                    for (int s = 0; s < o.symbolLimit; s++) {
                        if (s < k) {
                            o.requestedByOthers.set((int) b, s);
                        }
                    }
                }
                o.heardByOthers = true;
            }
        } else if ((flags & (NormWire.REPAIR_OBJECT | NormWire.REPAIR_INFO)) != 0) {
            int count = ((lastObjectId - objectId) & 0xFFFF) + 1;
            for (int i = 0; i < count && i < window.capacity(); i++) {
                int id = (objectId + i) & 0xFFFF;
                RxObject o = window.slot(id);
                if (o == null) {
                    if ((flags & NormWire.REPAIR_OBJECT) != 0) {
                        markMissingRequested(id);
                    }
                } else {
                    o.heardByOthers = true;
                    o.infoRequestedByOthers = true;
                    if ((flags & NormWire.REPAIR_OBJECT) != 0 && o.described) {
                        for (int b = 0; b < o.blockCount(); b++) {
                            o.markBlockRequestedByOthers(b);
                            o.requestedByOthers.setRange(b, 0, o.partition.blockLength(b));
                        }
                    }
                }
            }
        }
    }

    private void markMissingRequested(int id) {
        int slot = id & slotMask;
        missingRequested[slot >>> 6] |= 1L << slot;
    }

    /** An object got its slot: what was heard for its id before belongs to another object. */
    void clearMissingRequested(int id) {
        int slot = id & slotMask;
        missingRequested[slot >>> 6] &= ~(1L << slot);
    }

    /** Whether another receiver asked for this whole object, not heard by us at all. */
    boolean isMissingRequested(int id) {
        int slot = id & slotMask;
        return (missingRequested[slot >>> 6] & (1L << slot)) != 0;
    }

    /** Forgets everything heard (a new back-off starts). */
    void clear() {
        java.util.Arrays.fill(missingRequested, 0L);
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
