package org.fjm2.norm.sender;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.codec.StreamPayloadFlyweight;
import org.fjm2.norm.protocol.ProtocolContext;

/**
 * Builds a sending stream's datagrams as NRL NORM sends them: NORM_DATA with NORM_FLAG_STREAM and the FTI (its
 * transfer length the stream buffer, N * B * E; fec_id 5; the parity count in the last field), carrying a segment's
 * stream payload or a parity symbol as long as the block's longest payload; NORM_CMD(FLUSH) naming the last
 * segment written; NORM_CMD(SQUELCH) naming the oldest block still held. Reused flyweights, pooled buffers. Owned by
 * the session's event loop.
 */
final class StreamPackets {

    private final ProtocolContext ctx;
    private final int instanceId;
    private final GrttEstimator grtt;
    private final AdvertisedBackoff backoff;
    private final int groupSizeQuantized;
    private final ObjectMessageFlyweight message = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    /** Stream bytes (payload_len) the last source symbol sent carried. */
    private int lastDataLength;
    /** The stream has a NORM_INFO: its NORM_DATA say so (NORM_FLAG_INFO), so receivers that missed it ask. */
    private boolean hasInfo;

    StreamPackets(ProtocolContext ctx, int instanceId, GrttEstimator grtt, AdvertisedBackoff backoff) {
        this.ctx = ctx;
        NormConfig config = ctx.config();
        this.instanceId = instanceId;
        this.grtt = grtt;
        this.backoff = backoff;
        this.groupSizeQuantized = Quantizer.quantizeGroupSize(config.groupSize());
    }

    /** Sends source or parity symbol {@code symbol} of the block in {@code slot}; returns the datagram length. */
    int sendData(int streamId, TxStreamRing ring, int slot, int symbol, boolean repair) {
        boolean source = symbol < ring.blockSize;
        ByteBuf content = source ? ring.segment(slot, symbol) : ring.parity(slot, symbol - ring.blockSize);
        ByteBuf packet = ctx.output().allocate(SenderPackets.HEADER_ROOM + content.readableBytes());
        message.wrap(packet, packet.writerIndex(), packet.capacity());
        int flags = NormWire.FLAG_STREAM | (repair ? NormWire.FLAG_REPAIR : 0) | (hasInfo ? NormWire.FLAG_INFO : 0);
        message.writeObjectHeader(NormWire.TYPE_DATA, ctx.nextSequence(), ctx.nodeId(), instanceId, grtt.quantized(),
                backoff.factor(), groupSizeQuantized, flags, SenderPackets.FEC_ID, streamId);
        message.writePayloadId(SenderPackets.FEC_M, ring.blockOf(slot), symbol, ring.blockSize);
        int header = ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA, SenderPackets.FEC_ID);
        header += HeaderExtensions.writeFti(packet, packet.writerIndex() + header, SenderPackets.FEC_ID,
                SenderPackets.FEC_M, ring.announcedBytes(), ring.segmentSize, ring.blockSize, ring.parity);
        message.headerLength(header);
        packet.setBytes(packet.writerIndex() + header, content, content.readerIndex(), content.readableBytes());
        lastDataLength = source ? content.readableBytes() - StreamPayloadFlyweight.HEADER_LENGTH : 0;
        packet.writerIndex(packet.writerIndex() + header + content.readableBytes());
        int total = packet.readableBytes();
        ctx.output().sendToGroup(packet);
        if (source) {
            ctx.counters().increment(repair ? Counter.REPAIRS_SENT : Counter.DATA_SENT);
        } else {
            ctx.counters().increment(Counter.PARITY_SENT);
            if (repair) {
                ctx.counters().increment(Counter.REPAIRS_SENT);
            }
        }
        return total;
    }

    /** Whether the stream being sent has a NORM_INFO. */
    void streamHasInfo(boolean has) {
        hasInfo = has;
    }

    /**
     * The stream's NORM_INFO (with the stream's FTI, NORM_FLAG_STREAM and NORM_FLAG_INFO, as NRL sends it); returns
     * the datagram length.
     */
    int sendInfo(int streamId, TxStreamRing ring, ByteBuf info, boolean repair) {
        ByteBuf packet = ctx.output().allocate(SenderPackets.HEADER_ROOM + info.readableBytes());
        message.wrap(packet, packet.writerIndex(), packet.capacity());
        int flags = NormWire.FLAG_STREAM | NormWire.FLAG_INFO | (repair ? NormWire.FLAG_REPAIR : 0);
        message.writeObjectHeader(NormWire.TYPE_INFO, ctx.nextSequence(), ctx.nodeId(), instanceId, grtt.quantized(),
                backoff.factor(), groupSizeQuantized, flags, SenderPackets.FEC_ID, streamId);
        int header = ObjectMessageFlyweight.INFO_HEADER_LENGTH;
        header += HeaderExtensions.writeFti(packet, packet.writerIndex() + header, SenderPackets.FEC_ID,
                SenderPackets.FEC_M, ring.announcedBytes(), ring.segmentSize, ring.blockSize, ring.parity);
        message.headerLength(header);
        packet.setBytes(packet.writerIndex() + header, info, info.readerIndex(), info.readableBytes());
        packet.writerIndex(packet.writerIndex() + header + info.readableBytes());
        int total = packet.readableBytes();
        ctx.output().sendToGroup(packet);
        ctx.counters().increment(Counter.INFO_SENT);
        return total;
    }

    /** Stream bytes the last source symbol sent carried (0 after parity). */
    int lastDataLength() {
        return lastDataLength;
    }

    /** NORM_CMD(FLUSH) naming segment {@code segment} of {@code block}; returns the datagram length. */
    int sendFlush(int streamId, long block, int segment, int blockSize) {
        int length = startCommand(NormWire.CMD_FLUSH, streamId, block, segment, blockSize);
        ctx.counters().increment(Counter.FLUSHES_SENT);
        return length;
    }

    /** NORM_CMD(SQUELCH) naming {@code block}, the oldest block held; returns the datagram length. */
    int sendSquelch(int streamId, long block, int blockSize) {
        int length = startCommand(NormWire.CMD_SQUELCH, streamId, block, 0, blockSize);
        ctx.counters().increment(Counter.SQUELCHES_SENT);
        return length;
    }

    private int startCommand(int flavor, int streamId, long block, int symbol, int blockSize) {
        ByteBuf packet = ctx.output().allocate(64);
        command.wrap(packet, packet.writerIndex(), packet.capacity());
        command.writeCommandHeader(flavor, ctx.nextSequence(), ctx.nodeId(), instanceId, grtt.quantized(),
                backoff.factor(), groupSizeQuantized);
        int header = command.writeObjectPosition(SenderPackets.FEC_ID, SenderPackets.FEC_M, streamId, block, symbol,
                blockSize);
        command.headerLength(header);
        packet.writerIndex(packet.writerIndex() + header);
        ctx.output().sendToGroup(packet);
        return header;
    }
}
