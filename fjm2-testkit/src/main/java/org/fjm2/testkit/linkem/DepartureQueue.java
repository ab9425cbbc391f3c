package org.fjm2.testkit.linkem;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * The delay line: packets ordered by departure time, ties broken by admission order so that equal times keep
 * FIFO order. A binary heap over pooled {@link Departure} entries, so steady traffic allocates nothing. Owned by
 * the emulator's event-loop thread.
 */
final class DepartureQueue {

    private static final int INITIAL_CAPACITY = 1024;

    private Departure[] heap = new Departure[INITIAL_CAPACITY];
    private int size;
    private long nextSequence;
    private long payloadBytes;
    private final ArrayDeque<Departure> pool = new ArrayDeque<>(INITIAL_CAPACITY);

    /** A cleared entry to fill and {@link #add}. */
    Departure acquire() {
        Departure d = pool.pollFirst();
        return d != null ? d : new Departure();
    }

    void add(Departure d) {
        d.sequence = nextSequence++;
        if (d.payload != null) {
            payloadBytes += d.payload.readableBytes();
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(d, heap[parent])) {
                break;
            }
            heap[i] = heap[parent];
            i = parent;
        }
        heap[i] = d;
    }

    /** The earliest entry, or null. */
    Departure peek() {
        return size == 0 ? null : heap[0];
    }

    /** Removes and returns the earliest entry, or null; give it back with {@link #recycle} once used. */
    Departure poll() {
        if (size == 0) {
            return null;
        }
        Departure top = heap[0];
        Departure last = heap[--size];
        heap[size] = null;
        if (size > 0) {
            siftDown(last);
        }
        if (top.payload != null) {
            payloadBytes -= top.payload.readableBytes();
        }
        return top;
    }

    void recycle(Departure d) {
        d.clear();
        pool.addFirst(d);
    }

    int size() {
        return size;
    }

    /** Bytes of payload held in the delay line. */
    long payloadBytes() {
        return payloadBytes;
    }

    private void siftDown(Departure d) {
        int i = 0;
        int half = size >>> 1;
        while (i < half) {
            int child = 2 * i + 1;
            int right = child + 1;
            if (right < size && before(heap[right], heap[child])) {
                child = right;
            }
            if (!before(heap[child], d)) {
                break;
            }
            heap[i] = heap[child];
            i = child;
        }
        heap[i] = d;
    }

    private static boolean before(Departure a, Departure b) {
        return a.due < b.due || (a.due == b.due && a.sequence < b.sequence);
    }
}
