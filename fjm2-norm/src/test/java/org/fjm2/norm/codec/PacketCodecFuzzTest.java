package org.fjm2.norm.codec;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.fuzz.InputBounds;

/**
 * Fuzz target: the packet validator and every flyweight over what it accepts. The fuzz input is one datagram; it is
 * placed in the middle of a larger buffer and viewed through a slice of exactly its length, so a read outside the
 * datagram throws instead of reading a neighbour's bytes. Whatever the validator accepts, every accessor of the
 * message's type must read without throwing (the validator's contract), within the per-input bounds.
 */
class PacketCodecFuzzTest {

    /** Bytes of other data before and after the datagram in its buffer. */
    private static final int GUARD = 7;

    private final ObjectMessageFlyweight object = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    private final FeedbackFlyweight feedback = new FeedbackFlyweight();
    private final RepairRequestReader requests = new RepairRequestReader();
    private final Fti fti = new Fti();
    /** Sink for everything read, so that no read is optimised away. */
    private long checksum;

    @FuzzTest
    void validatedPacketsReadCleanly(byte[] input) throws Exception {
        InputBounds.runWithinBounds(input, () -> {
            ByteBuf datagram = inBiggerBuffer(input);
            if (NormPacketValidator.validate(datagram) == null) {
                readEverything(datagram);
            }
        });
    }

    private static ByteBuf inBiggerBuffer(byte[] input) {
        ByteBuf whole = Unpooled.buffer(input.length + 2 * GUARD);
        whole.writeZero(GUARD).writeBytes(input).writeZero(GUARD);
        return whole.slice(GUARD, input.length);
    }

    private void readEverything(ByteBuf datagram) {
        int type = datagram.getUnsignedByte(datagram.readerIndex()) & 0x0F;
        switch (type) {
            case NormWire.TYPE_DATA, NormWire.TYPE_INFO -> readObjectMessage(datagram, type);
            case NormWire.TYPE_CMD -> readCommand(datagram);
            case NormWire.TYPE_NACK, NormWire.TYPE_ACK -> readFeedback(datagram, type);
            default -> throw new AssertionError("validator accepted message type " + type);
        }
    }

    private void readCommon(NormFlyweight m) {
        checksum += m.version() + m.type() + m.headerLength() + m.sequence() + m.sourceId() + m.payloadLength()
                + m.payloadIndex() + m.length() + m.offset();
        if (m.payloadLength() < 0 || m.payloadIndex() + m.payloadLength() != m.offset() + m.length()) {
            throw new AssertionError("payload outside the datagram: index " + m.payloadIndex() + " length "
                    + m.payloadLength());
        }
    }

    private void readObjectMessage(ByteBuf datagram, int type) {
        ObjectMessageFlyweight m = object.wrap(datagram);
        readCommon(m);
        checksum += m.instanceId() + m.grtt() + m.backoff() + m.gsize() + m.flags() + m.fecId() + m.objectId()
                + (m.hasFlag(NormWire.FLAG_INFO) ? 1 : 0) + m.extensionsIndex();
        if (type == NormWire.TYPE_DATA) {
            checksum += m.blockNumber(8) + m.symbolId(8) + m.blockNumber(16) + m.symbolId(16) + m.payloadBlockLength();
        }
        int end = m.offset() + m.headerLength();
        readExtensions(datagram, m.extensionsIndex(), end);
        int ftiIndex = HeaderExtensions.find(datagram, m.extensionsIndex(), end, NormWire.EXT_FTI);
        if (ftiIndex >= 0 && HeaderExtensions.readFti(datagram, ftiIndex, end, m.fecId(), fti)) {
            checksum += fti.fecId() + fti.fieldSize() + fti.instanceId() + fti.transferLength() + fti.symbolLength()
                    + fti.maxBlockLength() + fti.lastField() + fti.symbolIdLimit() + fti.toString().length();
        }
    }

    private void readCommand(ByteBuf datagram) {
        CommandFlyweight c = command.wrap(datagram);
        readCommon(c);
        checksum += c.instanceId() + c.grtt() + c.backoff() + c.gsize() + c.flavor() + c.baseHeaderLength();
        int end = c.offset() + c.headerLength();
        readExtensions(datagram, c.offset() + c.baseHeaderLength(), end);
        switch (c.flavor()) {
            case NormWire.CMD_FLUSH -> {
                readObjectPosition(c);
                for (int i = 0; i < c.ackingNodeCount(); i++) {
                    checksum += c.ackingNode(i);
                }
            }
            case NormWire.CMD_SQUELCH -> {
                readObjectPosition(c);
                for (int i = 0; i < c.invalidObjectCount(); i++) {
                    checksum += c.invalidObject(i);
                }
            }
            case NormWire.CMD_CC -> {
                checksum += c.ccFlags() + c.ccSequence() + c.sendTimeSeconds() + c.sendTimeMicros();
                for (int i = 0; i < c.ccNodeCount(); i++) {
                    checksum += c.ccNodeId(i) + c.ccNodeFlags(i) + c.ccNodeRtt(i) + c.ccNodeRate(i);
                }
            }
            case NormWire.CMD_REPAIR_ADV -> {
                checksum += c.repairAdvFlags();
                readRepairRequests(datagram, c.payloadIndex(), c.payloadIndex() + c.payloadLength());
            }
            case NormWire.CMD_ACK_REQ -> {
                checksum += c.ackType() + c.ackId();
                for (int i = 0; i < c.ackingNodeCount(); i++) {
                    checksum += c.ackingNode(i);
                }
            }
            default -> checksum += c.payloadLength();
        }
    }

    private void readObjectPosition(CommandFlyweight c) {
        checksum += c.fecId() + c.objectId() + c.blockNumber(8) + c.symbolId(8) + c.blockNumber(16) + c.symbolId(16);
    }

    private void readFeedback(ByteBuf datagram, int type) {
        FeedbackFlyweight f = feedback.wrap(datagram);
        readCommon(f);
        checksum += f.serverId() + f.instanceId() + f.ackType() + f.ackId() + f.grttResponseSeconds()
                + f.grttResponseMicros() + (f.hasGrttResponse() ? 1 : 0) + f.extensionsIndex();
        readExtensions(datagram, f.extensionsIndex(), f.offset() + f.headerLength());
        if (type == NormWire.TYPE_NACK) {
            readRepairRequests(datagram, f.payloadIndex(), f.payloadIndex() + f.payloadLength());
        } else if (f.ackType() == NormWire.ACK_FLUSH) {
            checksum += f.ackFlushFecId() + f.ackFlushObjectId() + f.ackFlushBlockNumber(8) + f.ackFlushSymbolId(8)
                    + f.ackFlushBlockNumber(16) + f.ackFlushSymbolId(16);
        }
    }

    /** Walks the extensions and reads the ones whose layout this engine knows, when they are long enough. */
    private void readExtensions(ByteBuf datagram, int start, int end) {
        int position = start;
        while (position < end) {
            int length = HeaderExtensions.extensionLength(datagram, position, end);
            if (length <= 0) {
                throw new AssertionError("validated header has a malformed extension at " + position);
            }
            int type = datagram.getUnsignedByte(position);
            if (type == NormWire.EXT_CC_RATE) {
                checksum += HeaderExtensions.ccRate(datagram, position);
            } else if (type == NormWire.EXT_CC_FEEDBACK && length >= HeaderExtensions.CC_FEEDBACK_LENGTH) {
                checksum += HeaderExtensions.ccFeedbackSequence(datagram, position)
                        + HeaderExtensions.ccFeedbackFlags(datagram, position)
                        + HeaderExtensions.ccFeedbackRtt(datagram, position)
                        + HeaderExtensions.ccFeedbackLoss32(datagram, position)
                        + HeaderExtensions.ccFeedbackRate(datagram, position);
            }
            position += length;
        }
    }

    /** Reads the repair requests as each FEC layout would (the reader must stop cleanly on any of them). */
    private void readRepairRequests(ByteBuf datagram, int start, int end) {
        int[][] layouts = {{NormWire.FEC_RS8, 8}, {NormWire.FEC_RS, 8}, {NormWire.FEC_RS, 16},
                {NormWire.FEC_SMALL_BLOCK, 8}};
        for (int[] layout : layouts) {
            RepairRequestReader r = requests.reset(datagram, start, end, layout[0], layout[1]);
            while (r.nextRequest()) {
                checksum += r.form() + r.flags() + (r.hasFlag(NormWire.REPAIR_SEGMENT) ? 1 : 0);
                while (r.nextEntry()) {
                    checksum += r.objectId() + r.blockNumber() + r.symbolId() + r.blockLength() + r.lastObjectId()
                            + r.lastBlockNumber() + r.lastSymbolId();
                }
            }
            checksum += r.malformed() ? 1 : 0;
        }
    }
}
