package org.fjm2.norm;

import java.util.List;
import java.util.concurrent.TimeUnit;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.fuzz.DatagramFraming;
import org.fjm2.norm.fuzz.ErrorLogWatch;
import org.fjm2.norm.fuzz.InputBounds;
import org.fjm2.norm.fuzz.NormMessageSynth;
import org.fjm2.norm.fuzz.SessionUnderFuzz;
import org.fjm2.norm.sender.CcRateController;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Fuzz target: the sender's NACK and ACK handling. A fresh session sends {@link #OBJECT_SIZES} (several FEC blocks
 * each, so repair requests have something to name), then receives the input's feedback addressed to it. Per input:
 * no exception escapes and none is logged, the event loop's time and allocation stay within {@link InputBounds}, and
 * the receivers the sender tracks stay within {@link #MAX_TRACKED_RECEIVERS}.
 */
class SenderFeedbackFuzzTest {

    /** Objects the sender has sent before the feedback arrives: one segment, a few blocks, a partial last block. */
    static final int[] OBJECT_SIZES = {100, 64 * 16 * 4, 64 * 16 * 9 + 33};

    /** Receivers one sender may track for flow control (the design caps every table keyed by a remote id). */
    static final int MAX_TRACKED_RECEIVERS = 1024;

    static final long SEED = 5740L;

    /** Segment size and block length of the sender: small, so that small objects span several blocks. */
    static final int SEGMENT_SIZE = 64;
    static final int BLOCK_SIZE = 16;

    /** How long the sender may take to send the objects (a few hundred datagrams) before the input arrives. */
    private static final long SENT_WITHIN_MILLIS = 10_000;

    private ErrorLogWatch errors;

    @BeforeEach
    void watchErrors() {
        errors = ErrorLogWatch.install();
    }

    @AfterEach
    void stopWatching() {
        errors.uninstall();
    }

    /**
     * Any datagrams (framed by {@link DatagramFraming}); a NACK or ACK whose instance_id field is zero gets the
     * sender's instance id (random per session) written there, so raw inputs can address the sender too.
     */
    @FuzzTest
    void rawFeedback(byte[] input) throws Exception {
        feed(input, true);
    }

    /** Valid NACKs and ACKs (and other messages) with fuzzed fields, from {@link NormMessageSynth}. */
    @FuzzTest
    void structuredFeedback(byte[] input) throws Exception {
        feed(input, false);
    }

    /**
     * NORM-CC feedback ({@link NormMessageSynth}'s NACKs and ACKs, with EXT_CC_FEEDBACK in the ACKs) to a sender
     * running {@code rateControl=cc}: besides the bounds above, whatever the feedback claims, the sender's rate stays
     * between NORM-CC's floor and the configured rate.
     */
    @FuzzTest
    void congestionFeedback(byte[] input) throws Exception {
        errors.clear();
        InputBounds.checkConfirmed(() -> feedFreshSender(input, false, true), input.length, input);
        errors.assertNoErrors(InputBounds.describe(input));
    }

    private void feed(byte[] input, boolean raw) throws Exception {
        errors.clear();
        InputBounds.checkConfirmed(() -> feedFreshSender(input, raw, false), input.length, input);
        errors.assertNoErrors(InputBounds.describe(input));
    }

    private static InputBounds.Cost feedFreshSender(byte[] input, boolean raw, boolean cc)
            throws InterruptedException {
        NormConfig.Builder builder = SessionUnderFuzz.config().segmentSize(SEGMENT_SIZE).blockSize(BLOCK_SIZE)
                .parity(4);
        if (cc) {
            builder.rateControl(NormConfig.RateControl.CC);
        }
        NormConfig config = builder.build();
        try (SessionUnderFuzz target = SessionUnderFuzz.open(config, SEED)) {
            NormSession session = target.session();
            sendObjects(session);
            int instance = session.instanceId();
            List<byte[]> datagrams = raw ? DatagramFraming.split(input)
                    : new NormMessageSynth(SessionUnderFuzz.NODE_ID, instance, target.firstSentObjectId())
                    .messages(input);
            if (raw) {
                datagrams.forEach(d -> addressLocalInstance(d, instance));
            }
            InputBounds.Cost cost = target.inject(datagrams);
            int tracked = session.call(() -> session.trackedReceivers());
            if (tracked > MAX_TRACKED_RECEIVERS) {
                throw new AssertionError("the sender tracks " + tracked + " receivers (cap " + MAX_TRACKED_RECEIVERS
                        + ") after " + InputBounds.describe(input));
            }
            long rate = session.txRateBitsPerSecond();
            long floor = Math.min(config.txRate(), CcRateController.MIN_BITS_PER_SECOND);
            if (cc && (rate < floor || rate > config.txRate())) {
                throw new AssertionError("the NORM-CC rate " + rate + " left [" + floor + ", " + config.txRate()
                        + "] after " + InputBounds.describe(input));
            }
            return cost;
        }
    }

    private static void sendObjects(NormSession session) throws InterruptedException {
        for (int size : OBJECT_SIZES) {
            ByteBuf data = Unpooled.buffer(size);
            for (int i = 0; i < size; i++) {
                data.writeByte(i * 31);
            }
            if (session.enqueue(data, null, 4, 1, TimeUnit.SECONDS) < 0) {
                throw new AssertionError("the sender did not take object of " + size + " bytes");
            }
        }
        long segments = 0;
        for (int size : OBJECT_SIZES) {
            segments += (size + SEGMENT_SIZE - 1) / SEGMENT_SIZE;
        }
        long allSent = segments;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SENT_WITHIN_MILLIS);
        while (session.counters().get(NormCounters.Counter.DATA_SENT) < allSent) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the sender did not send its objects within " + SENT_WITHIN_MILLIS + " ms");
            }
            Thread.onSpinWait();
        }
    }

    private static void addressLocalInstance(byte[] datagram, int instance) {
        int type = datagram.length > 0 ? datagram[0] & 0x0F : 0;
        if ((type == NormWire.TYPE_NACK || type == NormWire.TYPE_ACK)
                && datagram.length >= FeedbackFlyweight.INSTANCE_ID_OFFSET + 2
                && datagram[FeedbackFlyweight.INSTANCE_ID_OFFSET] == 0
                && datagram[FeedbackFlyweight.INSTANCE_ID_OFFSET + 1] == 0) {
            datagram[FeedbackFlyweight.INSTANCE_ID_OFFSET] = (byte) (instance >>> 8);
            datagram[FeedbackFlyweight.INSTANCE_ID_OFFSET + 1] = (byte) instance;
        }
    }
}
