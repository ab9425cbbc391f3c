package org.fjm2.norm.sender;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.FlowReport;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.protocol.ProtocolContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What receivers tell the sender: NACKs become repairs (and squelches for what is no longer cached), watermark
 * ACKs move flow control and users' requests on, "leave" ACKs stop the wait for a receiver, and every feedback
 * message carrying a GRTT response is an RTT sample. Feedback of another instance of this node is ignored.
 * Owned by the session's event loop.
 */
final class FeedbackHandler {

    private static final Logger LOG = LoggerFactory.getLogger(FeedbackHandler.class);

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final int instanceId;
    private final SenderState state;
    private final Acknowledgements acks;
    private final RepairScheduler repairs;
    private final GrttEstimator grtt;
    private final ProbeSchedule probes;
    private final RateController rate;
    private final CacheEviction eviction;
    private final WatermarkRounds rounds;
    private final FlowWindow flow;

    FeedbackHandler(ProtocolContext ctx, int instanceId, SenderState state, Acknowledgements acks, RepairScheduler repairs,
                    GrttEstimator grtt, ProbeSchedule probes, RateController rate, CacheEviction eviction,
                    WatermarkRounds rounds, FlowWindow flow) {
        this.flow = flow;
        this.probes = probes;
        this.ctx = ctx;
        this.config = ctx.config();
        this.instanceId = instanceId;
        this.state = state;
        this.acks = acks;
        this.repairs = repairs;
        this.grtt = grtt;
        this.rate = rate;
        this.eviction = eviction;
        this.rounds = rounds;
    }

    /** A NORM_NACK addressed to this sender. */
    void onNack(FeedbackFlyweight nack) {
        ctx.counters().increment(Counter.NACKS_RECEIVED);
        if (nack.instanceId() != instanceId) {
            return;
        }
        acks.heardFrom(nack.sourceId(), ctx.nanoTime());
        onCongestionFeedback(nack, updateRtt(nack));
        if (acks.reportsWindow(nack.sourceId())) {
            rate.onPacedReceiverLoss(ctx.nanoTime(), grtt.advertisedNanos());
        } else {
            rate.onLoss(ctx.nanoTime(), grtt.advertisedNanos());
        }
        if (repairs.onNack(nack)) {
            state.due(SenderState.DUE_SQUELCH);
            ctx.wakeTransmitter();
        }
    }

    /** A NORM_ACK addressed to this sender. */
    void onAck(FeedbackFlyweight ack) {
        ctx.counters().increment(Counter.ACKS_RECEIVED);
        if (ack.instanceId() != instanceId) {
            return;
        }
        onCongestionFeedback(ack, updateRtt(ack));
        if (ack.ackType() == NormWire.ACK_FLUSH) {
            if (ack.ackFlushFecId() != SenderPackets.FEC_ID) {
                return;
            }
            boolean ended = acknowledged(ack.sourceId(), ack.ackFlushObjectId());
            if (LOG.isTraceEnabled()) {
                LOG.trace("watermark ACK from {} for object {}{}", Integer.toUnsignedString(ack.sourceId()),
                        ack.ackFlushObjectId(), ended ? ": round complete" : "");
            }
        } else if (ack.ackType() == NormWire.ACK_FJM2_FLOW) {
            onWindowReport(ack);
        } else if (ack.ackType() == NormWire.ACK_FJM2_ALIVE) {
            acks.alive(ack.sourceId(), ctx.nanoTime());
        } else if (ack.ackType() == NormWire.ACK_FJM2_LEAVE) {
            acks.leave(ack.sourceId());
            ctx.wakeTransmitter();      // room may be made now that nobody waits for the leaver
        } else {
            acks.heardFrom(ack.sourceId(), ctx.nanoTime());
        }
    }

    /** The receiver has everything up to {@code objectId}; true when that completed the active round. */
    private boolean acknowledged(int nodeId, int objectId) {
        long now = ctx.nanoTime();
        boolean ended = acks.onAck(nodeId, objectId, now);
        rounds.reportUserRound();
        if (ended) {
            rate.onRoundAcknowledged(now);
            ctx.wakeTransmitter();
        }
        eviction.trimAcknowledged();
        return ended;
    }

    /** A receive-window report (receiver-paced flow control), also a continuous watermark acknowledgement. */
    private void onWindowReport(FeedbackFlyweight ack) {
        ctx.counters().increment(Counter.FLOW_REPORTS_RECEIVED);
        if (!config.receiverFlowControl()) {
            return;     // not offered: an unasked report must not shut our gate
        }
        long now = ctx.nanoTime();
        long windowBytes = (long) FlowReport.windowUnits(ack) * FlowReport.WINDOW_UNIT;
        if (!acks.onWindowReport(ack.sourceId(), FlowReport.readSequence(ack), windowBytes, now, flow)) {
            return;
        }
        if ((FlowReport.flags(ack) & FlowReport.FLAG_RELEASED) != 0) {
            acknowledged(ack.sourceId(), FlowReport.releasedObject(ack));
        }
        rate.onProgress(now, grtt.advertisedNanos());
        flow.onReport();
    }

    /**
     * EXT_CC_FEEDBACK in a NACK or ACK, for NORM-CC: checked, then handed to the rate controller with the round trip
     * we measured ({@code measuredRttSeconds}, or the receiver's own cc_rtt when it echoed no probe). Impossible
     * values are counted ({@code CC_DROPPED}) and ignored: a rate of zero, a round trip beyond {@code grttMax}, an
     * extension of the wrong length, a cc_sequence the controller never sent.
     */
    private void onCongestionFeedback(FeedbackFlyweight feedback, double measuredRttSeconds) {
        if (rate.ccNodes() == null) {
            return;     // not NORM-CC: the GRTT echo was all we needed
        }
        ByteBuf buf = feedback.buffer();
        int end = feedback.offset() + feedback.headerLength();
        int index = HeaderExtensions.find(buf, feedback.extensionsIndex(), end, NormWire.EXT_CC_FEEDBACK);
        if (index < 0) {
            return;
        }
        double maxRtt = config.grttMax().toNanos() / 1e9;
        double reportedRate = Quantizer.unquantizeRate(HeaderExtensions.ccFeedbackRate(buf, index));
        double rtt = measuredRttSeconds;
        if (rtt == NO_RTT) {
            rtt = Quantizer.unquantizeRtt(HeaderExtensions.ccFeedbackRtt(buf, index));
        }
        if (HeaderExtensions.extensionLength(buf, index, end) != HeaderExtensions.CC_FEEDBACK_LENGTH
                || !(reportedRate > 0) || !(rtt >= 0) || rtt > maxRtt
                || !rate.onCcFeedback(feedback.sourceId(), HeaderExtensions.ccFeedbackFlags(buf, index), rtt,
                        Quantizer.unquantizeLoss32(HeaderExtensions.ccFeedbackLoss32(buf, index)), reportedRate,
                        HeaderExtensions.ccFeedbackSequence(buf, index), ctx.nanoTime())) {
            ctx.counters().increment(Counter.CC_DROPPED);
            return;
        }
        ctx.counters().increment(Counter.CC_FEEDBACK_RECEIVED);
    }

    /** What {@link #updateRtt} returns when the feedback carries no usable round-trip measurement. */
    private static final double NO_RTT = -1;

    /** Takes the feedback's echo of our probe as an RTT sample; returns it in seconds, or {@link #NO_RTT}. */
    private double updateRtt(FeedbackFlyweight feedback) {
        if (!feedback.hasGrttResponse()) {
            return NO_RTT;
        }
        long echoed = feedback.grttResponseSeconds() * 1_000_000L + feedback.grttResponseMicros();
        long rttMicros = ctx.micros() - echoed;
        if (LOG.isTraceEnabled()) {
            LOG.trace("RTT {} us from {} (message type {}, ack type {})", rttMicros,
                    Integer.toUnsignedString(feedback.sourceId()), feedback.type(), feedback.ackType());
        }
        if (rttMicros >= 0 && rttMicros < config.grttMax().toNanos() / 1000 * 4) {
            grtt.onRtt(rttMicros / 1e6, ctx.nanoTime());
            acks.onRtt(feedback.sourceId(), rttMicros * 1000);
            if (grtt.takeRaised()) {
                probes.soon(ctx.nanoTime());    // a larger RTT may be one slow moment: measure again soon
            }
            return rttMicros / 1e6;
        }
        return Double.MAX_VALUE;    // an echo, but an impossible one: no cc_rtt stands in for it
    }
}
