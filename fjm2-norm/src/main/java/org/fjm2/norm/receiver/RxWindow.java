package org.fjm2.norm.receiver;

import java.util.ArrayDeque;

import io.netty.buffer.ByteBuf;

import org.fjm2.norm.session.LossReason;
import org.fjm2.norm.session.NormConfig;
import org.fjm2.norm.session.NormContext;
import org.fjm2.norm.session.NormCounters.Counter;
import org.fjm2.norm.session.RemoteSenderInfo;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects of one remote sender between the release point and the newest heard: slots by 16-bit object id,
 * in-order release to the listener (complete objects delivered, abandoned ones reported lost), and the receive
 * buffer budget, which gives up the oldest incomplete objects when a new one needs room. Recycles
 * {@link RxObject}s through a free list. Owned by the session's event loop.
 */
final class RxWindow {

    private static final Logger LOG = LoggerFactory.getLogger(RxWindow.class);

    private final NormContext ctx;
    private final NormConfig config;
    private final RemoteSenderInfo sender;
    // Object window: [nextReleaseId, nextReleaseId + window).
    private final RxObject[] slots;
    private final int slotMask;
    private final ArrayDeque<RxObject> freeObjects = new ArrayDeque<>();
    private int nextReleaseId;
    private boolean synced;
    private long bufferedBytes;

    RxWindow(NormContext ctx, RemoteSenderInfo sender) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.sender = sender;
        int capacity = Integer.highestOneBit(config.rxWindowObjects() * 2 - 1) * 2;
        this.slots = new RxObject[capacity];
        this.slotMask = capacity - 1;
    }

    /** Slots in the ring (twice the configured window, at least). */
    int capacity() {
        return slots.length;
    }

    /** Whether the release point is known (set by the first data, or a SQUELCH or FLUSH to start from). */
    boolean isSynced() {
        return synced;
    }

    /** Sets the release point: objects before {@code objectId} are not expected. */
    void syncTo(int objectId) {
        synced = true;
        nextReleaseId = objectId;
    }

    /** The id of the next object to release. */
    int nextReleaseId() {
        return nextReleaseId;
    }

    /** The object with this id, or null when it has no slot (not heard yet, or released). */
    RxObject slot(int objectId) {
        RxObject o = slots[objectId & slotMask];
        return (o != null && o.objectId == objectId) ? o : null;
    }

    /** A fresh (recycled) object for this id, placed in its slot. */
    RxObject create(int objectId) {
        RxObject object = freeObjects.isEmpty() ? new RxObject() : freeObjects.pollFirst();
        object.reset(objectId);
        slots[objectId & slotMask] = object;
        return object;
    }

    /** Whether anything up to and including object {@code objectId} is still missing. */
    boolean missingThrough(int objectId) {
        int count = ((objectId - nextReleaseId) & 0xFFFF) + 1;
        return count > 0 && count < 0x8000;
    }

    /**
     * Gives the object its data container, first abandoning the oldest incomplete objects that hold buffers while
     * the receive buffer budget would overflow; false (the object itself abandoned) when nothing else can go.
     */
    boolean allocateData(RxObject object) {
        long needed = object.size;
        while (bufferedBytes + needed > config.rxBufferBytes()) {
            RxObject oldest = oldestIncomplete(object);
            if (oldest == null) {
                abandon(object, LossReason.RECEIVER_OVERRUN);
                return false;
            }
            abandon(oldest, LossReason.RECEIVER_OVERRUN);
        }
        object.data = ctx.output().allocateHeap((int) needed);
        object.data.writerIndex((int) needed);
        bufferedBytes += needed;
        return true;
    }

    /** Gives the object data it does not own a copy of (a slice of the datagram that completes it). */
    void adoptData(RxObject object, ByteBuf data) {
        object.data = data;
        bufferedBytes += object.size;
    }

    private RxObject oldestIncomplete(RxObject except) {
        for (int i = 0; i < slots.length / 2; i++) {
            RxObject o = slot((nextReleaseId + i) & 0xFFFF);
            if (o != null && o != except && !o.complete && o.data != null) {
                return o;
            }
        }
        return null;
    }

    // ---- release, loss -------------------------------------------------------------------------------------------

    /** Delivers complete objects (and reports lost ones) in object-id order. */
    void release() {
        while (true) {
            RxObject o = slot(nextReleaseId);
            if (o == null || !o.complete) {
                return;
            }
            slots[nextReleaseId & slotMask] = null;
            int id = nextReleaseId;
            nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
            deliver(o, id);
        }
    }

    private void deliver(RxObject o, int id) {
        try {
            if (o.data != null) {
                ctx.listener().onObjectReceived(sender, id, o.data, o.info);
            } else {
                ctx.listener().onObjectLost(sender, id, o.lossReason);
            }
        } catch (RuntimeException e) {
            LOG.warn("listener failed on object {} of {}", id, sender, e);
        } finally {
            if (o.data != null) {
                bufferedBytes -= o.size;
            }
            o.release();
            freeObjects.addLast(o);
        }
    }

    /** Gives an object up: it becomes a "lost" entry delivered in order. */
    void abandon(RxObject object, LossReason reason) {
        if (object.complete) {
            return;
        }
        if (object.data != null) {
            bufferedBytes -= object.size;
        }
        object.release();
        object.lossReason = reason;
        object.complete = true;
        ctx.counters().increment(Counter.OBJECTS_LOST);
        LOG.debug("{}: object {} lost: {}", sender, object.objectId, reason.description());
        release();
    }

    /** Reports lost every object id from the release point up to (excluding) {@code untilId}. */
    void loseUntil(int untilId, LossReason reason) {
        // Releasing may run past untilId (complete objects after a lost one go too), so compare by distance.
        while (isAhead(untilId, nextReleaseId)) {
            RxObject o = slot(nextReleaseId);
            int id = nextReleaseId;
            if (o == null) {
                slots[id & slotMask] = null;
                nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
                ctx.counters().increment(Counter.OBJECTS_LOST);
                LOG.debug("{}: object {} lost: {}", sender, id, reason.description());
                try {
                    ctx.listener().onObjectLost(sender, id, reason);
                } catch (RuntimeException e) {
                    LOG.warn("listener failed on lost object {} of {}", id, sender, e);
                }
            } else if (!o.complete) {
                abandon(o, reason);   // delivers it (and anything complete after it) as lost
            } else {
                slots[id & slotMask] = null;
                nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
                deliver(o, id);
            }
        }
        release();
    }

    /** Whether object id {@code a} comes after {@code b} (16-bit serial arithmetic). */
    private static boolean isAhead(int a, int b) {
        int d = (a - b) & 0xFFFF;
        return d != 0 && d < 0x8000;
    }

    /** A new object id would not fit in the window: give up the oldest objects to make room. */
    void overrun(int objectId) {
        int keep = config.rxWindowObjects() - 1;
        int until = (objectId - keep) & 0xFFFF;
        loseUntil(until, LossReason.RECEIVER_OVERRUN);
    }

    /** Reports every object still held and not complete lost, and frees every buffer (the sender is gone). */
    void clear(LossReason reason) {
        for (int i = 0; i < slots.length; i++) {
            RxObject o = slots[i];
            if (o != null) {
                if (!o.complete) {
                    ctx.counters().increment(Counter.OBJECTS_LOST);
                    ctx.listener().onObjectLost(sender, o.objectId, reason);
                }
                o.release();
                slots[i] = null;
            }
        }
        bufferedBytes = 0;
    }
}
