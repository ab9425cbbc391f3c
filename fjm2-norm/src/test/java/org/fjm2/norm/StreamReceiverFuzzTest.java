package org.fjm2.norm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.fuzz.ErrorLogWatch;
import org.fjm2.norm.fuzz.InputBounds;
import org.fjm2.norm.fuzz.SessionUnderFuzz;
import org.fjm2.norm.fuzz.StreamMessageSynth;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Fuzz target: the stream payload decoder and assembler (NORM_OBJECT_STREAM receive side). Each input is a program
 * of {@link StreamMessageSynth} — well-formed streams of two remote senders cut as NRL cuts them, mixed with
 * commands at any position and hand-made segments with any header — delivered to a fresh session over an in-memory
 * transport. Per input: no exception escapes and the event loop logs none, time and allocation stay within
 * {@link InputBounds}, the bytes held stay within each sender's stream buffer, and what the listener hears is a
 * stream: each delivery continues where the last one (or the gap before it) ended, nothing follows a close.
 */
class StreamReceiverFuzzTest {

    /** The back-off randomness of every session (fixed, so that inputs replay the same way). */
    static final long SEED = 5741L;
    /** A small stream buffer, so that inputs reach the window's limits. */
    static final long STREAM_BUFFER = 256 * 1024;

    private ErrorLogWatch errors;

    @BeforeEach
    void watchErrors() {
        errors = ErrorLogWatch.install();
    }

    @AfterEach
    void stopWatching() {
        errors.uninstall();
    }

    @FuzzTest
    void structuredStream(byte[] input) throws Exception {
        errors.clear();
        InputBounds.checkConfirmed(() -> receiveOnFreshSession(input), input.length, input);
        errors.assertNoErrors(InputBounds.describe(input));
    }

    private static InputBounds.Cost receiveOnFreshSession(byte[] input) {
        StreamChecker checker = new StreamChecker();
        NormConfig config = SessionUnderFuzz.config().streamBufferBytes(STREAM_BUFFER).build();
        try (SessionUnderFuzz target = SessionUnderFuzz.open(config, SEED, checker)) {
            List<byte[]> datagrams = new StreamMessageSynth().datagrams(input);
            InputBounds.Cost cost = target.inject(datagrams);
            long held = target.session().receiveBufferBytesHeld();
            if (held > StreamMessageSynth.SOURCES.length * STREAM_BUFFER) {
                throw new AssertionError("the session holds " + held + " bytes for "
                        + StreamMessageSynth.SOURCES.length + " streams of at most " + STREAM_BUFFER + " after "
                        + InputBounds.describe(input));
            }
            List<String> violations = checker.violations();
            if (!violations.isEmpty()) {
                throw new AssertionError("stream callbacks out of order: " + violations + " after "
                        + InputBounds.describe(input));
            }
            return cost;
        }
    }

    /** Checks the listener's view of every stream: in order, gaps in place, nothing after the close. */
    static final class StreamChecker implements NormListener {
        private final Map<Long, Long> next = new HashMap<>();
        private final List<String> violations = new ArrayList<>();

        private static long key(RemoteSenderInfo sender, int streamId) {
            return ((long) sender.nodeId() << 16) | streamId;
        }

        private void expect(RemoteSenderInfo sender, int streamId, long offset, String what) {
            Long expected = next.get(key(sender, streamId));
            if (expected == null) {
                violations.add(what + " of stream " + streamId + " that is not open");
            } else if (expected != offset) {
                violations.add(what + " of stream " + streamId + " at " + offset + ", expected " + expected);
            }
        }

        @Override
        public synchronized void onStreamOpened(RemoteSenderInfo sender, int streamId, long offset) {
            if (next.put(key(sender, streamId), offset) != null) {
                violations.add("stream " + streamId + " opened twice");
            }
        }

        @Override
        public synchronized void onStreamData(RemoteSenderInfo sender, int streamId, long offset, ByteBuf data,
                                              int messageStart) {
            expect(sender, streamId, offset, "data");
            if (messageStart < -1 || messageStart >= data.readableBytes()) {
                violations.add("message start " + messageStart + " outside " + data.readableBytes() + " bytes");
            }
            ByteBufUtil.hashCode(data);
            next.put(key(sender, streamId), offset + data.readableBytes());
        }

        @Override
        public synchronized void onStreamGap(RemoteSenderInfo sender, int streamId, long offset, long bytes) {
            expect(sender, streamId, offset, "gap");
            if (bytes <= 0) {
                violations.add("gap of " + bytes + " bytes");
            }
            next.put(key(sender, streamId), offset + bytes);
        }

        @Override
        public synchronized void onStreamClosed(RemoteSenderInfo sender, int streamId, long offset,
                                                LossReason reason) {
            Long expected = next.remove(key(sender, streamId));
            if (expected != null && expected != offset) {
                violations.add("close of stream " + streamId + " at " + offset + ", expected " + expected);
            }
        }

        synchronized List<String> violations() {
            return new ArrayList<>(violations);
        }
    }
}
