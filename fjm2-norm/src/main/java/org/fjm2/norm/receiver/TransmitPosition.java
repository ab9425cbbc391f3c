package org.fjm2.norm.receiver;

import org.fjm2.norm.codec.NormWire;

/**
 * How far a remote sender has transmitted, as this receiver heard it: the highest (object, block, symbol) of
 * first-pass NORM_DATA or NORM_CMD(FLUSH). Repairs aside it only moves forward; a jump over symbols (the position
 * does not follow on from the last) means something was lost. Also what the object at the position says of the
 * FEC in use, for the repair requests and acknowledgements this receiver writes. Owned by the session's event loop.
 */
final class TransmitPosition {

    private final RxWindow window;
    private boolean known;
    private int objectId;
    private long block;
    private int symbol;

    TransmitPosition(RxWindow window) {
        this.window = window;
    }

    /** Whether any position was heard yet. */
    boolean isKnown() {
        return known;
    }

    int objectId() {
        return objectId;
    }

    long block() {
        return block;
    }

    int symbol() {
        return symbol;
    }

    /**
     * First-pass data at (object, block, symbol): moves the position forward. Returns true when symbols were
     * skipped (the first one heard is not the start of an object, or the data does not follow the position).
     */
    boolean advance(int objectId, long block, int symbol) {
        if (!known) {
            set(objectId, block, symbol);
            return block > 0 || symbol > 0;
        }
        int objectDelta = (objectId - this.objectId) & 0xFFFF;
        boolean forward;
        boolean inOrder;
        if (objectDelta == 0) {
            forward = block > this.block || (block == this.block && symbol > this.symbol);
            inOrder = (block == this.block && symbol == this.symbol + 1)
                    || (block == this.block + 1 && symbol == 0 && symbolEndsBlock());
        } else if (objectDelta < 0x8000) {
            forward = true;
            inOrder = objectDelta == 1 && block == 0 && symbol == 0 && endsObject();
        } else {
            forward = false;
            inOrder = true;
        }
        if (forward) {
            set(objectId, block, symbol);
            return !inOrder;
        }
        return false;
    }

    /** A FLUSH names the sender's position: move forward to it (a flush implies no gap of its own). */
    void flushAt(int objectId, long block, int symbol) {
        if (!known) {
            set(objectId, block, symbol);
            return;
        }
        int delta = (objectId - this.objectId) & 0xFFFF;
        if ((delta != 0 && delta < 0x8000) || (delta == 0 && (block > this.block
                || (block == this.block && symbol > this.symbol)))) {
            set(objectId, block, symbol);
        }
    }

    private void set(int objectId, long block, int symbol) {
        known = true;
        this.objectId = objectId;
        this.block = block;
        this.symbol = symbol;
    }

    private boolean symbolEndsBlock() {
        RxObject o = window.slot(objectId);
        return o == null || !o.described || symbol >= o.partition.blockLength((int) block) - 1;
    }

    private boolean endsObject() {
        RxObject o = window.slot(objectId);
        return o == null || !o.described || (block == o.partition.finalBlock() && symbolEndsBlock());
    }

    /** fec_id of the object at the position, RS8 while it is unknown. */
    int fecId() {
        RxObject o = window.slot(objectId);
        return o != null && o.described ? o.fecId : NormWire.FEC_RS8;
    }

    /** Field size m for a fec_id: 8 except for fec_id 2, where the object at the position tells (16 if unknown). */
    int fieldSizeFor(int fecId) {
        if (fecId != NormWire.FEC_RS) {
            return 8;
        }
        RxObject any = window.slot(objectId);
        return any != null && any.described ? any.fieldSize : 16;
    }
}
