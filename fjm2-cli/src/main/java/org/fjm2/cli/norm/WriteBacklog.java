package org.fjm2.cli.norm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Received objects waiting to be written, bounded in bytes: {@code fjm2 norm recv}'s hand-off from the session's
 * event loop to the writing thread. When the disk is slower than the network, {@link #put} waits for room instead of
 * holding ever more objects in memory: the session then reads no more, the socket buffer fills, and what the kernel
 * drops is repaired (and a flow-controlled sender slows down), as with NRL's receiver, which writes on its own event
 * loop. An item larger than the bound still goes through once the backlog is empty. An item counts until
 * {@link #written}, so the one being written is inside the bound too.
 *
 * @param <T> what is handed over
 */
final class WriteBacklog<T> {

    private final long limitBytes;
    private final ArrayDeque<T> items = new ArrayDeque<>();
    private long heldBytes;
    private long peakBytes;
    private long waits;
    private boolean closed;

    /** @param limitBytes most bytes held at once (an item larger than this is held alone) */
    WriteBacklog(long limitBytes) {
        if (limitBytes < 1) {
            throw new IllegalArgumentException("limitBytes must be positive: " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    /**
     * Hands over an item of {@code bytes}, waiting while the backlog holds other items and this one does not fit;
     * false once closed (or interrupted while waiting): the item was not taken and the caller still owns it.
     */
    synchronized boolean put(T item, long bytes) {
        boolean waited = false;
        while (!closed && heldBytes > 0 && heldBytes + bytes > limitBytes) {
            if (!waited) {
                waited = true;
                waits++;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        if (closed) {
            return false;
        }
        items.add(item);
        heldBytes += bytes;
        peakBytes = Math.max(peakBytes, heldBytes);
        notifyAll();
        return true;
    }

    /** The oldest item, waiting up to {@code nanos} for one; null when none came (or closed). */
    synchronized T poll(long nanos) throws InterruptedException {
        long deadline = System.nanoTime() + nanos;
        while (items.isEmpty() && !closed) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return items.poll();
    }

    /** The oldest item, or null without waiting. */
    synchronized T poll() {
        return items.poll();
    }

    /** An item taken by {@link #poll} of {@code bytes} is written: its room is free again. */
    synchronized void written(long bytes) {
        heldBytes -= bytes;
        notifyAll();
    }

    /** Refuses further items, wakes a waiting {@link #put}, and returns the items never taken (for release). */
    synchronized List<T> close() {
        closed = true;
        List<T> left = new ArrayList<>(items);
        items.clear();
        notifyAll();
        return left;
    }

    /** Most bytes held at once so far. */
    synchronized long peakBytes() {
        return peakBytes;
    }

    /** How many hand-overs had to wait for the writer. */
    synchronized long waits() {
        return waits;
    }
}
