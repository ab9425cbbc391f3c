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
 * One thread; the buffers are pooled copies released on eviction and on {@link #close()}.
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
        ByteBuf message;
        long lastServedNanos;
        Object lastServedTo;

        /** The NORM message as it was first heard (do not modify or release). */
        public ByteBuf message() {
            return message;
        }
    }

    private final ByteBufAllocator alloc;
    private final long maxBytes;
    private final Entry[] ring;
    private final LongObjectHashMap<Entry> index;
    private int head;
    private int count;
    private long bytes;
    private long uncacheable;

    public RepairCache(ByteBufAllocator alloc, long maxBytes, int maxEntries) {
        if (maxEntries < 1 || maxBytes < 2048) {
            throw new IllegalArgumentException("repair cache needs at least 1 entry and 2 KiB");
        }
        this.alloc = alloc;
        this.maxBytes = maxBytes;
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
        if (length > maxBytes) {
            uncacheable++;
            return;
        }
        while (count == ring.length || bytes + length > maxBytes) {
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
        e.message = alloc.directBuffer(length).writeBytes(msg.buffer(), msg.offset(), length);
        bytes += length;
        index.put(key, e);
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
        bytes -= e.message.readableBytes();
        e.message.release();
        e.message = null;
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
