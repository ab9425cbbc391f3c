package org.fjm2.norm.sender;

import java.util.List;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.fec.ParityEncoder;
import org.fjm2.norm.protocol.ProtocolContext;

/**
 * Builds the sender's datagrams — NORM_DATA (source and parity symbols), NORM_INFO and NORM_CMD (CC, SQUELCH,
 * EOT, FLUSH) — in pooled buffers through reused flyweights, hands them to the session's output and counts them.
 * Encodes a block's parity on first use and keeps it with the object while it is cached. Owned by the session's
 * event loop.
 */
final class SenderPackets {

    /** Header room reserved in every datagram buffer (common header, payload id, FTI, slack). */
    static final int HEADER_ROOM = NormConfig.DATAGRAM_HEADER_ROOM;
    /** fec_id the sender uses: RS8 (RFC 5510), the one NRL NORM and this engine both encode. */
    static final int FEC_ID = NormWire.FEC_RS8;
    static final int FEC_M = 8;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final int instanceId;
    private final GrttEstimator grtt;
    private final ParityEncoder parityEncoder;
    private final AdvertisedBackoff backoff;
    private final int groupSizeQuantized;
    private final ObjectMessageFlyweight dataMessage = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    private int ccSequence;

    SenderPackets(ProtocolContext ctx, int instanceId, GrttEstimator grtt, ParityEncoder parityEncoder,
                  AdvertisedBackoff backoff) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.instanceId = instanceId;
        this.grtt = grtt;
        this.parityEncoder = parityEncoder;
        this.backoff = backoff;
        this.groupSizeQuantized = Quantizer.quantizeGroupSize(config.groupSize());
    }

    /**
     * How long after its first NORM_DATA a sender announces its start (EXT_FJM2_START): the discovery period, during
     * which it keeps its first objects for receivers it has not heard yet ({@link CacheEviction#DISCOVERY_NANOS}).
     */
    static final long START_ANNOUNCE_NANOS = CacheEviction.DISCOVERY_NANOS;

    /** The first object this sender sent, and when; -1 before it sent any. */
    private int firstObjectId = -1;
    private long firstSentNanos;
    private boolean announcingStart = true;

    /** Sends one source or parity symbol of a block; returns the datagram length. */
    int sendData(TxObject object, int block, int symbol, boolean repair) {
        int k = object.partition.blockLength(block);
        boolean source = symbol < k;
        // Heap data would be copied to direct memory on its way out anyway.
        boolean gathers = object.data.isDirect() && ctx.output().gathersWrites();
        // A source segment is sent from the object itself where the transport gathers (no copy of the payload).
        ByteBuf packet = ctx.output().allocate(HEADER_ROOM + (source && gathers ? 0 : config.segmentSize()));
        dataMessage.wrap(packet, packet.writerIndex(), packet.capacity());
        int flags = (repair ? NormWire.FLAG_REPAIR : 0) | (object.info != null ? NormWire.FLAG_INFO : 0);
        dataMessage.writeObjectHeader(NormWire.TYPE_DATA, ctx.nextSequence(), ctx.nodeId(), instanceId,
                grtt.quantized(), backoff.factor(), groupSizeQuantized, flags, FEC_ID, object.objectId);
        dataMessage.writePayloadId(FEC_M, block, symbol, k);
        int header = ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA, FEC_ID);
        header += writeFti(packet, packet.writerIndex() + header, object);
        header += writeStart(packet, packet.writerIndex() + header, object);
        dataMessage.headerLength(header);
        int payloadIndex = packet.writerIndex() + header;
        int length;
        if (source) {
            length = object.partition.segmentLength(block, symbol);
            int offset = object.data.readerIndex() + (int) object.partition.segmentOffset(block, symbol);
            ctx.counters().increment(repair ? Counter.REPAIRS_SENT : Counter.DATA_SENT);
            if (gathers) {
                packet.writerIndex(payloadIndex);
                ByteBuf datagram = ctx.output().gather(packet, object.data.retainedSlice(offset, length));
                int total = datagram.readableBytes();
                ctx.output().sendToGroup(datagram);
                return total;
            }
            packet.setBytes(payloadIndex, object.data, offset, length);
        } else {
            // As long as the block's longest source symbol (what NRL NORM sends too).
            length = object.partition.segmentLength(block, 0);
            ByteBuf parity = parityOf(object, block);
            packet.setBytes(payloadIndex, parity, parityIndex(block, symbol - k), length);
            ctx.counters().increment(Counter.PARITY_SENT);
            if (repair) {
                ctx.counters().increment(Counter.REPAIRS_SENT);
            }
        }
        packet.writerIndex(packet.writerIndex() + header + length);
        int total = packet.readableBytes();
        ctx.output().sendToGroup(packet);
        return total;
    }

    /** EXT_FJM2_START while this sender announces its start; returns its length (0 once it no longer does). */
    private int writeStart(ByteBuf packet, int index, TxObject object) {
        if (!announcingStart) {
            return 0;
        }
        long now = ctx.nanoTime();
        if (firstObjectId < 0) {
            firstObjectId = object.objectId;
            firstSentNanos = now;
        } else if (now - firstSentNanos > START_ANNOUNCE_NANOS) {
            announcingStart = false;
            return 0;
        }
        return HeaderExtensions.writeStart(packet, index, firstObjectId, (now - firstSentNanos) / 1_000_000);
    }

    private int writeFti(ByteBuf packet, int index, TxObject object) {
        // NRL NORM reads the last field as the parity count (see docs/nrl-interop.md); we write what it expects.
        return HeaderExtensions.writeFti(packet, index, FEC_ID, FEC_M, object.size, config.segmentSize(),
                config.blockSize(), config.parity());
    }

    /** Sends the object's NORM_INFO; returns the datagram length. */
    int sendInfo(TxObject object) {
        int infoLength = object.info.readableBytes();
        ByteBuf packet = ctx.output().allocate(HEADER_ROOM + infoLength);
        dataMessage.wrap(packet, packet.writerIndex(), packet.capacity());
        // FLAG_INFO on the NORM_INFO itself too: an NRL receiver that creates the object from this message takes
        // the flag as "the object has info" and otherwise ignores the info it carries.
        int flags = NormWire.FLAG_INFO | (object.firstPassDone ? NormWire.FLAG_REPAIR : 0);
        dataMessage.writeObjectHeader(NormWire.TYPE_INFO, ctx.nextSequence(), ctx.nodeId(), instanceId,
                grtt.quantized(), backoff.factor(), groupSizeQuantized, flags, FEC_ID, object.objectId);
        int header = ObjectMessageFlyweight.INFO_HEADER_LENGTH;
        header += writeFti(packet, packet.writerIndex() + header, object);
        dataMessage.headerLength(header);
        packet.setBytes(packet.writerIndex() + header, object.info, object.info.readerIndex(), infoLength);
        packet.writerIndex(packet.writerIndex() + header + infoLength);
        int total = packet.readableBytes();
        ctx.output().sendToGroup(packet);
        ctx.counters().increment(Counter.INFO_SENT);
        return total;
    }

    /** The encoded parity of a block (computed on first use and cached with the object). */
    private ByteBuf parityOf(TxObject object, int block) {
        int parity = config.parity();
        int perBlock = parity * config.segmentSize();
        if (object.parityCache == null) {
            object.parityCache = ctx.output().allocateHeap(perBlock * object.blockCount());
            object.parityCache.writerIndex(object.parityCache.capacity());
        }
        if (!object.isParityEncoded(block)) {
            parityEncoder.encodeBlock(object.data, object.partition, block, parity, object.parityCache,
                    block * perBlock);
            object.markParityEncoded(block);
        }
        return object.parityCache;
    }

    private int parityIndex(int block, int parityNumber) {
        return (block * config.parity() + parityNumber) * config.segmentSize();
    }

    // ---- commands --------------------------------------------------------------------------------------------------

    private void startCommand(ByteBuf packet, int flavor) {
        command.wrap(packet, packet.writerIndex(), packet.capacity());
        command.writeCommandHeader(flavor, ctx.nextSequence(), ctx.nodeId(), instanceId, grtt.quantized(),
                backoff.factor(), groupSizeQuantized);
    }

    private int finishCommand(ByteBuf packet, int length) {
        packet.writerIndex(packet.writerIndex() + length);
        ctx.output().sendToGroup(packet);
        return length;
    }

    /**
     * NORM_CMD(CC): a GRTT probe carrying our send time and the current rate (after the controller heard of the
     * probe), and under NORM-CC the limiting receivers as its CC node list.
     */
    int sendProbe(RateController rate) {
        rate.onProbeSent(ctx.nanoTime(), grtt.advertised(), ccSequence);
        double rateBitsPerSecond = rate.rateBitsPerSecond();
        CcNodes nodes = rate.ccNodes();
        ByteBuf packet = ctx.output().allocate(64 + CcNodes.MAX_NODES * CommandFlyweight.CC_NODE_LENGTH);
        startCommand(packet, NormWire.CMD_CC);
        long micros = ctx.micros();
        command.writeCc(0, ccSequence, micros / 1_000_000L, micros % 1_000_000L);
        ccSequence = (ccSequence + 1) & 0xFFFF;
        int header = CommandFlyweight.CC_HEADER_LENGTH;
        header += HeaderExtensions.writeCcRate(packet, packet.writerIndex() + header,
                Quantizer.quantizeRate(rateBitsPerSecond / 8.0));
        if (config.receiverFlowControl()) {
            header += HeaderExtensions.writeFlowOffer(packet, packet.writerIndex() + header);
        }
        command.headerLength(header);
        int length = header + (nodes == null ? 0 : nodes.write(packet, packet.writerIndex() + header,
                rate.ccSlowStart()));
        ctx.counters().increment(Counter.PROBES_SENT);
        grtt.onProbeSent(ctx.nanoTime());
        return finishCommand(packet, length);
    }

    /** NORM_CMD(SQUELCH) at {@code squelchId}, the oldest object still held: receivers give up everything before. */
    int sendSquelch(int squelchId) {
        ByteBuf packet = ctx.output().allocate(64);
        startCommand(packet, NormWire.CMD_SQUELCH);
        int header = command.writeObjectPosition(FEC_ID, FEC_M, squelchId, 0, 0, config.blockSize());
        command.headerLength(header);
        ctx.counters().increment(Counter.SQUELCHES_SENT);
        return finishCommand(packet, header);
    }

    /** NORM_CMD(EOT). */
    int sendEot() {
        ByteBuf packet = ctx.output().allocate(32);
        startCommand(packet, NormWire.CMD_EOT);
        command.headerLength(CommandFlyweight.SHORT_HEADER_LENGTH);
        return finishCommand(packet, CommandFlyweight.SHORT_HEADER_LENGTH);
    }

    /**
     * NORM_CMD(FLUSH) at the last symbol of {@code last}, listing the acking {@code nodes} (as many as fit one
     * segment); returns the datagram length.
     */
    int sendFlush(TxObject last, List<Integer> nodes) {
        int maxNodes = Math.max(1, config.segmentSize() / 4);
        ByteBuf packet = ctx.output().allocate(64 + 4 * Math.min(nodes.size(), maxNodes));
        startCommand(packet, NormWire.CMD_FLUSH);
        int finalBlock = (int) last.partition.finalBlock();
        int k = last.partition.blockLength(finalBlock);
        int header = command.writeObjectPosition(FEC_ID, FEC_M, last.objectId, finalBlock, k - 1, k);
        command.headerLength(header);
        int length = header;
        for (int i = 0; i < nodes.size() && i < maxNodes; i++) {
            packet.setInt(packet.writerIndex() + length, nodes.get(i));
            length += 4;
        }
        ctx.counters().increment(Counter.FLUSHES_SENT);
        return finishCommand(packet, length);
    }
}
