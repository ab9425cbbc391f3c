package org.fjm2.store;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where each producer stream stands at the store, on the receive thread (which owns it): the last sequence number
 * seen, and where the run of numbers the store has without a hole began. An acknowledgement may only cover such a
 * run: a message the store missed (loss, or the store was down) or did not keep (another topic) starts a new one.
 * Streams not heard for longest are forgotten beyond {@link #MAX_STREAMS}; one heard again starts afresh.
 */
final class StreamTracker {

    /** Streams remembered (about 100 bytes each). */
    static final int MAX_STREAMS = 65_536;
    /** What {@link #accept} returns for a number already seen. */
    static final long DUPLICATE = -1;

    /** Per stream: {run start, last seen}. Access order: the eldest is the least recently heard. */
    private final Map<StreamKey, long[]> streams = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<StreamKey, long[]> eldest) {
            return size() > MAX_STREAMS;
        }
    };

    /**
     * @return the first number of the hole-free run that {@code sequence} continues (itself after a hole), or
     *         {@link #DUPLICATE}
     */
    long accept(StreamKey stream, long sequence) {
        long[] state = streams.get(stream);
        if (state == null) {
            streams.put(stream, new long[] {sequence, sequence});
            return sequence;
        }
        if (sequence <= state[1]) {
            return DUPLICATE;
        }
        if (sequence != state[1] + 1) {
            state[0] = sequence;
        }
        state[1] = sequence;
        return state[0];
    }

    /** A PERSISTENT message the store does not keep: no acknowledged run may span it. */
    void notKept(StreamKey stream, long sequence) {
        long[] state = streams.get(stream);
        if (state != null && state[1] == sequence) {
            state[0] = sequence + 1;
        }
    }

    int size() {
        return streams.size();
    }
}
