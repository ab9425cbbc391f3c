package org.fjm2.norm.codec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/**
 * Mutates valid messages at random (seeded) and feeds them to the validator and, when it accepts them, to every
 * flyweight accessor and the repair request reader: nothing may throw.
 */
class MalformedInputFuzzTest {

    static final long SEED = Long.getLong("fjm2.fuzz.seed", 5740L);
    static final int ROUNDS = 200_000;

    @Test
    void mutatedMessagesNeverThrow() {
        SplittableRandom random = new SplittableRandom(SEED);
        ByteBuf[] seeds = {
                Packets.data(NormWire.FEC_RS8, 5, 2, 3, new byte[40], true),
                Packets.data(NormWire.FEC_SMALL_BLOCK, 5, 2, 3, new byte[40], true),
                Packets.flush(9, 1, 2, 7, 8),
                nack(),
        };
        ObjectMessageFlyweight obj = new ObjectMessageFlyweight();
        CommandFlyweight cmd = new CommandFlyweight();
        FeedbackFlyweight fb = new FeedbackFlyweight();
        RepairRequestReader reader = new RepairRequestReader();
        Fti fti = new Fti();
        int accepted = 0;
        for (int round = 0; round < ROUNDS; round++) {
            ByteBuf base = seeds[random.nextInt(seeds.length)];
            ByteBuf buf = base.copy();
            int mutations = 1 + random.nextInt(4);
            for (int m = 0; m < mutations; m++) {
                int kind = random.nextInt(3);
                if (kind == 0 && buf.writerIndex() > 0) {
                    buf.setByte(random.nextInt(buf.writerIndex()), random.nextInt(256));
                } else if (kind == 1) {
                    buf.writerIndex(random.nextInt(buf.writerIndex() + 1));
                } else if (buf.writableBytes() > 0) {
                    buf.writeByte(random.nextInt(256));
                }
            }
            try {
                PacketError error = NormPacketValidator.validate(buf);
                if (error != null) {
                    continue;
                }
                accepted++;
                int type = buf.getUnsignedByte(0) & 0x0F;
                if (type == NormWire.TYPE_DATA || type == NormWire.TYPE_INFO) {
                    obj.wrap(buf);
                    obj.objectId();
                    obj.payloadLength();
                    if (type == NormWire.TYPE_DATA) {
                        obj.blockNumber(8);
                        obj.symbolId(8);
                    }
                    int end = obj.offset() + obj.headerLength();
                    int ext = HeaderExtensions.find(buf, obj.extensionsIndex(), end, NormWire.EXT_FTI);
                    if (ext >= 0) {
                        HeaderExtensions.readFti(buf, ext, end, obj.fecId(), fti);
                    }
                } else if (type == NormWire.TYPE_CMD) {
                    cmd.wrap(buf);
                    if (cmd.flavor() == NormWire.CMD_FLUSH) {
                        cmd.objectId();
                        cmd.blockNumber(8);
                        for (int i = 0; i < cmd.ackingNodeCount(); i++) {
                            cmd.ackingNode(i);
                        }
                    }
                } else {
                    fb.wrap(buf);
                    fb.serverId();
                    reader.reset(buf, fb.payloadIndex(), fb.payloadIndex() + fb.payloadLength(), NormWire.FEC_RS8, 8);
                    while (reader.nextRequest()) {
                        while (reader.nextItem()) {
                            reader.objectId();
                        }
                    }
                }
            } catch (RuntimeException e) {
                throw new AssertionError("seed " + SEED + " round " + round + ": " + e + " on "
                        + io.netty.buffer.ByteBufUtil.hexDump(buf), e);
            }
        }
        assertThat(accepted).as("some mutants are still valid messages (seed %d)", SEED).isGreaterThan(1000);
    }

    private static ByteBuf nack() {
        ByteBuf buf = Packets.nackHeader(Unpooled.buffer(128), 1, 2, 3, 4, 5);
        RepairRequestWriter w = new RepairRequestWriter().reset(buf, FeedbackFlyweight.HEADER_LENGTH, 64,
                NormWire.FEC_RS8, 8);
        w.open(NormWire.FORM_RANGES, NormWire.REPAIR_SEGMENT);
        w.range(1, 0, 0, 1, 0, 9, 64);
        w.close();
        buf.writerIndex(FeedbackFlyweight.HEADER_LENGTH + w.length());
        return buf;
    }
}
