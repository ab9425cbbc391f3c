package org.fjm2.tunnel.relay;

import io.netty.util.collection.LongObjectHashMap;

/**
 * Remembers the hashes of the last {@code capacity} packets the daemon handled, so a packet that comes back (through
 * another peer in a mesh or ring, or our own re-emission heard through multicast loopback) is recognised and
 * dropped. First in, first out: the oldest hash is forgotten when a new one arrives at capacity, so the memory is
 * fixed and the filter covers the last {@code capacity} packets, whatever their rate. One thread.
 */
public final class RecentPacketFilter {

    /** Default packets remembered: 128 Ki, about 2.5 s at 50,000 packets/s (WAN loops are far shorter). */
    public static final int DEFAULT_CAPACITY = 1 << 17;

    private static final Object PRESENT = Boolean.TRUE;

    private final long[] ring;
    private final LongObjectHashMap<Object> index;
    private int head;
    private int size;

    public RecentPacketFilter(int capacity) {
        if (capacity < 16) {
            throw new IllegalArgumentException("filter capacity must be at least 16, got " + capacity);
        }
        this.ring = new long[capacity];
        this.index = new LongObjectHashMap<>(capacity * 2);
    }

    /** Records {@code hash}; false when it was already there (a duplicate). */
    public boolean firstSighting(long hash) {
        if (index.containsKey(hash)) {
            return false;
        }
        if (size == ring.length) {
            index.remove(ring[head]);
        } else {
            size++;
        }
        ring[head] = hash;
        head = head + 1 == ring.length ? 0 : head + 1;
        index.put(hash, PRESENT);
        return true;
    }

    public boolean contains(long hash) {
        return index.containsKey(hash);
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return ring.length;
    }
}
