package org.fjm2.norm;

import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.fjm2.norm.fuzz.DatagramFraming;
import org.fjm2.norm.fuzz.ErrorLogWatch;
import org.fjm2.norm.fuzz.InputBounds;
import org.fjm2.norm.fuzz.NormMessageSynth;
import org.fjm2.norm.fuzz.SessionUnderFuzz;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Fuzz target: the stateful receiver. Each input is a sequence of datagrams delivered to a fresh session (so that a
 * crash input replays alone) over an in-memory transport, the way a socket read loop delivers them. Per input: no
 * exception escapes the receive path and the event loop logs none, the event loop's time and allocation stay within
 * {@link InputBounds}, and the number of remote senders tracked stays within {@link #MAX_TRACKED_SENDERS}.
 */
class ReceiverFuzzTest {

    /**
     * Remote senders one session may track at once. The design requires a cap on every table keyed by a remote id;
     * a group with more concurrent senders than this is not a deployment FJM2 aims at.
     */
    static final int MAX_TRACKED_SENDERS = 1024;

    /** The back-off randomness of every session (fixed, so that inputs replay the same way). */
    static final long SEED = 5740L;

    private ErrorLogWatch errors;

    @BeforeEach
    void watchErrors() {
        errors = ErrorLogWatch.install();
    }

    @AfterEach
    void stopWatching() {
        errors.uninstall();
    }

    /** The input is datagrams framed by {@link DatagramFraming}: any bytes at all. */
    @FuzzTest
    void rawDatagrams(byte[] input) throws Exception {
        receive(input, DatagramFraming.split(input));
    }

    /** The input is a program of {@link NormMessageSynth}: valid NORM messages with fuzzed fields. */
    @FuzzTest
    void structuredMessages(byte[] input) throws Exception {
        receive(input, null);
    }

    private void receive(byte[] input, List<byte[]> raw) throws Exception {
        errors.clear();
        InputBounds.checkConfirmed(() -> receiveOnFreshSession(input, raw), input.length, input);
        errors.assertNoErrors(InputBounds.describe(input));
    }

    private static InputBounds.Cost receiveOnFreshSession(byte[] input, List<byte[]> raw) {
        try (SessionUnderFuzz target = SessionUnderFuzz.open(SessionUnderFuzz.config().build(), SEED)) {
            List<byte[]> datagrams = raw != null ? raw
                    : new NormMessageSynth(SessionUnderFuzz.NODE_ID, target.session().instanceId(), 0)
                    .messages(input);
            InputBounds.Cost cost = target.inject(datagrams);
            int tracked = target.session().remoteSenderIds().size();
            if (tracked > MAX_TRACKED_SENDERS) {
                throw new AssertionError("the session tracks " + tracked + " remote senders (cap "
                        + MAX_TRACKED_SENDERS + ") after " + InputBounds.describe(input));
            }
            return cost;
        }
    }
}
