package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.FlowReport;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.protocol.ProtocolContext;

/**
 * This receiver's feedback to one remote sender: writes the NORM_NACK / NORM_ACK header — echoing the sender's
 * latest NORM_CMD(CC) send time plus how long we held it (grtt_response), so the sender measures its round-trip
 * time — builds the CC and FLUSH acknowledgements, and sends feedback to the group, or to the sender's address
 * when NACKs go unicast. Owned by the session's event loop.
 */
final class ReceiverFeedback {

    /**
     * Room NACK builders leave before their repair requests: the base header and an EXT_CC_FEEDBACK, which a NACK to
     * a NORM-CC sender carries (without it, the requests move down over the unused room before sending).
     */
    static final int NACK_HEADER_ROOM = FeedbackFlyweight.HEADER_LENGTH + HeaderExtensions.CC_FEEDBACK_LENGTH;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final RemoteSenderInfo sender;
    private final FeedbackFlyweight feedback;

    // GRTT echo (ProbeEcho): the NORM_CMD(CC) kept, its send time and when we read it; echoable from the second one.
    private long ccSendMicros;
    private long ccRecvMicros;
    private boolean ccEchoable;
    private int ccSequence;
    /** NORM-CC state, once the sender's probes carry EXT_CC_RATE: every NACK and ACK then carries our feedback. */
    private CongestionFeedback congestion;
    /** Whether we ever gave this sender feedback (it may then track us, and wants to hear when we leave). */
    private boolean spoke;

    ReceiverFeedback(ProtocolContext ctx, RemoteSenderInfo sender, ReceiverScratch scratch) {
        this.feedback = scratch.feedback;
        this.ctx = ctx;
        this.config = ctx.config();
        this.sender = sender;
    }

    /** The sender runs (or offers) NORM-CC: our NACKs and ACKs carry EXT_CC_FEEDBACK from now on. */
    void congestion(CongestionFeedback congestion) {
        this.congestion = congestion;
    }

    /** Writes our EXT_CC_FEEDBACK at {@code index} when the sender runs NORM-CC; returns its length (0 when not). */
    private int writeCongestion(ByteBuf packet, int index) {
        if (congestion == null) {
            return 0;
        }
        ctx.counters().increment(Counter.CC_FEEDBACK_SENT);
        return congestion.write(packet, index);
    }

    /** A NORM_CMD(CC) probe arrived: echoed in our next feedback unless we read it late ({@link ProbeEcho}). */
    void onProbe(long sendSeconds, long sendMicros, int sequence, double grttSeconds) {
        long send = sendSeconds * 1_000_000L + sendMicros;
        long read = ctx.micros();
        ccEchoable = ccSendMicros != 0;
        if (ProbeEcho.replaces(ccSendMicros, ccRecvMicros, send, read, grttSeconds)) {
            ccSendMicros = send;
            ccRecvMicros = read;
        }
        ccSequence = sequence;
    }

    /** Wraps {@code length} bytes of the packet and writes the feedback header (with grtt_response) into them. */
    private void writeHeader(ByteBuf packet, int length, int type, int ackType, int headerLength) {
        feedback.wrap(packet, packet.writerIndex(), length);
        long response = ProbeEcho.response(ccSendMicros, ccRecvMicros, ccEchoable, ctx.micros());
        feedback.writeFeedbackHeader(type, ctx.nextSequence(), ctx.nodeId(), sender.nodeId(), sender.instanceId(),
                ackType, 0, response / 1_000_000L, response % 1_000_000L);
        feedback.headerLength(headerLength);
    }

    /**
     * Sends a NORM_NACK whose repair requests ({@code requestsLength} bytes) were written {@link #NACK_HEADER_ROOM}
     * after the packet's writer index.
     */
    void sendNack(ByteBuf packet, int requestsLength) {
        int start = packet.writerIndex();
        int header = FeedbackFlyweight.HEADER_LENGTH
                + writeCongestion(packet, start + FeedbackFlyweight.HEADER_LENGTH);
        if (header < NACK_HEADER_ROOM) {
            // no extension: the requests move down (a forward copy to a lower index never overwrites its source)
            packet.setBytes(start + header, packet, start + NACK_HEADER_ROOM, requestsLength);
        }
        int length = header + requestsLength;
        writeHeader(packet, length, NormWire.TYPE_NACK, 0, header);
        packet.writerIndex(start + length);
        send(packet);
    }

    /**
     * NORM_ACK(CC): answers a probe that asked for feedback. To a NORM-CC sender with our loss, rate and round
     * trip; to a sender that only probes the GRTT (an older FJM2 or a sender without EXT_CC_RATE), with its GRTT.
     */
    void sendCcAck(double grttSeconds) {
        int header = FeedbackFlyweight.HEADER_LENGTH + HeaderExtensions.CC_FEEDBACK_LENGTH;
        ByteBuf packet = ctx.output().allocate(header);
        writeHeader(packet, header, NormWire.TYPE_ACK, NormWire.ACK_CC, header);
        int index = packet.writerIndex() + FeedbackFlyweight.HEADER_LENGTH;
        if (writeCongestion(packet, index) == 0) {
            HeaderExtensions.writeCcFeedback(packet, index, ccSequence, NormWire.CC_FLAG_RTT,
                    Quantizer.quantizeRtt(grttSeconds), 0, Quantizer.quantizeRate(0));
        }
        packet.writerIndex(packet.writerIndex() + header);
        send(packet);
        ctx.counters().increment(Counter.ACKS_SENT);
    }

    /** NORM_ACK(FLUSH): everything up to the watermark (object, block, symbol) arrived. */
    void sendAckFlush(int fecId, int m, int objectId, long block, int symbol, int blockLength) {
        ByteBuf packet = ctx.output().allocate(NACK_HEADER_ROOM + 16);
        int header = FeedbackFlyweight.HEADER_LENGTH
                + writeCongestion(packet, packet.writerIndex() + FeedbackFlyweight.HEADER_LENGTH);
        int payload = FeedbackFlyweight.writeAckFlushPayload(packet, packet.writerIndex() + header, fecId, m, objectId,
                block, symbol, blockLength);
        writeHeader(packet, header + payload, NormWire.TYPE_ACK, NormWire.ACK_FLUSH, header);
        packet.writerIndex(packet.writerIndex() + header + payload);
        send(packet);
        ctx.counters().increment(Counter.ACKS_SENT);
    }

    /**
     * NORM_ACK(FJM2 flow): how far we read the sender's messages and how many more our socket holds, straight to
     * the sender (the rest of the group has no use for it).
     */
    void sendFlowReport(int readSequence, int windowUnits, int releasedObject, int flags) {
        int length = FeedbackFlyweight.HEADER_LENGTH + FlowReport.LENGTH;
        ByteBuf packet = ctx.output().allocate(length);
        writeHeader(packet, length, NormWire.TYPE_ACK, NormWire.ACK_FJM2_FLOW, FeedbackFlyweight.HEADER_LENGTH);
        FlowReport.write(packet, packet.writerIndex() + FeedbackFlyweight.HEADER_LENGTH, readSequence, windowUnits,
                releasedObject, flags);
        packet.writerIndex(packet.writerIndex() + length);
        spoke = true;
        if (sender.address() != null) {
            ctx.output().sendTo(packet, sender.address());
        } else {
            ctx.output().sendToGroup(packet);
        }
        ctx.counters().increment(Counter.FLOW_REPORTS_SENT);
    }

    /** NORM_ACK(FJM2 leave): we are leaving the session; a sender that tracks us stops waiting for us. */
    void sendLeave() {
        if (spoke) {
            sendBareAck(NormWire.ACK_FJM2_LEAVE);
        }
    }

    /** NORM_ACK(FJM2 alive): listed by a round, but unable to acknowledge its watermark yet. */
    void sendAlive() {
        sendBareAck(NormWire.ACK_FJM2_ALIVE);
    }

    private void sendBareAck(int ackType) {
        ByteBuf packet = ctx.output().allocate(FeedbackFlyweight.HEADER_LENGTH);
        writeHeader(packet, FeedbackFlyweight.HEADER_LENGTH, NormWire.TYPE_ACK, ackType,
                FeedbackFlyweight.HEADER_LENGTH);
        packet.writerIndex(packet.writerIndex() + FeedbackFlyweight.HEADER_LENGTH);
        send(packet);
        ctx.counters().increment(Counter.ACKS_SENT);
    }

    private void send(ByteBuf packet) {
        spoke = true;
        if (config.unicastNacks() && sender.address() != null) {
            ctx.output().sendTo(packet, sender.address());
        } else {
            ctx.output().sendToGroup(packet);
        }
    }
}
