package org.fjm2.norm.sender;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;

/**
 * Objects enqueued whose transmission has not started yet: application threads {@link #offer} into a lock-free
 * inbox, the event loop {@link #drain}s it into one FIFO per priority and takes the highest priority first.
 */
final class TxQueues {

    private final Queue<Submission> inbox = PlatformDependent.newMpscQueue();
    private final AtomicInteger queued = new AtomicInteger();
    private final ArrayDeque<Submission>[] queues;

    @SuppressWarnings("unchecked")
    TxQueues(int priorities) {
        this.queues = new ArrayDeque[priorities];
        for (int i = 0; i < priorities; i++) {
            queues[i] = new ArrayDeque<>();
        }
    }

    /** Hands an object over (any thread). */
    void offer(Submission submission) {
        queued.incrementAndGet();
        inbox.offer(submission);
    }

    /** Objects offered and not taken yet (any thread). */
    int size() {
        return queued.get();
    }

    /** Moves what application threads offered into the priority queues. */
    void drain() {
        Submission s;
        while ((s = inbox.poll()) != null) {
            queues[s.priority()].addLast(s);
        }
    }

    /** Whether a drained object waits in a priority queue. */
    boolean hasQueued() {
        for (int p = queues.length - 1; p >= 0; p--) {
            if (!queues[p].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    /** The oldest object of the highest priority waiting, or null. */
    Submission pollHighest() {
        Submission next = null;
        for (int p = queues.length - 1; p >= 0 && next == null; p--) {
            next = queues[p].pollFirst();
        }
        if (next != null) {
            queued.decrementAndGet();
        }
        return next;
    }

    /** Releases the buffers of everything still queued (sender closing). */
    void releaseAll() {
        Submission s;
        while ((s = inbox.poll()) != null) {
            s.release();
        }
        for (ArrayDeque<Submission> q : queues) {
            while ((s = q.pollFirst()) != null) {
                s.release();
            }
        }
    }

    /** An object handed over by an application thread. */
    record Submission(long ticket, ByteBuf data, ByteBuf info, int priority, int size) {
        void release() {
            data.release();
            if (info != null) {
                info.release();
            }
        }
    }
}
