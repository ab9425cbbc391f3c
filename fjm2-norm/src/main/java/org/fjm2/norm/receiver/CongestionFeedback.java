package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.protocol.TcpFriendlyRate;

/**
 * What this receiver tells one NORM-CC sender about its path (RFC 5740 section 5.5.2): the loss event fraction
 * ({@link LossIntervals}), the round trip the sender measured to us (from our entry in its CC node list; its GRTT
 * until it lists us), the rate we receive at ({@link ReceiveRate}), and from these the rate we can take — twice the
 * received rate before the first loss (slow start, flag START), the TCP-friendly rate after. Written as EXT_CC_FEEDBACK
 * into every NACK and ACK to that sender, with CLR/PLR when the sender named us its (potential) limiting receiver and
 * RTT once our round trip was measured.
 *
 * <p>Also decides whether another receiver's feedback makes ours redundant (suppression, as NRL NORM does: a
 * non-limiting receiver holds back when someone reported a rate not much above its own). Made when a sender's
 * NORM_CMD(CC) carries EXT_CC_RATE; a node list entry with an impossible round trip (beyond {@code grttMax}) is
 * ignored and counted by the caller. No allocation after construction; owned by the session's event loop.
 */
final class CongestionFeedback {

    /** A receiver is suppressed by feedback whose rate is below its own divided by this (NRL NORM's 0.9). */
    static final double SUPPRESSION_MARGIN = 0.9;

    private final LossIntervals losses;
    private final ReceiveRate received = new ReceiveRate();
    private final double maxRttSeconds;
    private final int segmentFloor;
    private double rttSeconds;
    private boolean rttConfirmed;
    private boolean clr;
    private boolean plr;
    private boolean slowStart = true;
    private int ccSequence;
    private double senderRate;
    private boolean lossEventPending;
    /** Whether the sender's last probe listed limiting receivers (it runs NORM-CC, not only GRTT probing). */
    private boolean listed;
    private boolean holdingOff;
    private long holdOffUntil;

    /**
     * @param grttSeconds     the sender's advertised GRTT: our round trip until it measures ours
     * @param maxRttSeconds   round trips beyond this in a node list are impossible (the session's {@code grttMax})
     * @param segmentFloor    nominal packet size before any message arrived
     */
    CongestionFeedback(double grttSeconds, double maxRttSeconds, int segmentFloor) {
        this.rttSeconds = grttSeconds;
        this.maxRttSeconds = maxRttSeconds;
        this.segmentFloor = segmentFloor;
        this.losses = new LossIntervals(nanos(grttSeconds));
    }

    private static long nanos(double seconds) {
        return (long) (seconds * 1e9);
    }

    /**
     * A message of the sender arrived; returns true when it revealed a new loss event and we are its (potential)
     * limiting receiver: the sender should hear of it at once.
     */
    boolean onMessage(int sequence, int length, long now) {
        received.onMessage(length, now, nanos(rttSeconds));
        if (!losses.onMessage(sequence, now)) {
            return false;
        }
        if (slowStart) {
            slowStart = false;
            double rate = Math.max(received.bytesPerSecond(), packetSize());
            double seeded = TcpFriendlyRate.lossFor(packetSize(), rttSeconds, rate);
            // never better than the one loss interval actually seen, nor worse than one message in two
            double measured = 1.0 / Math.max(2, losses.lastInterval());
            losses.seed(Math.min(seeded, measured));
        }
        lossEventPending = clr || plr;
        return lossEventPending;
    }

    /** The sender's advertised GRTT changed: our round trip until the sender measures it. */
    void onGrtt(double grttSeconds) {
        if (!rttConfirmed) {
            rttSeconds = grttSeconds;
            losses.eventWindow(nanos(grttSeconds));
        }
    }

    /**
     * A NORM_CMD(CC) with EXT_CC_RATE at {@code rateIndex}: takes its sequence, the sender's rate and our entry of
     * its node list (CLR, PLR, our round trip). Returns false when our entry carried an impossible round trip.
     */
    boolean onProbe(CommandFlyweight cmd, int rateIndex, int localNodeId) {
        ccSequence = cmd.ccSequence();
        senderRate = Quantizer.unquantizeRate(HeaderExtensions.ccRate(cmd.buffer(), rateIndex));
        clr = false;
        plr = false;
        int count = cmd.ccNodeCount();
        listed = count > 0;
        for (int i = 0; i < count; i++) {
            if (cmd.ccNodeId(i) != localNodeId) {
                continue;
            }
            double rtt = Quantizer.unquantizeRtt(cmd.ccNodeRtt(i));
            if (rtt > maxRttSeconds) {
                return false;
            }
            int flags = cmd.ccNodeFlags(i);
            clr = (flags & NormWire.CC_FLAG_CLR) != 0;
            plr = !clr && (flags & NormWire.CC_FLAG_PLR) != 0;
            rttSeconds = rtt;
            rttConfirmed = true;
            losses.eventWindow(nanos(rtt));
            return true;
        }
        return true;
    }

    /** Whether the sender named us its current or a potential limiting receiver: we answer its probes at once. */
    boolean limiting() {
        return clr || plr;
    }

    /** Whether the sender's last probe had a node list: it runs NORM-CC, and answers are suppressed and held off. */
    boolean listed() {
        return listed;
    }

    /**
     * No answer to probes before {@code untilNanos}: we answered, or another receiver's feedback covered ours.
     * Applies only while the sender runs NORM-CC (lists limiting receivers); GRTT probes are always answered.
     */
    void holdOff(long untilNanos) {
        holdingOff = true;
        holdOffUntil = untilNanos;
    }

    /** Whether a probe arriving at {@code now} goes unanswered (hold-off). */
    boolean heldOff(long now) {
        return listed && holdingOff && now - holdOffUntil < 0;
    }

    /**
     * Whether the EXT_CC_FEEDBACK in another receiver's NACK or ACK to this sender makes our pending answer
     * redundant ({@link #suppressedBy(int, double)}); never while the sender only probes the GRTT.
     */
    boolean suppressedBy(FeedbackFlyweight other) {
        if (!listed) {
            return false;
        }
        ByteBuf buf = other.buffer();
        int end = other.offset() + other.headerLength();
        int index = HeaderExtensions.find(buf, other.extensionsIndex(), end, NormWire.EXT_CC_FEEDBACK);
        if (index < 0 || HeaderExtensions.extensionLength(buf, index, end) != HeaderExtensions.CC_FEEDBACK_LENGTH) {
            return false;
        }
        return suppressedBy(HeaderExtensions.ccFeedbackFlags(buf, index),
                Quantizer.unquantizeRate(HeaderExtensions.ccFeedbackRate(buf, index)));
    }

    /** Takes the pending "a loss event happened while we limit the sender" signal. */
    boolean takeLossEvent() {
        boolean pending = lossEventPending;
        lossEventPending = false;
        return pending;
    }

    /**
     * Feedback outside a probe's answer (a loss event while we limit the sender) carries the next cc_sequence, so
     * that the sender, which ignores its CLR's feedback unless it is newer than the last, takes it.
     */
    void advanceSequence() {
        ccSequence = (ccSequence + 1) & 0xFFFF;
    }

    double loss() {
        return slowStart ? 0.0 : losses.lossFraction();
    }

    private double packetSize() {
        double nominal = received.nominalSize();
        return nominal > 0 ? nominal : segmentFloor;
    }

    /**
     * The rate we can take, in bytes per second: twice what we receive in slow start (the sender's own rate before
     * we measured anything), the equation's after.
     */
    double rateBytesPerSecond() {
        double loss = loss();
        if (Quantizer.quantizeLoss32(loss) == 0) {
            double rate = received.bytesPerSecond();
            if (rate > 0) {
                return 2.0 * rate;
            }
            // nothing measured yet: no objection to the sender's rate (not a collapse to one datagram per second)
            return senderRate > 0 ? senderRate : 2.0 * packetSize();
        }
        return TcpFriendlyRate.bytesPerSecond(packetSize(), rttSeconds, loss);
    }

    /** Our cc_flags: CLR or PLR, RTT once measured, START while no loss is known. */
    int flags() {
        int flags = clr ? NormWire.CC_FLAG_CLR : plr ? NormWire.CC_FLAG_PLR : 0;
        if (rttConfirmed) {
            flags |= NormWire.CC_FLAG_RTT;
        }
        if (Quantizer.quantizeLoss32(loss()) == 0) {
            flags |= NormWire.CC_FLAG_START;
        }
        return flags;
    }

    /** Writes EXT_CC_FEEDBACK at {@code index}; returns its length. */
    int write(ByteBuf buf, int index) {
        return HeaderExtensions.writeCcFeedback(buf, index, ccSequence, flags(), Quantizer.quantizeRtt(rttSeconds),
                Quantizer.quantizeLoss32(loss()), Quantizer.quantizeRate(rateBytesPerSecond()));
    }

    /**
     * Whether another receiver's CC feedback ({@code flags}, {@code rateBytes}) makes ours redundant: feedback from
     * the limiting receiver never does; otherwise a rate no higher than ours (within {@link #SUPPRESSION_MARGIN})
     * does — from anyone once our round trip is measured, only from receivers without a measured one before.
     */
    boolean suppressedBy(int flags, double rateBytes) {
        if ((flags & NormWire.CC_FLAG_CLR) != 0 || limiting()) {
            return false;
        }
        if (!rttConfirmed && (flags & NormWire.CC_FLAG_RTT) != 0) {
            return false;
        }
        return rateBytesPerSecond() > SUPPRESSION_MARGIN * rateBytes;
    }

    /**
     * Where within the back-off window our answer goes, 0..1: a receiver far below the sender's rate answers early,
     * one that could take the sender's rate late (so the likely limiting receivers are heard first and suppress the
     * rest). In slow start, the received share of the sender's rate.
     */
    double answerBias() {
        if (!(senderRate > 0)) {
            return 1.0;
        }
        double r = rateBytesPerSecond() / senderRate;
        if (loss() > 0) {
            r = (Math.max(0.5, Math.min(0.9, r)) - 0.5) / 0.4;
        }
        return Math.max(0.0, Math.min(1.0, r));
    }

    double rttSeconds() {
        return rttSeconds;
    }

    boolean inSlowStart() {
        return slowStart;
    }
}
