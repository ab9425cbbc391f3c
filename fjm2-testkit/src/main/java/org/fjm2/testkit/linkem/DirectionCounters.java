package org.fjm2.testkit.linkem;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The counters of one direction. Only the emulator's event-loop thread writes them (a plain read and an ordered
 * write, no atomic read-modify-write); any thread may take a {@link #snapshot()}.
 */
final class DirectionCounters {

    enum Counter {
        PACKETS_IN, BYTES_IN, PACKETS_OUT, BYTES_OUT,
        DROPPED_LOSS, DROPPED_BURST, DROPPED_QUEUE, DROPPED_DOWN,
        DUPLICATED, REORDERED, DELAYED_BY_LOSS, HELD_WHILE_DOWN
    }

    private final AtomicLongArray values = new AtomicLongArray(Counter.values().length);

    void increment(Counter counter) {
        add(counter, 1);
    }

    void add(Counter counter, long delta) {
        int i = counter.ordinal();
        values.setRelease(i, values.getPlain(i) + delta);
    }

    void countIn(int bytes) {
        increment(Counter.PACKETS_IN);
        add(Counter.BYTES_IN, bytes);
    }

    void countOut(int bytes) {
        increment(Counter.PACKETS_OUT);
        add(Counter.BYTES_OUT, bytes);
    }

    void countDrop(DropReason reason) {
        increment(switch (reason) {
            case LOSS -> Counter.DROPPED_LOSS;
            case BURST -> Counter.DROPPED_BURST;
            case QUEUE -> Counter.DROPPED_QUEUE;
            case DOWN -> Counter.DROPPED_DOWN;
        });
    }

    long get(Counter counter) {
        return values.getAcquire(counter.ordinal());
    }

    DirectionStats snapshot(String name) {
        return new DirectionStats(name,
                get(Counter.PACKETS_IN), get(Counter.BYTES_IN), get(Counter.PACKETS_OUT), get(Counter.BYTES_OUT),
                get(Counter.DROPPED_LOSS), get(Counter.DROPPED_BURST), get(Counter.DROPPED_QUEUE), get(Counter.DROPPED_DOWN),
                get(Counter.DUPLICATED), get(Counter.REORDERED), get(Counter.DELAYED_BY_LOSS), get(Counter.HELD_WHILE_DOWN));
    }
}
