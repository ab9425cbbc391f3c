package org.fjm2.jms;

import java.util.ArrayList;

/**
 * The listener dispatchers to wake once a whole received batch has been queued: one wake per session and batch
 * instead of one per message, so a batch of 64 small messages costs its session's listener thread one wake-up, not
 * 64 (each a lock and, when the thread sleeps, a futex call). Owned by the receive thread.
 */
final class PendingWakes {

    private final ArrayList<ListenerDispatcher> dispatchers = new ArrayList<>();

    /** Remembers a dispatcher to wake (once, however often it is added). */
    void add(ListenerDispatcher dispatcher) {
        for (int i = 0; i < dispatchers.size(); i++) {
            if (dispatchers.get(i) == dispatcher) {
                return;
            }
        }
        dispatchers.add(dispatcher);
    }

    /** Wakes every dispatcher added since the last call. */
    void wakeAll() {
        for (int i = 0; i < dispatchers.size(); i++) {
            dispatchers.get(i).wake();
        }
        dispatchers.clear();
    }
}
