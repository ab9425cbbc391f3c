package org.fjm2.jms;

import org.fjm2.jms.message.Fjm2Message;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a durable subscriber stands: per producer stream (publisher epoch, producer, priority) the last sequence
 * number it acknowledged. Acknowledgements move it (any thread); the connection's position flush takes what changed
 * and sends the streams that moved to the stores ({@link DurableSubscriptions}). At most {@link #MAX_STREAMS} streams are remembered, the
 * one acknowledged longest ago going first (its messages are long consumed; should the store still hold one of them,
 * it would be replayed again — see fjm2-store's README).
 */
final class DurablePosition {

    /** Producer streams remembered per subscriber (several position records carry them when there are many). */
    static final int MAX_STREAMS = 4096;

    /** A producer stream as messages name their origin. */
    record Stream(long epoch, int producer, int priority) {
        static Stream of(Fjm2Message m) {
            return new Stream(m.originEpoch(), m.originProducer(), m.originPriority());
        }
    }

    /** Guarded by this; access order: the least recently acknowledged stream is the eldest. */
    private final Map<Stream, Long> last = streamMarks();
    /** Streams whose position moved since the last flush. Guarded by this. */
    private final Map<Stream, Long> changed = new LinkedHashMap<>();
    /** Per stream the last sequence handed to the application, acknowledged or not. Guarded by this. */
    private final Map<Stream, Long> handed = streamMarks();
    /** Streams handed further since the last flush. Guarded by this. */
    private final Map<Stream, Long> handedChanged = new LinkedHashMap<>();

    /** Per stream a number, at most {@link #MAX_STREAMS}, the least recently moved going first. */
    static Map<Stream, Long> streamMarks() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Stream, Long> eldest) {
                return size() > MAX_STREAMS;
            }
        };
    }

    /** The message was handed to the application (receive or listener): if it comes again, it is a redelivery. */
    synchronized void handed(Fjm2Message m) {
        advance(handed, handedChanged, m);
    }

    /** Moves the message's stream in {@code marks} to its number (never backwards), noting it in {@code moved}. */
    private static void advance(Map<Stream, Long> marks, Map<Stream, Long> moved, Fjm2Message m) {
        advance(marks, moved, Stream.of(m), m.originSequence());
    }

    private static void advance(Map<Stream, Long> marks, Map<Stream, Long> moved, Stream stream, long sequence) {
        Long before = marks.get(stream);
        if (before == null || before < sequence) {
            marks.put(stream, sequence);
            moved.put(stream, sequence);
        }
    }

    /**
     * The streams handed further than acknowledged, with the last number handed: since the last call, or all of them
     * ({@code all}, the last word of a closing subscriber). Streams acknowledged as far as handed need no word: the
     * store replays nothing of them up to there.
     */
    synchronized Map<Stream, Long> takeHandedBeyondAcknowledged(boolean all) {
        Map<Stream, Long> out = new LinkedHashMap<>();
        for (Map.Entry<Stream, Long> e : (all ? handed : handedChanged).entrySet()) {
            Long acknowledged = last.get(e.getKey());
            if (acknowledged == null || acknowledged < e.getValue()) {
                out.put(e.getKey(), e.getValue());
            }
        }
        handedChanged.clear();
        return out;
    }

    /** The message is acknowledged: its stream's position moves to it (never backwards). */
    synchronized void acknowledged(Fjm2Message m) {
        advance(last, changed, m);
    }

    /** Moves a stream's position to {@code sequence} (never backwards), as a change to send. */
    synchronized void moveForward(Stream stream, long sequence) {
        advance(last, changed, stream, sequence);
    }

    /**
     * Moves a stream's position to {@code sequence} (never backwards) without counting it as a change to send: what
     * another member of a shared subscription said it acknowledged.
     */
    synchronized void moveTo(Stream stream, long sequence) {
        last.merge(stream, sequence, Math::max);
    }

    /** The last sequence number acknowledged of the stream; 0 (numbers start at 1) when none is known. */
    synchronized long through(Stream stream) {
        Long through = last.get(stream);
        return through == null ? 0 : through;
    }

    /**
     * The streams whose position moved since the last call, with their new position (the stores keep the rest);
     * empty when none did.
     */
    synchronized Map<Stream, Long> takeChanged() {
        Map<Stream, Long> out = new LinkedHashMap<>(changed);
        changed.clear();
        return out;
    }

    /** The whole position (the last word of a closing subscriber: it covers whatever earlier flushes said). */
    synchronized Map<Stream, Long> takeAll() {
        changed.clear();
        return new LinkedHashMap<>(last);
    }
}
