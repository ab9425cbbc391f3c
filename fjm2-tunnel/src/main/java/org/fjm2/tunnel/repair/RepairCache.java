package org.fjm2.tunnel.repair;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.collection.LongObjectHashMap;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;

/**
 * The daemon's bounded cache of recent NORM_DATA and NORM_INFO messages, byte for byte, for hop-by-hop repair:
 * a NACK that asks for a symbol held here is answered by the daemon nearest to the receiver instead of travelling
 * to the original sender. Indexed by (sender, instance, object, block, symbol); first in, first out, bounded both in
 * bytes and in messages. Messages whose FEC encoding is not understood (fec_id other than 5 and 129) are not kept.
 * The messages live in one direct buffer used as a ring of bytes (allocated once; nothing is allocated per
 * message): a new message goes after the newest, or at the start when it does not fit before the end, and the oldest
 * messages it overlaps are evicted. One thread; {@link #close()} releases the ring.
 */
public final class RepairCache implements AutoCloseable {

    /** Default bytes of NORM messages held: about 5 s at 50 Mbit/s, far more than a WAN repair round. */
    public static final long DEFAULT_MAX_BYTES = 32L * 1024 * 1024;
    /** Default most messages held. */
    public static final int DEFAULT_MAX_ENTRIES = 32 * 1024;
    /** Symbol id that stands for an object's NORM_INFO. */
    public static final int INFO_SYMBOL = -1;

    /** One cached message. */
    public static final class Entry {
        int sourceId;
        int instanceId;
        int objectId;
        long block;
        int symbol;
        long key;
        int offset;
        int length;
        long lastServedNanos;
        Object lastServedTo;
    }

    private final ByteBuf slab;
    private final int capacity;
    private final Entry[] ring;
    private final LongObjectHashMap<Entry> index;
    private int head;
    private int count;
    private int writeOffset;
    private long bytes;
    private long uncacheable;

    public RepairCache(ByteBufAllocator alloc, long maxBytes, int maxEntries) {
        if (maxEntries < 1 || maxBytes < 2048 || maxBytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("repair cache needs at least 1 entry and 2 KiB, at most 2 GiB");
        }
        this.capacity = (int) maxBytes;
        this.slab = alloc.directBuffer(capacity, capacity);
        this.ring = new Entry[maxEntries];
        for (int i = 0; i < maxEntries; i++) {
            ring[i] = new Entry();
        }
        this.index = new LongObjectHashMap<>(maxEntries * 2);
    }

    /** Keeps a copy of a validated NORM_DATA or NORM_INFO message (once per symbol). */
    public void put(ObjectMessageFlyweight msg) {
        int fecId = msg.fecId();
        if (fecId != NormWire.FEC_RS8 && fecId != NormWire.FEC_SMALL_BLOCK) {
            uncacheable++;
            return;
        }
        boolean info = msg.type() == NormWire.TYPE_INFO;
        long block = info ? -1 : msg.blockNumber(8);
        int symbol = info ? INFO_SYMBOL : msg.symbolId(8);
        int source = msg.sourceId();
        int instance = msg.instanceId();
        int object = msg.objectId();
        long key = key(source, instance, object, block, symbol);
        if (index.containsKey(key)) {
            return;     // already held (or, rarely, a different symbol with the same key: keep the first)
        }
        int length = msg.length();
        if (length > capacity / 4) {
            uncacheable++;
            return;
        }
        boolean wrap = writeOffset + length > capacity;
        int at = wrap ? 0 : writeOffset;
        if (wrap) {
            // The messages between the write position and the end are the oldest: they go first.
            while (count > 0 && ring[head].offset >= writeOffset) {
                evictOldest();
            }
        }
        while (count > 0 && (count == ring.length || overlaps(ring[head], at, length))) {
            evictOldest();
        }
        Entry e = ring[(head + count) % ring.length];
        count++;
        e.sourceId = source;
        e.instanceId = instance;
        e.objectId = object;
        e.block = block;
        e.symbol = symbol;
        e.key = key;
        e.lastServedNanos = 0;
        e.lastServedTo = null;
        e.offset = at;
        e.length = length;
        slab.setBytes(at, msg.buffer(), msg.offset(), length);
        writeOffset = at + length;
        bytes += length;
        index.put(key, e);
    }

    /** Whether the cached entry lies (partly) in [at, at + length) of the ring. */
    private static boolean overlaps(Entry e, int at, int length) {
        return e.offset < at + length && at < e.offset + e.length;
    }

    /** The buffer holding the cached messages: read an entry's bytes at {@link #offset}, {@link #length}. */
    public ByteBuf buffer() {
        return slab;
    }

    /** Where the entry's NORM message starts in {@link #buffer()}. */
    public static int offset(Entry e) {
        return e.offset;
    }

    public static int length(Entry e) {
        return e.length;
    }

    /** The cached message for that symbol (or NORM_INFO with {@link #INFO_SYMBOL}), or null. */
    public Entry find(int sourceId, int instanceId, int objectId, long block, int symbol) {
        Entry e = index.get(key(sourceId, instanceId, objectId, block, symbol));
        if (e == null || e.sourceId != sourceId || e.instanceId != instanceId || e.objectId != objectId
                || e.block != block || e.symbol != symbol) {
            return null;
        }
        return e;
    }

    /**
     * Whether the entry may be served to {@code destination} now: not if it was served to the same destination less
     * than {@code holdoffNanos} ago (that repair is still on its way). Marks it served when it may.
     */
    public boolean claim(Entry e, Object destination, long now, long holdoffNanos) {
        if (e.lastServedTo == destination && now - e.lastServedNanos < holdoffNanos) {
            return false;
        }
        e.lastServedTo = destination;
        e.lastServedNanos = now;
        return true;
    }

    private void evictOldest() {
        Entry e = ring[head];
        index.remove(e.key);
        bytes -= e.length;
        e.lastServedTo = null;
        head = (head + 1) % ring.length;
        count--;
    }

    public int size() {
        return count;
    }

    public long bytes() {
        return bytes;
    }

    /** Messages not kept because their FEC encoding is not understood (or they are larger than the cache). */
    public long uncacheable() {
        return uncacheable;
    }

    @Override
    public void close() {
        while (count > 0) {
            evictOldest();
        }
        if (slab.refCnt() > 0) {
            slab.release();
        }
    }

    private static long key(int sourceId, int instanceId, int objectId, long block, int symbol) {
        long h = (sourceId & 0xFFFFFFFFL) * 0x9E3779B97F4A7C15L;
        h ^= ((long) instanceId << 48) ^ ((long) objectId << 32) ^ (block * 0xC2B2AE3D27D4EB4FL) ^ symbol;
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        return h;
    }
}
