package org.fjm2.norm.fuzz;

import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FecPayloadId;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;

/**
 * Structure-aware input for the stateful targets: turns a fuzz input into a sequence of syntactically valid NORM
 * messages (DATA and INFO with or without FTI, CMD FLUSH / EOT / SQUELCH / CC / other flavors, NACK with repair
 * requests of every form, ACK of every type) whose fields all come from the input, plus raw datagrams. Valid
 * headers get the fuzzer past the validator into the state machines, where the interesting bugs are.
 *
 * <p>The input is a series of messages; each starts with an op byte: its low nibble picks the {@link Kind}, bits
 * 4-5 the source id (three fixed remote senders, or a fuzzed id). The fields that follow are listed per kind in
 * {@link #next}; {@link NormSeedWriter} writes seeds in exactly that order.
 */
public final class NormMessageSynth {

    /** What one op byte makes. */
    public enum Kind { DATA, INFO, FLUSH, EOT, SQUELCH, CC, OTHER_COMMAND, NACK, ACK, RAW }

    /** Fixed remote sender ids (index 0..2); index 3 reads a fuzzed 32-bit id. */
    public static final int[] SOURCES = {0x0A000001, 0x0A000002, 0x0A000003};

    /** fec_id by selector (low bits); bit 7 of the selector asks for m = 16 with fec_id 2. */
    public static final int[] FEC_IDS = {NormWire.FEC_RS8, NormWire.FEC_RS, NormWire.FEC_SMALL_BLOCK};
    public static final int FEC_SELECT_M16 = 0x80;

    /** A feedback or instance field of 0 stands for the local sender's instance id (random per session). */
    public static final int LOCAL_INSTANCE = 0;
    /** A target selector of 0 addresses the local node; 1..3 the fixed sources; anything else reads a 32-bit id. */
    public static final int TARGET_LOCAL = 0;

    /** Messages one input may hold: bounds the work of an input of any length. */
    public static final int MAX_MESSAGES = 4096;

    private static final int BUFFER = 70_000;

    private final int localNodeId;
    private final int localInstanceId;
    private final int feedbackObjectBase;
    private final ByteBuf buf = Unpooled.buffer(BUFFER, BUFFER);
    private final ObjectMessageFlyweight object = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    private final FeedbackFlyweight feedback = new FeedbackFlyweight();

    /**
     * @param feedbackObjectBase added to the object ids of NACK items and ACK(FLUSH) positions: a sender's first
     *                           object id is random, so seeds name the local sender's objects relative to it (0, 1,
     *                           ...) and replay the same way in every session
     */
    public NormMessageSynth(int localNodeId, int localInstanceId, int feedbackObjectBase) {
        this.localNodeId = localNodeId;
        this.localInstanceId = localInstanceId;
        this.feedbackObjectBase = feedbackObjectBase;
    }

    /** Every message of the input, in order. */
    public List<byte[]> messages(byte[] input) {
        FuzzInput in = new FuzzInput(input);
        List<byte[]> out = new ArrayList<>();
        while (in.hasMore() && out.size() < MAX_MESSAGES) {
            out.add(next(in));
        }
        return out;
    }

    /**
     * One message. Fields, in input order:
     * <pre>
     * op(8) [source_id(32) if source 3] instance(16) grtt(8) backoff_gsize(8), then per kind:
     * DATA, INFO: flags(8) fec(8) object(16) block(32) symbol(16) block_len(16) fti(8: bit 0 = present)
     *             [transfer_hi(16) transfer_lo(32) m_or_instance(8) E(16) B(16) last(16)] payload(chunk)
     * FLUSH:      fec(8) object(16) block(32) symbol(16) block_len(16) count(8) count x target(8)[id(32)]
     * EOT:        -
     * SQUELCH:    fec(8) object(16) block(32) symbol(16) block_len(16) count(8) count x object(16)
     * CC:         flags(8) cc_seq(16) sec(32) usec(32) ext(8: bit 0 = EXT_CC_RATE, bit 1 = EXT_FJM2_FLOW)[rate(16)]
     *             count(8)
     *             count x (target(8)[id(32)] flags(8) rtt(8) rate(16))
     * OTHER:      flavor(8: 5 REPAIR_ADV, 6 ACK_REQ, 7 APPLICATION) b13(8) b14(8) b15(8) payload(chunk, padded to 4)
     * NACK:       target(8)[id(32)] sec(32) usec(32) requests(8) requests x
     *             (form(8) flags(8) fec(8) entries(8) entries x (object(16) block(32) symbol(16) block_len(16)))
     * ACK:        (type 0xF3, FJM2 flow report: its 8-byte payload is the first 8 bytes after the header)
     *             target(8)[id(32)] type(8) ack_id(8) sec(32) usec(32) cc_ext(8: bit 0)[seq(16) flags(8) rtt(8)
     *             loss(32) rate(16)] fec(8) object(16) block(32) symbol(16) block_len(16) extra(chunk)
     * RAW:        bytes(chunk) (no common header: the chunk is the datagram)
     * </pre>
     */
    public byte[] next(FuzzInput in) {
        int op = in.u8();
        Kind kind = Kind.values()[(op & 0x0F) % Kind.values().length];
        if (kind == Kind.RAW) {
            return in.chunk();
        }
        int sourceIndex = (op >>> 4) & 3;
        int source = sourceIndex < SOURCES.length ? SOURCES[sourceIndex] : (int) in.u32();
        int instanceField = in.u16();
        int instance = instanceField == LOCAL_INSTANCE ? localInstanceId : instanceField;
        int grtt = in.u8();
        int backoffGsize = in.u8();
        buf.clear();
        buf.setZero(0, 64);
        int length;
        switch (kind) {
            case DATA, INFO -> length = objectMessage(in, kind == Kind.DATA ? NormWire.TYPE_DATA : NormWire.TYPE_INFO,
                    source, instance, grtt, backoffGsize);
            case FLUSH, SQUELCH -> length = flushOrSquelch(in, kind == Kind.FLUSH ? NormWire.CMD_FLUSH
                    : NormWire.CMD_SQUELCH, source, instance, grtt, backoffGsize);
            case EOT -> length = eot(source, instance, grtt, backoffGsize);
            case CC -> length = cc(in, source, instance, grtt, backoffGsize);
            case OTHER_COMMAND -> length = otherCommand(in, source, instance, grtt, backoffGsize);
            case NACK -> length = nack(in, source, instance);
            default -> length = ack(in, source, instance);
        }
        return ByteBufUtil.getBytes(buf, 0, length);
    }

    private int objectMessage(FuzzInput in, int type, int source, int instance, int grtt, int backoffGsize) {
        int flags = in.u8();
        int fecSelector = in.u8();
        int fecId = fecId(fecSelector);
        int m = fieldSize(fecSelector);
        int objectId = in.u16();
        long block = in.u32();
        int symbol = in.u16();
        int blockLength = in.u16();
        object.wrap(buf, 0, BUFFER);
        object.writeObjectHeader(type, 0, source, instance, grtt, backoffGsize >>> 4, backoffGsize, flags, fecId,
                objectId);
        if (type == NormWire.TYPE_DATA) {
            object.writePayloadId(m, block, symbol, blockLength);
        }
        int header = ObjectMessageFlyweight.baseHeaderLength(type, fecId);
        if (in.bit()) {
            long transferLength = ((long) in.u16() << 32) | in.u32();
            int mOrInstance = in.u8();
            int symbolLength = in.u16();
            int maxBlockLength = in.u16();
            int lastField = in.u16();
            header += HeaderExtensions.writeFti(buf, header, fecId, fecId == NormWire.FEC_RS ? m : mOrInstance,
                    transferLength, symbolLength, maxBlockLength, lastField);
        }
        object.headerLength(header);
        return payload(in, header, 1);
    }

    private int flushOrSquelch(FuzzInput in, int flavor, int source, int instance, int grtt, int backoffGsize) {
        int fecSelector = in.u8();
        int fecId = fecId(fecSelector);
        command.wrap(buf, 0, BUFFER);
        command.writeCommandHeader(flavor, 0, source, instance, grtt, backoffGsize >>> 4, backoffGsize);
        int header = command.writeObjectPosition(fecId, fieldSize(fecSelector), in.u16(), in.u32(), in.u16(), in.u16());
        command.headerLength(header);
        int count = in.u8();
        int length = header;
        for (int i = 0; i < count; i++) {
            if (flavor == NormWire.CMD_FLUSH) {
                buf.setInt(length, target(in));
                length += 4;
            } else {
                buf.setShort(length, in.u16());
                length += 2;
            }
        }
        return length;
    }

    private int eot(int source, int instance, int grtt, int backoffGsize) {
        command.wrap(buf, 0, BUFFER);
        command.writeCommandHeader(NormWire.CMD_EOT, 0, source, instance, grtt, backoffGsize >>> 4, backoffGsize);
        command.headerLength(CommandFlyweight.SHORT_HEADER_LENGTH);
        return CommandFlyweight.SHORT_HEADER_LENGTH;
    }

    private int cc(FuzzInput in, int source, int instance, int grtt, int backoffGsize) {
        command.wrap(buf, 0, BUFFER);
        command.writeCommandHeader(NormWire.CMD_CC, 0, source, instance, grtt, backoffGsize >>> 4, backoffGsize);
        command.writeCc(in.u8(), in.u16(), in.u32(), in.u32());
        int header = CommandFlyweight.CC_HEADER_LENGTH;
        int extensions = in.u8();
        if ((extensions & 1) != 0) {
            header += HeaderExtensions.writeCcRate(buf, header, in.u16());
        }
        if ((extensions & 2) != 0) {
            header += HeaderExtensions.writeFlowOffer(buf, header);
        }
        command.headerLength(header);
        int count = in.u8();
        int length = header;
        for (int i = 0; i < count; i++) {
            buf.setInt(length, target(in));
            buf.setByte(length + 4, in.u8());
            buf.setByte(length + 5, in.u8());
            buf.setShort(length + 6, in.u16());
            length += CommandFlyweight.CC_NODE_LENGTH;
        }
        return length;
    }

    private int otherCommand(FuzzInput in, int source, int instance, int grtt, int backoffGsize) {
        int flavor = NormWire.CMD_REPAIR_ADV + in.u8() % 3;
        command.wrap(buf, 0, BUFFER);
        command.writeCommandHeader(flavor, 0, source, instance, grtt, backoffGsize >>> 4, backoffGsize);
        buf.setByte(13, in.u8());
        buf.setByte(14, in.u8());
        buf.setByte(15, in.u8());
        command.headerLength(CommandFlyweight.SHORT_HEADER_LENGTH);
        return payload(in, CommandFlyweight.SHORT_HEADER_LENGTH, 4);
    }

    private int nack(FuzzInput in, int source, int instance) {
        feedback.wrap(buf, 0, BUFFER);
        feedback.writeFeedbackHeader(NormWire.TYPE_NACK, 0, source, target(in), instance, 0, 0, in.u32(), in.u32());
        feedback.headerLength(FeedbackFlyweight.HEADER_LENGTH);
        int length = FeedbackFlyweight.HEADER_LENGTH;
        int requests = in.u8();
        for (int r = 0; r < requests && length < BUFFER - 2048; r++) {
            int form = NormWire.FORM_ITEMS + in.u8() % 3;
            int flags = in.u8();
            int fecSelector = in.u8();
            int fecId = fecId(fecSelector);
            int m = fieldSize(fecSelector);
            int entries = in.u8();
            int itemsPerEntry = form == NormWire.FORM_RANGES ? 2 : 1;
            int start = length;
            length += 4;
            for (int e = 0; e < entries * itemsPerEntry && length < BUFFER - 64; e++) {
                buf.setByte(length, fecId);
                buf.setByte(length + 1, 0);
                buf.setShort(length + 2, in.u16() + feedbackObjectBase);
                long block = in.u32();
                int symbol = in.u16();
                length += 4 + FecPayloadId.write(buf, length + 4, fecId, m, block, symbol, in.u16());
            }
            buf.setByte(start, form);
            buf.setByte(start + 1, flags);
            buf.setShort(start + 2, length - start - 4);
        }
        return length;
    }

    private int ack(FuzzInput in, int source, int instance) {
        int server = target(in);
        int ackType = in.u8();
        int ackId = in.u8();
        feedback.wrap(buf, 0, BUFFER);
        feedback.writeFeedbackHeader(NormWire.TYPE_ACK, 0, source, server, instance, ackType, ackId, in.u32(),
                in.u32());
        int header = FeedbackFlyweight.HEADER_LENGTH;
        if (in.bit()) {
            header += HeaderExtensions.writeCcFeedback(buf, header, in.u16(), in.u8(), in.u8(), in.u32(), in.u16());
        }
        feedback.headerLength(header);
        int fecSelector = in.u8();
        int length = header + FeedbackFlyweight.writeAckFlushPayload(buf, header, fecId(fecSelector),
                fieldSize(fecSelector), in.u16() + feedbackObjectBase, in.u32(), in.u16(), in.u16());
        return payload(in, length, 1);
    }

    /** Appends a chunk of the input at {@code index} (padded with zeros to a multiple of {@code unit}). */
    private int payload(FuzzInput in, int index, int unit) {
        byte[] content = in.chunk();
        int room = BUFFER - index;
        int length = Math.min(content.length, room - room % unit);
        buf.setBytes(index, content, 0, length);
        int padded = (length + unit - 1) / unit * unit;
        buf.setZero(index + length, padded - length);
        return index + padded;
    }

    /** A node id: 0 = the local node, 1..3 = the fixed sources, else a fuzzed 32-bit id. */
    private int target(FuzzInput in) {
        int selector = in.u8();
        if (selector == TARGET_LOCAL) {
            return localNodeId;
        }
        return selector <= SOURCES.length ? SOURCES[selector - 1] : (int) in.u32();
    }

    static int fecId(int selector) {
        return FEC_IDS[(selector & 0x7F) % FEC_IDS.length];
    }

    static int fieldSize(int selector) {
        return fecId(selector) == NormWire.FEC_RS && (selector & FEC_SELECT_M16) != 0 ? 16 : 8;
    }
}
