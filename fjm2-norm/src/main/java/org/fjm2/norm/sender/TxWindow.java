package org.fjm2.norm.sender;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The sender's repair cache: a ring of the cached objects indexed by their 16-bit object id, from the oldest held
 * to the newest started, with one bit per slot for objects that have symbols pending transmission and one for
 * objects that collect repairs during NACK aggregation. Keeps the free list of recycled {@link TxObject}s. Owned
 * by the session's event loop.
 */
final class TxWindow {

    private final TxObject[] slots;
    private final int slotMask;
    private final int maxObjects;
    private final long[] pendingSlots;
    private final long[] repairSlots;
    private final ArrayDeque<TxObject> freeObjects = new ArrayDeque<>();
    private int oldestId;
    private int nextObjectId;
    private int count;
    private long bytes;
    private boolean overflow;

    /**
     * @param maxObjects the most objects the cache holds, twice that while a silent receiver holds it (see
     *                   {@link #overflow}; the ring is a power of two above that: one slot stays free)
     * @param firstId    object id of the first object this sender instance starts
     */
    TxWindow(int maxObjects, int firstId) {
        int capacity = Integer.highestOneBit(Math.max(2, maxObjects) * CacheEviction.SILENT_RECEIVER_OVERFLOW) << 1;
        this.slots = new TxObject[capacity];
        this.slotMask = capacity - 1;
        this.maxObjects = maxObjects;
        this.pendingSlots = new long[(capacity + 63) >>> 6];
        this.repairSlots = new long[(capacity + 63) >>> 6];
        this.nextObjectId = firstId;
        this.oldestId = firstId;
    }

    /** Objects held. */
    int count() {
        return count;
    }

    /** Bytes of object data held. */
    long bytes() {
        return bytes;
    }

    int oldestId() {
        return oldestId;
    }

    /** Id the next started object gets. */
    int nextObjectId() {
        return nextObjectId;
    }

    /** Id of the newest object started (meaningful while {@link #count()} is positive). */
    int newestId() {
        return (nextObjectId - 1) & 0xFFFF;
    }

    boolean isFull() {
        return count >= slots.length - 1 || count >= maxObjects();
    }

    private int maxObjects() {
        return overflow ? CacheEviction.SILENT_RECEIVER_OVERFLOW * maxObjects : maxObjects;
    }

    /** Whether the cache may hold a multiple of its bound ({@link CacheEviction#SILENT_RECEIVER_OVERFLOW}). */
    void overflow(boolean allowed) {
        overflow = allowed;
    }

    /** The object {@code age} places after the oldest (0 is the oldest). */
    TxObject at(int age) {
        return slots[(oldestId + age) & slotMask];
    }

    /** The cached object with this id, or null when it is not (any longer) in the cache. */
    TxObject find(int objectId) {
        int age = (objectId - oldestId) & 0xFFFF;
        if (age >= count) {
            return null;
        }
        return slots[objectId & slotMask];
    }

    /** The cached object with this ticket, or null. */
    TxObject findTicket(long ticket) {
        for (int i = 0; i < count; i++) {
            TxObject object = at(i);
            if (object.ticket == ticket) {
                return object;
            }
        }
        return null;
    }

    /** The newest object whose first transmission is complete, or null. */
    TxObject newestSent() {
        for (int i = count - 1; i >= 0; i--) {
            TxObject o = at(i);
            if (o.firstPassDone) {
                return o;
            }
        }
        return null;
    }

    /** Whether an object id lies within half the id space behind the cache: it was ours and is gone. */
    boolean isOlderThanCache(int objectId) {
        int behind = (oldestId - objectId) & 0xFFFF;
        return count == 0 ? ((nextObjectId - objectId) & 0xFFFF) < 0x8000 : behind > 0 && behind < 0x8000;
    }

    /** A recycled object, or a new one, to fill and {@link #add}. */
    TxObject acquire() {
        return freeObjects.isEmpty() ? new TxObject() : freeObjects.pollFirst();
    }

    /**
     * Takes the next object id for something that is not cached here (a stream): only while the cache is empty,
     * so that the ids cached stay consecutive.
     */
    int reserveId() {
        if (count != 0) {
            throw new IllegalStateException("the cache holds " + count + " objects");
        }
        int id = nextObjectId;
        nextObjectId = (nextObjectId + 1) & 0xFFFF;
        oldestId = nextObjectId;
        return id;
    }

    /** Gives the object the next id and caches it; the caller prepares it and marks it pending. */
    int add(TxObject object) {
        int id = nextObjectId;
        object.objectId = id;
        nextObjectId = (nextObjectId + 1) & 0xFFFF;
        slots[id & slotMask] = object;
        count++;
        bytes += object.size;
        return id;
    }

    /** Takes the oldest object out of the cache; the caller releases it through {@link #recycle}. */
    TxObject removeOldest() {
        TxObject oldest = slots[oldestId & slotMask];
        slots[oldestId & slotMask] = null;
        clearSlot(pendingSlots, oldestId);
        clearSlot(repairSlots, oldestId);
        oldestId = (oldestId + 1) & 0xFFFF;
        count--;
        bytes -= oldest.size;
        return oldest;
    }

    /** Releases the object's buffers and keeps it for reuse. */
    void recycle(TxObject object) {
        object.recycle();
        freeObjects.addLast(object);
    }

    /** Releases every cached object (sender closing). */
    void clear() {
        while (count > 0) {
            TxObject oldest = slots[oldestId & slotMask];
            slots[oldestId & slotMask] = null;
            oldestId = (oldestId + 1) & 0xFFFF;
            count--;
            oldest.recycle();
        }
    }

    // ---- pending transmission and collected repairs, by slot ------------------------------------------------------

    /** The oldest object with symbols pending transmission (the transmit position), or null. */
    TxObject firstPending() {
        if (count == 0) {
            return null;
        }
        int start = oldestId & slotMask;
        int slot = nextSet(pendingSlots, start, slots.length);
        if (slot < 0 && start > 0) {
            slot = nextSet(pendingSlots, 0, start);
        }
        return slot < 0 ? null : slots[slot];
    }

    void markPending(int objectId) {
        setSlot(pendingSlots, objectId);
    }

    void clearPending(int objectId) {
        clearSlot(pendingSlots, objectId);
    }

    void markRepair(int objectId) {
        setSlot(repairSlots, objectId);
    }

    boolean hasRepair(int objectId) {
        int slot = objectId & slotMask;
        return (repairSlots[slot >>> 6] & (1L << slot)) != 0;
    }

    void clearRepair(int objectId) {
        clearSlot(repairSlots, objectId);
    }

    private void setSlot(long[] bits, int objectId) {
        int slot = objectId & slotMask;
        bits[slot >>> 6] |= 1L << slot;
    }

    private void clearSlot(long[] bits, int objectId) {
        int slot = objectId & slotMask;
        bits[slot >>> 6] &= ~(1L << slot);
    }

    private static int nextSet(long[] bits, int from, int limit) {
        int w = from >>> 6;
        if (from >= limit) {
            return -1;
        }
        long word = bits[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                int bit = (w << 6) + Long.numberOfTrailingZeros(word);
                return bit < limit ? bit : -1;
            }
            if (++w >= bits.length || (w << 6) >= limit) {
                return -1;
            }
            word = bits[w];
        }
    }

    /** Ids the window holds, oldest first (tests). */
    List<Integer> ids() {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add((oldestId + i) & 0xFFFF);
        }
        return ids;
    }
}
