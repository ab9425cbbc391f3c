package org.fjm2.store;

import java.util.ArrayDeque;

/**
 * The messages in the journal, oldest first: what retention drops and, later, what replay walks. Owned by the
 * journal writer thread.
 */
final class MessageIndex {

    /** One journaled message: its record id, when it arrived, its size in the journal. */
    record Entry(long id, long storedAtMillis, int bytes) {
    }

    private final ArrayDeque<Entry> entries = new ArrayDeque<>();
    private long bytes;

    void add(long id, long storedAtMillis, int size) {
        entries.addLast(new Entry(id, storedAtMillis, size));
        bytes += size;
    }

    Entry oldest() {
        return entries.peekFirst();
    }

    Entry removeOldest() {
        Entry e = entries.removeFirst();
        bytes -= e.bytes();
        return e;
    }

    int size() {
        return entries.size();
    }

    long bytes() {
        return bytes;
    }

    /** The highest id, or 0 when empty. */
    long newestId() {
        Entry e = entries.peekLast();
        return e == null ? 0 : e.id();
    }
}
