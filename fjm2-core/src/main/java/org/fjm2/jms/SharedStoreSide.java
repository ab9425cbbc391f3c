package org.fjm2.jms;

import java.util.HashMap;
import java.util.Map;

import org.fjm2.jms.message.Fjm2Message;

/**
 * A shared durable subscription's side facing the stores, in one connection ({@link SharedGroup} owns it): the
 * stores' answer its first member here waits for, with the live messages held until the switch; what the answer
 * brought (live messages at or below it reached the stores first); the newest number heard per producer stream; and
 * the position the stores are told — per stream the last number below the oldest message a member has not
 * acknowledged, or the newest heard where none is open.
 *
 * <p>The hold is taken on the receive thread outside the group's monitor (the switch holds the join's monitor and
 * routes under the group's); the rest is used under the group's monitor.
 */
final class SharedStoreSide {

    /** The stores' answer the first member here waits for; live messages are held by it until the switch. */
    private volatile LateJoin join;
    /** The last live message held for the switch (the fan-out asks once per member here). Guarded by holdLock. */
    private Fjm2Message lastHeld;
    private final Object holdLock = new Object();
    /** After the switch: per stream the last number the stores' answer brought. Guarded by the group. */
    private Map<LateJoin.Stream, Long> replayedThrough = Map.of();
    /** Per stream the newest number heard of the topic. Guarded by the group. */
    private final Map<DurablePosition.Stream, Long> newest = DurablePosition.streamMarks();
    /** What the position records say. */
    final DurablePosition position = new DurablePosition();
    /**
     * The last member here left: the position stays as it was then (the group's copies of what it had open are gone
     * with it, and a heartbeat still running must not take that for acknowledged). Guarded by the group.
     */
    private boolean closed;
    /** The group as the stores' subscriber (set by the first member here); null until then. */
    private volatile DurableSubscriptions.Subscriber subscriber;

    /** The first member here subscribes: live messages are held by its join from now on, until the switch. */
    void start(DurableSubscriptions.Subscriber storeSubscriber) {
        subscriber = storeSubscriber;
        join = storeSubscriber.join();
    }

    /** The first member's subscribe did not happen: no hold, no subscriber. */
    void reset() {
        join = null;
        subscriber = null;
    }

    DurableSubscriptions.Subscriber subscriber() {
        return subscriber;
    }

    /** Under the group's monitor: the last member here left; the position no longer moves. */
    void close() {
        closed = true;
    }

    /** On the receive thread, not under the group's monitor: whether a live message is held for the switch. */
    boolean holdForSwitch(Fjm2Message message) {
        LateJoin waiting = join;
        if (waiting == null) {
            return false;
        }
        synchronized (holdLock) {
            if (message == lastHeld) {
                return true;
            }
            if (waiting.holdLive(message.copy(), 0)) {
                lastHeld = message;
                return true;
            }
            return false;   // switched meanwhile: routed live
        }
    }

    /** Under the group's monitor: the switch is over. */
    void switched(Map<LateJoin.Stream, Long> replayed) {
        replayedThrough = replayed;
        join = null;
    }

    /**
     * Under the group's monitor: notes the message's number as the newest of its stream; false when the stores'
     * answer brought it already (it reached them before this connection).
     */
    boolean heardNew(Fjm2Message message) {
        Long replayed = replayedThrough.get(LateJoin.Stream.of(message));
        if (replayed != null && message.originSequence() <= replayed) {
            return false;
        }
        newest.merge(DurablePosition.Stream.of(message), message.originSequence(), Math::max);
        return true;
    }

    /**
     * Under the group's monitor: moves the position told to the stores past what no member has open.
     *
     * @param open every message a member has not acknowledged, as far as this connection knows
     */
    void advance(Iterable<Fjm2Message> open) {
        if (join != null || closed) {
            return;     // until the switch the stores' answer is not yet known here
        }
        Map<DurablePosition.Stream, Long> oldestOpen = new HashMap<>();
        for (Fjm2Message m : open) {
            oldestOpen.merge(DurablePosition.Stream.of(m), m.originSequence(), Math::min);
        }
        for (Map.Entry<DurablePosition.Stream, Long> e : newest.entrySet()) {
            Long oldest = oldestOpen.get(e.getKey());
            position.moveForward(e.getKey(), oldest == null ? e.getValue() : Math.min(e.getValue(), oldest - 1));
        }
    }
}
