package org.fjm2.norm.sender;

import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.GrttTimer;

/**
 * The repair cycle of a sending stream (RFC 5740 section 5.3, as {@link RepairScheduler} runs it for objects): the
 * requests of NACKs naming the stream are marked on its blocks for (B+1)*GRTT of aggregation, then become pending,
 * and new cycles are held off for one GRTT. SEGMENT requests name source segments, or parity ESIs that count
 * erasures (answered with fresh parity, NRL-style); BLOCK requests ask for a whole block; an INFO request asks for the
 * stream's NORM_INFO again (sent once per GRTT at most, {@link StreamSender}). A request for a block the
 * buffer no longer holds, or for an object while the sender holds none, makes a SQUELCH due, naming the stream and
 * its oldest block held (an object squelch would name the next object id, after the stream, and close the stream at
 * its receivers). Work per NACK is capped. Owned by the session's event loop.
 */
final class StreamRepairs {

    private final ProtocolContext ctx;
    private final GrttEstimator grtt;
    private final AdvertisedBackoff backoff;
    private final RepairRequestReader reader = new RepairRequestReader();
    private final GrttTimer timer;
    private final Runnable onActivated;
    private final java.util.function.BooleanSupplier noObjects;
    private TxStreamRing ring;
    private int streamId = -1;
    private boolean holdoff;
    private boolean squelchDue;
    private boolean infoRequested;

    /**
     * @param noObjects whether the sender holds no object: requests for other object ids are then for objects gone,
     *                  answered with the stream's SQUELCH (the stream is the oldest thing held, as an NRL sender
     *                  squelches)
     */
    StreamRepairs(ProtocolContext ctx, GrttEstimator grtt, AdvertisedBackoff backoff, Runnable onActivated,
                  java.util.function.BooleanSupplier noObjects) {
        this.ctx = ctx;
        this.grtt = grtt;
        this.backoff = backoff;
        this.onActivated = onActivated;
        this.noObjects = noObjects;
        this.timer = new GrttTimer("sender-stream-repair", ctx, grtt::advertisedNanos, this::onTimer);
    }

    /** Follows a new stream (null: none). */
    void follow(TxStreamRing ring, int streamId) {
        this.ring = ring;
        this.streamId = ring == null ? -1 : streamId;
        this.squelchDue = false;
        this.infoRequested = false;
        if (ring == null) {
            timer.cancel();
            holdoff = false;
        }
    }

    /** Takes a due SQUELCH: true when one was due. */
    boolean takeSquelch() {
        boolean due = squelchDue;
        squelchDue = false;
        return due;
    }

    boolean squelchDue() {
        return squelchDue;
    }

    /** Takes a request for the stream's NORM_INFO: true when a receiver asked for it since the last call. */
    boolean takeInfoRequest() {
        boolean requested = infoRequested;
        infoRequested = false;
        return requested;
    }

    /** A NACK of this sender instance: applies the requests that name the stream. */
    void onNack(FeedbackFlyweight nack) {
        if (ring == null) {
            return;
        }
        long now = ctx.nanoTime();
        int start = nack.payloadIndex();
        reader.reset(nack.buffer(), start, start + nack.payloadLength(), SenderPackets.FEC_ID, SenderPackets.FEC_M);
        boolean applied = false;
        int work = RepairScheduler.MAX_WORK_PER_NACK;
        while (reader.nextRequest() && work > 0) {
            int flags = reader.flags();
            long erasureBlock = -1;
            int erasures = 0;
            while (reader.nextEntry() && work-- > 0) {
                if (reader.objectId() != streamId) {
                    squelchDue |= noObjects.getAsBoolean();
                    continue;
                }
                if ((flags & NormWire.REPAIR_INFO) != 0 && !infoRequested) {
                    infoRequested = true;
                    ctx.wakeTransmitter();
                }
                long block = reader.blockNumber();
                if ((flags & NormWire.REPAIR_SEGMENT) != 0) {
                    if (block != erasureBlock) {
                        applied |= parityFor(erasureBlock, erasures, now);
                        erasureBlock = block;
                        erasures = 0;
                    }
                    int last = Math.min(reader.lastSymbolId(), ring.blockSize + ring.parity - 1);
                    work -= Math.max(0, last - reader.symbolId());
                    for (int s = reader.symbolId(); s <= last; s++) {
                        if (s < ring.blockSize) {
                            applied |= result(ring.requestSegment(block, s, now));
                        } else {
                            erasures++;
                        }
                    }
                } else if ((flags & NormWire.REPAIR_BLOCK) != 0) {
                    long count = ((reader.lastBlockNumber() - block) & TxStreamRing.BLOCK_MASK) + 1;
                    for (long b = 0; b < count && b < ring.blocks && work > 0; b++, work -= ring.blockSize) {
                        applied |= result(ring.requestBlock((block + b) & TxStreamRing.BLOCK_MASK, now));
                    }
                }
            }
            applied |= parityFor(erasureBlock, erasures, now);
        }
        if (reader.malformed() || work <= 0) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
        }
        if (applied && !holdoff && !timer.isActive()) {
            timer.schedule(now, backoff.factor() + 1.0);
        }
        if (squelchDue) {
            ctx.wakeTransmitter();
        }
    }

    private boolean parityFor(long block, int erasures, long now) {
        return block >= 0 && erasures > 0 && result(ring.requestParity(block, erasures, now));
    }

    private boolean result(int outcome) {
        if (outcome == TxStreamRing.REQUEST_GONE) {
            squelchDue = true;
            return false;
        }
        return outcome == TxStreamRing.REQUEST_NEW && !holdoff;
    }

    private void onTimer() {
        if (ring == null) {
            return;
        }
        if (holdoff) {
            holdoff = false;
            if (ring.hasRequests()) {
                // asked for during the hold-off: another aggregation (a block asked for is never reused before)
                timer.schedule(ctx.nanoTime(), backoff.factor() + 1.0);
            }
            return;
        }
        if (ring.activateRequests()) {
            onActivated.run();
        }
        holdoff = true;
        timer.schedule(ctx.nanoTime(), 1.0);
    }
}
