package org.fjm2.norm.sender;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.protocol.GrttTimer;
import org.fjm2.norm.protocol.ProtocolContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sender's repair cycle (RFC 5740 section 5.3): turns the requests of NACKs into repair marks on the cached
 * objects, aggregates them for (B+1)*GRTT, then makes them pending transmission and holds off new cycles for one
 * GRTT. Parity requests (erasure counts) are answered with fresh parity first, every parity symbol again once
 * fresh parity ran out. During hold-off, requests for data the transmit position has not passed yet are taken
 * (they go out with the first pass); so are, when the advertised back-off is 0 and there is no parity (no
 * aggregation: a small group), requests for objects the cycle did not repair — a loss after the cycle began is not
 * a request for what is already on its way, and making it wait for the hold-off's end stalled in-order delivery a
 * round trip per loss on a lossy WAN. Owned by the session's event loop.
 */
final class RepairScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(RepairScheduler.class);

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final TxWindow window;
    private final GrttEstimator grtt;
    private final AdvertisedBackoff backoff;
    private final RepairRequestReader requestReader = new RepairRequestReader();
    private final GrttTimer repairTimer;
    private boolean holdoff;
    /**
     * Grows with every activation and every NACK applied: {@link TxObject#repairStamp} compared with
     * {@link #cycleStamp} tells whether an object's repairs were made pending since the current cycle began, and
     * with {@link #nackStamp} whether the NACK being applied did it (its other symbols are then taken too).
     */
    private long stamp;
    private long cycleStamp;
    private long nackStamp;
    /** Symbols one NACK may make the sender look at; what a NACK names beyond it is ignored (counted). */
    static final int MAX_WORK_PER_NACK = 1 << 17;
    private int workLeft;
    /** Object ids whose requests are not ours to answer (the session's stream: {@link StreamRepairs}). */
    private java.util.function.IntPredicate ignored = id -> false;

    // The NACK being applied: whether it asked for data gone from the cache, whether it repaired anything, and the
    // parity erasures its current SEGMENT request counted for one block.
    private boolean squelch;
    private boolean applied;
    private TxObject erasureObject;
    private int erasureBlock = -1;
    private int erasures;

    RepairScheduler(ProtocolContext ctx, TxWindow window, GrttEstimator grtt, AdvertisedBackoff backoff) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.window = window;
        this.grtt = grtt;
        this.backoff = backoff;
        this.repairTimer = new GrttTimer("sender-repair", ctx, grtt::advertisedNanos, this::onRepairTimer);
    }

    /** Requests naming these object ids are left alone (they are the stream's). */
    void ignore(java.util.function.IntPredicate objectIds) {
        this.ignored = objectIds;
    }

    /**
     * Applies the repair requests of a NACK from this sender instance's receivers, and starts aggregation when
     * they asked for something new. Returns whether a request named an object already gone from the cache (a
     * SQUELCH is then due).
     */
    boolean onNack(FeedbackFlyweight nack) {
        long now = ctx.nanoTime();
        nackStamp = ++stamp;
        int start = nack.payloadIndex();
        requestReader.reset(nack.buffer(), start, start + nack.payloadLength(), SenderPackets.FEC_ID,
                SenderPackets.FEC_M);
        squelch = false;
        applied = false;
        workLeft = MAX_WORK_PER_NACK;
        RepairRequestReader r = requestReader;
        while (r.nextRequest() && workLeft > 0) {
            int flags = r.flags();
            erasureObject = null;
            erasureBlock = -1;
            erasures = 0;
            while (r.nextEntry() && workLeft > 0) {
                workLeft--;
                if ((flags & NormWire.REPAIR_SEGMENT) != 0) {
                    requestSegments(nack, flags, r.objectId(), r.blockNumber(), r.symbolId(), r.lastSymbolId(), now);
                } else if ((flags & NormWire.REPAIR_BLOCK) != 0) {
                    requestBlocks(flags, r.objectId(), r.blockNumber(), r.lastBlockNumber(), now);
                } else if ((flags & (NormWire.REPAIR_OBJECT | NormWire.REPAIR_INFO)) != 0) {
                    requestObjects(flags, r.objectId(), r.lastObjectId(), now);
                }
            }
            requestErasures();
        }
        if (requestReader.malformed() || workLeft <= 0) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
        }
        if (applied && !holdoff && !repairTimer.isActive()) {
            repairTimer.schedule(now, aggregates() ? backoff.factor() + 1.0 : 0.0);
        }
        if (applied && holdoff) {
            ctx.wakeTransmitter();
        }
        return squelch;
    }

    /**
     * The cached object a request names, marked active and its NORM_INFO repaired when the request asks for it;
     * null (and a squelch due when it was ours) when the object is no longer cached.
     */
    private TxObject requested(int objectId, int flags, long now) {
        if (ignored.test(objectId)) {
            return null;
        }
        TxObject object = window.find(objectId);
        if (object == null) {
            squelch |= window.isOlderThanCache(objectId);
            return null;
        }
        object.lastActivityNanos = now;
        if ((flags & NormWire.REPAIR_INFO) != 0) {
            applied |= repairInfo(object);
        }
        return object;
    }

    /**
     * SEGMENT requests: source symbols are repaired as asked; parity ESIs count erasures of the block, answered
     * with that many parity symbols once the request moves on to another block (or ends).
     */
    private void requestSegments(FeedbackFlyweight nack, int flags, int objectId, long blockNumber, int symbol,
                                 int lastSymbol, long now) {
        TxObject object = requested(objectId, flags, now);
        if (object == null) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("NACK from {} for object {} not in cache [{}, +{})",
                        Integer.toUnsignedString(nack.sourceId()), objectId, window.oldestId(), window.count());
            }
            return;
        }
        if (blockNumber >= object.blockCount()) {
            return;
        }
        int block = (int) blockNumber;
        if (object != erasureObject || block != erasureBlock) {
            requestErasures();
            erasures = 0;
            erasureObject = object;
            erasureBlock = block;
        }
        int k = object.partition.blockLength(block);
        int limit = Math.min(lastSymbol, k + config.parity() - 1);
        workLeft -= Math.max(0, limit - symbol + 1);
        for (int s = symbol; s <= limit; s++) {
            if (s < k || config.parity() == 0) {
                if (s < k) {
                    applied |= repairSymbol(object, block, s);
                }
            } else {
                erasures++;
            }
        }
    }

    /** The parity erasures counted for the last block a SEGMENT request named. */
    private void requestErasures() {
        if (erasureObject != null && erasures > 0) {
            applied |= repairParity(erasureObject, erasureBlock, erasures);
        }
    }

    private void requestBlocks(int flags, int objectId, long blockNumber, long lastBlockNumber, long now) {
        TxObject object = requested(objectId, flags, now);
        if (object == null) {
            return;
        }
        long lastB = Math.min(lastBlockNumber, object.blockCount() - 1L);
        for (long b = blockNumber; b <= lastB && workLeft > 0; b++) {
            applied |= repairBlock(object, (int) b);
        }
    }

    /** OBJECT and INFO requests over a range of object ids. */
    private void requestObjects(int flags, int objectId, int lastObjectId, long now) {
        int count = ((lastObjectId - objectId) & 0xFFFF) + 1;
        if (count > window.count() + 1024) {
            return;     // nonsense range
        }
        for (int i = 0; i < count && workLeft > 0; i++) {
            workLeft--;
            TxObject object = requested((objectId + i) & 0xFFFF, flags, now);
            if (object != null && (flags & NormWire.REPAIR_OBJECT) != 0) {
                for (int b = 0; b < object.blockCount() && workLeft > 0; b++) {
                    applied |= repairBlock(object, b);
                }
            }
        }
    }

    /**
     * During hold-off without aggregation: the object's repairs were not made pending since the cycle began, or by
     * the NACK being applied (so its requests are for losses the cycle did not see).
     */
    private boolean unrepairedThisCycle(TxObject object) {
        return !aggregates() && (object.repairStamp < cycleStamp || object.repairStamp == nackStamp);
    }

    /**
     * Whether requests are aggregated for (B+1) GRTTs before repairs go out: with parity (erasure counts of many
     * receivers combine) or a back-off factor above 0; otherwise repairs go out at once (a small group).
     */
    private boolean aggregates() {
        return config.parity() > 0 || backoff.factor() > 0;
    }

    /** True when the (object, block) lies at or after the current transmit position (repairs during hold-off). */
    private boolean aheadOfTransmitPosition(TxObject object, int block) {
        TxObject current = window.firstPending();
        if (current == null) {
            return false;
        }
        int objectDelta = (object.objectId - current.objectId) & 0xFFFF;
        if (objectDelta != 0) {
            return objectDelta < 0x8000;
        }
        int currentBlock = current.firstPendingBlock();
        return currentBlock >= 0 && block > currentBlock;
    }

    private boolean repairSymbol(TxObject object, int block, int symbol) {
        if (holdoff) {
            boolean unrepaired = unrepairedThisCycle(object);
            if ((unrepaired || aheadOfTransmitPosition(object, block)) && object.pending.set(block, symbol)) {
                if (unrepaired) {
                    object.repairStamp = nackStamp;
                    ctx.counters().increment(Counter.REPAIRS_IN_HOLDOFF);
                }
                activate(object, block);
                return true;
            }
            return false;
        }
        if (object.repair.set(block, symbol)) {
            markRepair(object);
            return true;
        }
        return false;
    }

    private boolean repairBlock(TxObject object, int block) {
        int k = object.partition.blockLength(block);
        workLeft -= k;
        boolean any = false;
        for (int s = 0; s < k; s++) {
            any |= repairSymbol(object, block, s);
        }
        return any;
    }

    private boolean repairInfo(TxObject object) {
        if (object.info == null) {
            return false;
        }
        if (holdoff) {
            return false;
        }
        if (!object.infoRepair) {
            object.infoRepair = true;
            markRepair(object);
            return true;
        }
        return false;
    }

    /** A receiver is missing {@code erasures} symbols of a block: send that many fresh parity symbols. */
    private boolean repairParity(TxObject object, int block, int erasures) {
        if (holdoff) {
            if (!aheadOfTransmitPosition(object, block)) {
                return false;
            }
            return scheduleParity(object, block, erasures);
        }
        if (erasures > object.parityRepair[block]) {
            object.parityRepair[block] = erasures;
            markRepair(object);
            return true;
        }
        return false;
    }

    /** Marks fresh parity (or, when it ran out, source symbols again) pending for transmission. */
    private boolean scheduleParity(TxObject object, int block, int erasures) {
        int k = object.partition.blockLength(block);
        int parity = config.parity();
        int fresh = parity - object.nextFreshParity[block];
        boolean any = false;
        int count = Math.min(erasures, fresh);
        for (int i = 0; i < count; i++) {
            any |= object.pending.set(block, k + object.nextFreshParity[block]++);
        }
        if (erasures > fresh) {
            // Fresh parity exhausted: resend all parity (different receivers lack different ones).
            for (int i = 0; i < parity; i++) {
                any |= object.pending.set(block, k + i);
            }
        }
        if (any) {
            activate(object, block);
        }
        return any;
    }

    private void markRepair(TxObject object) {
        object.hasRepairs = true;
        window.markRepair(object.objectId);
    }

    private void activate(TxObject object, int block) {
        object.markBlockPending(block);
        window.markPending(object.objectId);
        ctx.wakeTransmitter();
    }

    private void onRepairTimer() {
        if (holdoff) {
            holdoff = false;
            return;
        }
        // Aggregation ended: everything requested becomes pending, then hold off new cycles for one GRTT.
        cycleStamp = ++stamp;
        for (int i = 0; i < window.count(); i++) {
            TxObject object = window.at(i);
            int id = object.objectId;
            if (!window.hasRepair(id)) {
                continue;
            }
            window.clearRepair(id);
            object.hasRepairs = false;
            object.repairStamp = cycleStamp;
            if (object.infoRepair) {
                object.infoRepair = false;
                object.infoPending = true;
                window.markPending(id);
            }
            int blocks = object.blockCount();
            int limit = config.blockSize() + config.parity();
            for (int b = 0; b < blocks; b++) {
                boolean any = false;
                for (int s = object.repair.nextSet(b, 0, limit); s >= 0; s = object.repair.nextSet(b, s + 1, limit)) {
                    object.pending.set(b, s);
                    any = true;
                }
                if (any) {
                    object.repair.clearBlock(b);
                    activate(object, b);
                }
                if (object.parityRepair[b] > 0) {
                    scheduleParity(object, b, object.parityRepair[b]);
                    object.parityRepair[b] = 0;
                }
            }
        }
        holdoff = true;
        if (LOG.isDebugEnabled()) {
            TxObject first = window.firstPending();
            LOG.debug("repairs activated; first pending object {}, grtt {} ms", first == null ? -1 : first.objectId,
                    grtt.advertised() * 1e3);
        }
        repairTimer.schedule(ctx.nanoTime(), 1.0);
        ctx.wakeTransmitter();
    }
}
