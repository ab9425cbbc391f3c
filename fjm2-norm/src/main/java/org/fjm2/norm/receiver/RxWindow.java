package org.fjm2.norm.receiver;

import java.util.ArrayDeque;

import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.protocol.ProtocolContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The objects of one remote sender between the release point and the newest heard: slots by 16-bit object id,
 * in-order release to the listener (complete objects delivered, abandoned ones reported lost, runs of ids never
 * heard reported as one range). The ring starts small and grows (up to twice {@code rxWindowObjects}) only as far
 * as the ids of objects actually heard reach, so a sender that is heard once costs little. Memory for the objects'
 * contents is charged to the session's {@link ReceiveBudget}. Recycles {@link RxObject}s through a bounded free
 * list. Owned by the session's event loop.
 */
final class RxWindow {

    private static final Logger LOG = LoggerFactory.getLogger(RxWindow.class);

    /** Slots of a new window's ring. */
    static final int INITIAL_SLOTS = 8;
    /** Recycled objects kept per window. */
    static final int MAX_SPARE_OBJECTS = 64;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final RemoteSenderInfo sender;
    private final ReceiveBudget budget;
    private final int maxSlots;
    private RxObject[] slots;
    private int slotMask;
    private final ArrayDeque<RxObject> freeObjects = new ArrayDeque<>(4);
    private int nextReleaseId;
    private boolean synced;

    RxWindow(ProtocolContext ctx, RemoteSenderInfo sender, ReceiveBudget budget) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.sender = sender;
        this.budget = budget;
        this.maxSlots = Integer.highestOneBit(config.rxWindowObjects() * 2 - 1) * 2;
        int initial = Math.min(INITIAL_SLOTS, maxSlots);
        this.slots = new RxObject[initial];
        this.slotMask = initial - 1;
    }

    ReceiveBudget budget() {
        return budget;
    }

    /** The remote sender whose objects these are. */
    RemoteSenderInfo sender() {
        return sender;
    }

    /** Slots in the ring now (grows with the ids heard). */
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

    /**
     * A fresh (recycled) object for this id, placed in its slot; the id lies within {@code rxWindowObjects} of the
     * release point (the caller made room).
     */
    RxObject create(int objectId) {
        int age = (objectId - nextReleaseId) & 0xFFFF;
        if (age >= slots.length) {
            grow(age);
        }
        RxObject object = freeObjects.isEmpty() ? new RxObject() : freeObjects.pollFirst();
        object.reset(objectId, this);
        slots[objectId & slotMask] = object;
        return object;
    }

    private void grow(int age) {
        int capacity = Math.min(maxSlots, Integer.highestOneBit(age) * 2);
        RxObject[] grown = new RxObject[capacity];
        int mask = capacity - 1;
        for (RxObject o : slots) {
            if (o != null) {
                grown[o.objectId & mask] = o;
            }
        }
        slots = grown;
        slotMask = mask;
    }

    /** Whether anything up to and including object {@code objectId} is still missing. */
    boolean missingThrough(int objectId) {
        int count = ((objectId - nextReleaseId) & 0xFFFF) + 1;
        return count > 0 && count < 0x8000;
    }

    /**
     * The id is a stream's: its slot is passed in order without a delivery or a loss, so that it neither holds the
     * objects after it back nor is asked for as a missing object. Syncs the window to it when nothing was heard yet.
     */
    void markStream(int objectId) {
        if (!synced) {
            syncTo(objectId);
        }
        int age = (objectId - nextReleaseId) & 0xFFFF;
        if (age >= 0x8000) {
            return;     // passed already
        }
        if (age >= config.rxWindowObjects()) {
            overrun(objectId);
        }
        RxObject o = slot(objectId);
        if (o == null) {
            o = create(objectId);
        } else if (o.complete) {
            return;
        } else {
            free(o);
        }
        o.stream = true;
        o.complete = true;
        release();
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
        if (o.stream) {
            recycle(o);     // a stream's id: its bytes go their own way (RxStream)
            return;
        }
        io.netty.buffer.ByteBuf whole = o.lossReason == null ? o.data.take(ctx.output().allocator()) : null;
        try {
            if (whole != null) {
                ctx.listener().onObjectReceived(sender, id, whole, o.info);
            } else {
                ctx.listener().onObjectLost(sender, id, o.lossReason);
            }
        } catch (RuntimeException e) {
            LOG.warn("listener failed on object {} of {}", id, sender, e);
        } finally {
            if (whole != null) {
                whole.release();
            }
            recycle(o);
        }
    }

    private void recycle(RxObject o) {
        free(o);
        if (freeObjects.size() < MAX_SPARE_OBJECTS) {
            freeObjects.addLast(o);
        }
    }

    /** Frees what the object holds and gives its charge back to the budget. */
    private void free(RxObject o) {
        o.release(budget.blockPool());
        budget.uncharge(o);
    }

    /** Gives an object up: it becomes a "lost" entry delivered in order. */
    void abandon(RxObject object, LossReason reason) {
        if (object.complete) {
            return;
        }
        free(object);
        object.lossReason = reason;
        object.complete = true;
        ctx.counters().increment(Counter.OBJECTS_LOST);
        LOG.debug("{}: object {} lost: {}", sender, object.objectId, reason.description());
        release();
    }

    /** Reports lost every object id from the release point up to (excluding) {@code untilId}. */
    void loseUntil(int untilId, LossReason reason) {
        // Releasing may run past untilId (complete objects after a lost one go too), so compare by distance.
        int unheardFirst = -1;
        int unheardCount = 0;
        while (isAhead(untilId, nextReleaseId)) {
            RxObject o = slot(nextReleaseId);
            int id = nextReleaseId;
            if (o == null) {
                if (unheardCount == 0) {
                    unheardFirst = id;
                }
                unheardCount++;
                nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
                continue;
            }
            if (unheardCount > 0) {
                reportUnheard(unheardFirst, unheardCount, reason);
                unheardCount = 0;
            }
            if (!o.complete) {
                abandon(o, reason);   // delivers it (and anything complete after it) as lost
            } else {
                slots[id & slotMask] = null;
                nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
                deliver(o, id);
            }
        }
        if (unheardCount > 0) {
            reportUnheard(unheardFirst, unheardCount, reason);
        }
        release();
    }

    /** Ids never heard at all, lost as one range (one listener call however long the run). */
    private void reportUnheard(int firstId, int count, LossReason reason) {
        ctx.counters().add(Counter.OBJECTS_LOST, count);
        LOG.debug("{}: objects {}..{} lost: {}", sender, firstId, (firstId + count - 1) & 0xFFFF,
                reason.description());
        try {
            ctx.listener().onObjectsLost(sender, firstId, count, reason);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on lost objects {}+{} of {}", firstId, count, sender, e);
        }
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
                    try {
                        ctx.listener().onObjectLost(sender, o.objectId, reason);
                    } catch (RuntimeException e) {
                        LOG.warn("listener failed on lost object {} of {}", o.objectId, sender, e);
                    }
                }
                free(o);
                slots[i] = null;
            }
        }
        freeObjects.clear();
        if (slots.length > INITIAL_SLOTS) {
            slots = new RxObject[Math.min(INITIAL_SLOTS, maxSlots)];
            slotMask = slots.length - 1;
        }
    }
}
