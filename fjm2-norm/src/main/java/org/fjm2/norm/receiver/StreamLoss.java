package org.fjm2.norm.receiver;

/**
 * What a received stream lacks of what its sender has sent: the sender's transmit position (the highest first
 * transmission heard, or a FLUSH), whether anything between the read position and it is missing, and the repair
 * requests for it in a NACK — by source segment, by whole block, or by counts of parity (named by parity ESIs not
 * received yet, as NRL senders need). Owned by the session's event loop.
 */
final class StreamLoss {

    private final RxStream stream;
    private boolean positionKnown;
    private long positionBlock;
    private int positionSymbol;
    /** The position is a FLUSH's: the sender wrote no more, so a partly sent block there is asked for now. */
    private boolean positionFlushed;

    StreamLoss(RxStream stream) {
        this.stream = stream;
    }

    /**
     * A FLUSH naming (block, symbol), the last segment the sender wrote: the position moves there when it is
     * ahead. Returns whether anything up to it is missing.
     */
    boolean flushAt(long block, int symbol) {
        if (!positionKnown) {
            setPosition(block, symbol);
            positionFlushed = true;
        } else {
            long d = (block - positionBlock) & stream.blockMask;
            if ((d != 0 && d <= (stream.blockMask >>> 1)) || (d == 0 && symbol >= positionSymbol)) {
                setPosition(block, symbol);
                positionFlushed = true;
            }
        }
        return hasMissing();
    }

    /** A first transmission at (block, symbol): moves the position; true when symbols were skipped on the way. */
    boolean advance(long block, int symbol) {
        if (!positionKnown) {
            setPosition(block, symbol);
            return false;
        }
        long d = (block - positionBlock) & stream.blockMask;
        boolean forward;
        boolean inOrder;
        if (d == 0) {
            forward = symbol > positionSymbol;
            inOrder = symbol == positionSymbol + 1;
        } else if (d <= (stream.blockMask >>> 1)) {
            forward = true;
            inOrder = d == 1 && symbol == 0 && positionSymbol >= stream.blockSize - 1;
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

    /** Whether anything from the read position up to the sender's position is missing here. */
    boolean hasMissing() {
        if (stream.isClosed() || !stream.delivery().isSynced() || !positionKnown) {
            return false;
        }
        long last = stream.relative(positionBlock);
        if (last < 0) {
            return false;
        }
        for (long r = 0; r <= last && r < stream.windowBlocks; r++) {
            long id = (stream.delivery().readBlock() + r) & stream.blockMask;
            int from = r == 0 ? stream.delivery().readSegment() : 0;
            int limit = r == last ? Math.min(positionSymbol + 1, stream.blockSize) : stream.blockSize;
            if (from >= limit) {
                continue;
            }
            RxStreamBlock block = stream.held(id);
            if (block == null || (!block.state.isComplete() && block.state.nextMissing(from, limit) >= 0)) {
                return true;
            }
        }
        return false;
    }

    /** Appends this cycle's repair requests for the stream to the NACK being built; false once the NACK is full. */
    boolean appendRequests(NackBuilder nacks) {
        if (stream.isClosed() || !stream.delivery().isSynced() || !positionKnown) {
            return true;
        }
        long last = stream.relative(positionBlock);
        long runStart = -1;
        for (long r = 0; r <= last && r < stream.windowBlocks; r++) {
            long id = (stream.delivery().readBlock() + r) & stream.blockMask;
            int from = r == 0 ? stream.delivery().readSegment() : 0;
            int limit = r == last ? Math.min(positionSymbol + 1, stream.blockSize) : stream.blockSize;
            RxStreamBlock block = stream.held(id);
            boolean wholeMissing = block == null && from == 0 && limit == stream.blockSize;
            if (wholeMissing) {
                if (runStart < 0) {
                    runStart = id;
                }
                continue;
            }
            if (runStart >= 0) {
                if (!nacks.appendStreamBlocks(stream.streamId, runStart, (id - 1) & stream.blockMask, stream.blockMask, stream.blockSize)) {
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
            long lastHeld = (stream.delivery().readBlock() + Math.min(last, stream.windowBlocks - 1L)) & stream.blockMask;
            return nacks.appendStreamBlocks(stream.streamId, runStart, lastHeld, stream.blockMask, stream.blockSize);
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
        boolean sentWhole = limit == stream.blockSize;
        if (stream.decodes && from == 0) {
            if (!sentWhole && !flushedHere) {
                return true;        // parity may follow the block: ask once the sender moved past it
            }
            if (sentWhole) {
                int erasures = block == null ? stream.blockSize : block.state.erasures();
                if (erasures <= 0) {
                    return true;    // enough symbols are here: the block stream.decodes as soon as it can
                }
                int width = block == null ? RxBlock.trackedWidth(stream.blockSize, stream.symbolLimit) : block.state.width();
                int parityEnd = (int) Math.min(Math.min((long) stream.blockSize + stream.parityPerBlock, stream.symbolLimit), width);
                int parityHere = block == null ? 0
                        : block.state.receivedBelow(parityEnd) - block.state.receivedBelow(stream.blockSize);
                int unreceivedParity = parityEnd - stream.blockSize - parityHere;
                if (unreceivedParity >= erasures) {
                    return appendMissing(nacks, id, block, stream.blockSize, parityEnd, erasures);
                }
                if (!appendMissing(nacks, id, block, stream.blockSize, parityEnd, unreceivedParity)) {
                    return false;
                }
                // the rest explicitly: the last missing source symbols
                int explicit = erasures - unreceivedParity;
                int sourceMissing = stream.blockSize - (block == null ? 0 : block.state.sourceReceived());
                int s = -1;
                for (int i = 0; i <= Math.max(0, sourceMissing - explicit); i++) {
                    s = nextMissing(block, s + 1, stream.blockSize);
                    if (s < 0) {
                        return true;
                    }
                }
                return appendMissing(nacks, id, block, s, stream.blockSize, explicit);
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
            if (!nacks.appendStreamSymbols(stream.streamId, id, s, end, stream.blockSize)) {
                return false;
            }
            left -= end - s + 1;
            s = end + 1 < to ? nextMissing(block, end + 1, to) : -1;
        }
        return true;
    }
}
