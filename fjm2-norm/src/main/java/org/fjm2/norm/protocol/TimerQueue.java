package org.fjm2.norm.protocol;

import java.util.Arrays;

/**
 * The timers of one session, in a binary min-heap ordered by deadline. Single-threaded: only the session's
 * event loop touches it. {@link #runExpired} fires everything due and returns the next deadline, which the event
 * loop uses to schedule its one wake-up.
 */
public final class TimerQueue {

    private Timer[] heap = new Timer[16];
    private int size;

    /** Arms (or re-arms) a timer at an absolute {@link System#nanoTime()} deadline. */
    public void schedule(Timer timer, long deadlineNanos) {
        if (timer.heapIndex >= 0) {
            long old = timer.deadlineNanos;
            timer.deadlineNanos = deadlineNanos;
            if (deadlineNanos - old < 0) {
                siftUp(timer.heapIndex);
            } else {
                siftDown(timer.heapIndex);
            }
            return;
        }
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
        }
        timer.deadlineNanos = deadlineNanos;
        timer.heapIndex = size;
        heap[size++] = timer;
        siftUp(timer.heapIndex);
    }

    public void cancel(Timer timer) {
        int index = timer.heapIndex;
        if (index < 0) {
            return;
        }
        timer.heapIndex = -1;
        Timer last = heap[--size];
        heap[size] = null;
        if (index < size) {
            heap[index] = last;
            last.heapIndex = index;
            siftDown(index);
            siftUp(last.heapIndex);
        }
    }

    /** Fires every timer due at {@code now}; returns the next deadline, or Long.MAX_VALUE when none is armed. */
    public long runExpired(long now) {
        while (size > 0 && heap[0].deadlineNanos - now <= 0) {
            Timer timer = heap[0];
            cancel(timer);
            timer.action.run();
        }
        return size > 0 ? heap[0].deadlineNanos : Long.MAX_VALUE;
    }

    public long nextDeadline() {
        return size > 0 ? heap[0].deadlineNanos : Long.MAX_VALUE;
    }

    public int size() {
        return size;
    }

    private void siftUp(int index) {
        Timer timer = heap[index];
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            Timer p = heap[parent];
            if (p.deadlineNanos - timer.deadlineNanos <= 0) {
                break;
            }
            heap[index] = p;
            p.heapIndex = index;
            index = parent;
        }
        heap[index] = timer;
        timer.heapIndex = index;
    }

    private void siftDown(int index) {
        Timer timer = heap[index];
        int half = size >>> 1;
        while (index < half) {
            int child = 2 * index + 1;
            int right = child + 1;
            if (right < size && heap[right].deadlineNanos - heap[child].deadlineNanos < 0) {
                child = right;
            }
            if (timer.deadlineNanos - heap[child].deadlineNanos <= 0) {
                break;
            }
            heap[index] = heap[child];
            heap[index].heapIndex = index;
            index = child;
        }
        heap[index] = timer;
        timer.heapIndex = index;
    }
}
