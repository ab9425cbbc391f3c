package org.fjm2.jms;

import io.netty.util.collection.LongObjectHashMap;

import java.util.function.Consumer;

/**
 * State kept per remote id (a sender, a producer stream): a map by primitive key, no boxing on lookups, whose
 * entries are also linked from the least to the most recently heard, so that the owner can evict the least
 * recently heard when a cap is reached and expire the idle from the old end without scanning. The cap and what
 * an eviction means are the owner's; this class only keeps the order. Not thread-safe: one owner thread.
 *
 * @param <E> the entries, which carry their own links
 */
final class LruTable<E extends LruTable.Entry> {

    /** What the table links: the key, when it was last heard, and its neighbours in recency order. */
    abstract static class Entry {
        private long key;
        private long heardNanos;
        private Entry older;
        private Entry newer;

        final long key() {
            return key;
        }

        /** When this entry was last heard, on the owner's {@code System.nanoTime()} scale. */
        final long heardNanos() {
            return heardNanos;
        }
    }

    private final LongObjectHashMap<E> byKey = new LongObjectHashMap<>();
    /** Least recently heard. */
    private E oldest;
    /** Most recently heard. */
    private E newest;

    E get(long key) {
        return byKey.get(key);
    }

    int size() {
        return byKey.size();
    }

    /** Adds an entry (its key must be absent) as the most recently heard. */
    void add(long key, E entry, long nowNanos) {
        Entry e = entry;
        e.key = key;
        e.heardNanos = nowNanos;
        if (byKey.put(key, entry) != null) {
            throw new IllegalStateException("key " + key + " already present");
        }
        linkNewest(entry);
    }

    /** The entry was heard now: it becomes the most recently heard. */
    void touch(E entry, long nowNanos) {
        ((Entry) entry).heardNanos = nowNanos;
        if (entry != newest) {
            unlink(entry);
            linkNewest(entry);
        }
    }

    /** The least recently heard entry, or null when empty. */
    E oldest() {
        return oldest;
    }

    /** Removes the entry (which must be in this table). */
    void remove(E entry) {
        byKey.remove(((Entry) entry).key);
        unlink(entry);
    }

    void clear() {
        byKey.clear();
        oldest = null;
        newest = null;
    }

    /** Visits every entry from the least to the most recently heard; the action must not change the table. */
    void forEach(Consumer<E> action) {
        for (Entry e = oldest; e != null; e = e.newer) {
            action.accept(cast(e));
        }
    }

    @SuppressWarnings("unchecked")
    private E cast(Entry e) {
        return (E) e;
    }

    private void linkNewest(E entry) {
        Entry e = entry;
        e.older = newest;
        e.newer = null;
        if (newest != null) {
            ((Entry) newest).newer = entry;
        } else {
            oldest = entry;
        }
        newest = entry;
    }

    private void unlink(Entry entry) {
        if (entry.older != null) {
            entry.older.newer = entry.newer;
        } else {
            oldest = cast(entry.newer);
        }
        if (entry.newer != null) {
            entry.newer.older = entry.older;
        } else {
            newest = cast(entry.older);
        }
        entry.older = null;
        entry.newer = null;
    }
}
