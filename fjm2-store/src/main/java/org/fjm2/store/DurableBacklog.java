package org.fjm2.store;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The messages durable subscriptions may still need, in memory, oldest first, for their subscribers' return (the
 * Artemis journal is written, not read, while the store runs; at start it fills from what the journal holds): every
 * stored message of a topic with a durable subscription, from when the first subscription of the topic came. At most
 * {@link #MAX_BYTES} of messages: beyond, the oldest goes, and the subscriptions that had not consumed it are told on
 * their return (their answer is flagged incomplete); messages every subscription of their topic acknowledged go
 * first ({@link #dropConsumed}). Owned by the journal writer thread.
 */
final class DurableBacklog {

    /** Memory for messages kept for durable subscriptions. */
    static final long MAX_BYTES = 256L << 20;

    private final ArrayDeque<StoredMessage> messages = new ArrayDeque<>();
    private final DurableSubscriptions subscriptions;
    private final long maxBytes;
    private long bytes;

    DurableBacklog(DurableSubscriptions subscriptions) {
        this(subscriptions, MAX_BYTES);
    }

    DurableBacklog(DurableSubscriptions subscriptions, long maxBytes) {
        this.subscriptions = subscriptions;
        this.maxBytes = maxBytes;
    }

    /** A newly stored (or recovered) message: kept when a subscription of its topic has it pending. */
    void add(StoredMessage m) {
        if (!subscriptions.anyPending(m)) {
            return;
        }
        messages.addLast(m);
        bytes += m.record().length;
        while (bytes > maxBytes) {
            drop(messages.removeFirst());
        }
    }

    /** Retention dropped journal records up to this id: those kept here go too (counted as lost where pending). */
    void droppedFromJournal(long throughId) {
        while (!messages.isEmpty() && messages.peekFirst().id() <= throughId) {
            drop(messages.removeFirst());
        }
    }

    /** Drops the oldest messages no subscription still has pending (they are not needed any more). */
    void dropConsumed() {
        while (!messages.isEmpty() && !subscriptions.anyPending(messages.peekFirst())) {
            StoredMessage m = messages.removeFirst();
            bytes -= m.record().length;
        }
    }

    private void drop(StoredMessage m) {
        bytes -= m.record().length;
        subscriptions.dropped(m);
    }

    /** The subscription's pending messages, oldest first (in the order the store received them). */
    List<StoredMessage> pending(Subscription s) {
        List<StoredMessage> out = new ArrayList<>();
        for (Iterator<StoredMessage> it = messages.iterator(); it.hasNext(); ) {
            StoredMessage m = it.next();
            if (s.pending(m)) {
                out.add(m);
            }
        }
        return out;
    }

    int size() {
        return messages.size();
    }

    long bytes() {
        return bytes;
    }
}
