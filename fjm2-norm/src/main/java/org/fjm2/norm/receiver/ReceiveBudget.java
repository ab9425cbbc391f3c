package org.fjm2.norm.receiver;

import org.fjm2.norm.api.LossReason;

/**
 * The bytes a session's receivers may hold for incomplete objects of every remote sender together (data chunks,
 * parity symbols, block bookkeeping): {@code receiveBufferBytes}. When an object needs more than is left, the
 * incomplete objects that made no progress for longest are given up first (reported lost, reason
 * {@link LossReason#RECEIVER_OVERRUN}) — a sender that announces objects and never completes them loses its own
 * objects first, while objects still arriving keep going; when nothing else can go, the object asking is refused.
 * Objects that hold memory sit in a list ordered by their last progress (O(1) per datagram). Owned by the
 * session's event loop.
 */
public final class ReceiveBudget {

    private final long limit;
    private long used;
    private long refusals;
    private final RxObject.BlockPool blocks = new RxObject.BlockPool();
    /** Least recently progressed first. */
    private RxObject oldest;
    private RxObject newest;

    public ReceiveBudget(long limit) {
        this.limit = limit;
    }

    public long limit() {
        return limit;
    }

    /** Bytes held now. */
    public long used() {
        return used;
    }

    /** Objects given up or refused so far for want of room. */
    public long refusals() {
        return refusals;
    }

    RxObject.BlockPool blockPool() {
        return blocks;
    }

    /**
     * Charges {@code bytes} to {@code object}, giving up objects that made no progress for longest while room is
     * short; false (nothing charged) when even that cannot make room: the caller gives the object up.
     */
    boolean charge(RxObject object, long bytes) {
        while (used + bytes > limit) {
            RxObject victim = oldest == object ? object.newerProgress : oldest;
            if (victim == null) {
                refusals++;
                return false;
            }
            refusals++;
            victim.window.abandon(victim, LossReason.RECEIVER_OVERRUN);     // releases, which uncharges it
        }
        used += bytes;
        object.charged += bytes;
        return true;
    }

    /**
     * Charges {@code bytes} held for a stream (which is not an object and never given up here: its own window
     * bounds it), giving up objects that made no progress for longest while room is short; false (nothing charged)
     * when even that cannot make room: the stream then makes room itself, or drops what it was given.
     */
    boolean chargeStream(long bytes) {
        while (used + bytes > limit) {
            RxObject victim = oldest;
            if (victim == null) {
                refusals++;
                return false;
            }
            refusals++;
            victim.window.abandon(victim, LossReason.RECEIVER_OVERRUN);
        }
        used += bytes;
        return true;
    }

    /** Stream bytes freed. */
    void unchargeStream(long bytes) {
        used -= bytes;
    }

    /** The object received something: it moves to the end of the give-up order. */
    void progressed(RxObject object, long nowNanos) {
        object.lastProgressNanos = nowNanos;
        if (object.inProgressList) {
            if (object == newest) {
                return;
            }
            unlink(object);
        }
        object.olderProgress = newest;
        object.newerProgress = null;
        if (newest != null) {
            newest.newerProgress = object;
        } else {
            oldest = object;
        }
        newest = object;
        object.inProgressList = true;
    }

    /** The object is complete: it keeps its memory until delivered, but is no longer one to give up. */
    void completed(RxObject object) {
        if (object.inProgressList) {
            unlink(object);
        }
    }

    /** The object was delivered, given up or recycled: what it held is free again. */
    void uncharge(RxObject object) {
        used -= object.charged;
        object.charged = 0;
        if (object.inProgressList) {
            unlink(object);
        }
    }

    private void unlink(RxObject object) {
        if (object.olderProgress != null) {
            object.olderProgress.newerProgress = object.newerProgress;
        } else {
            oldest = object.newerProgress;
        }
        if (object.newerProgress != null) {
            object.newerProgress.olderProgress = object.olderProgress;
        } else {
            newest = object.olderProgress;
        }
        object.olderProgress = null;
        object.newerProgress = null;
        object.inProgressList = false;
    }
}
