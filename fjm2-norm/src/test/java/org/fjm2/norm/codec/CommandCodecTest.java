package org.fjm2.norm.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class CommandCodecTest {

    private final CommandFlyweight cmd = new CommandFlyweight();

    @Test
    void flushWithAckingNodes() {
        ByteBuf buf = Packets.flush(0x1234, 0x00ABCD, 17, 11, 22, 33);
        assertThat(NormPacketValidator.validate(buf)).isNull();
        cmd.wrap(buf);
        assertThat(cmd.type()).isEqualTo(NormWire.TYPE_CMD);
        assertThat(cmd.flavor()).isEqualTo(NormWire.CMD_FLUSH);
        assertThat(cmd.instanceId()).isEqualTo(77);
        assertThat(cmd.grtt()).isEqualTo(120);
        assertThat(cmd.backoff()).isEqualTo(4);
        assertThat(cmd.gsize()).isEqualTo(2);
        assertThat(cmd.fecId()).isEqualTo(NormWire.FEC_RS8);
        assertThat(cmd.objectId()).isEqualTo(0x1234);
        assertThat(cmd.blockNumber(8)).isEqualTo(0xABCD);
        assertThat(cmd.symbolId(8)).isEqualTo(17);
        assertThat(cmd.ackingNodeCount()).isEqualTo(3);
        assertThat(cmd.ackingNode(2)).isEqualTo(33);
    }

    @Test
    void squelchWithInvalidObjects() {
        ByteBuf buf = Unpooled.buffer(64);
        cmd.wrap(buf, 0, buf.capacity());
        cmd.writeCommandHeader(NormWire.CMD_SQUELCH, 1, 2, 3, 4, 4, 1);
        int header = cmd.writeObjectPosition(NormWire.FEC_RS8, 8, 500, 0, 0, 64);
        cmd.headerLength(header);
        buf.setShort(header, 498);
        buf.setShort(header + 2, 499);
        buf.writerIndex(header + 4);
        assertThat(NormPacketValidator.validate(buf)).isNull();
        cmd.wrap(buf);
        assertThat(cmd.flavor()).isEqualTo(NormWire.CMD_SQUELCH);
        assertThat(cmd.objectId()).isEqualTo(500);
        assertThat(cmd.invalidObjectCount()).isEqualTo(2);
        assertThat(cmd.invalidObject(1)).isEqualTo(499);
        buf.writerIndex(header + 3);   // half an object id
        assertThat(NormPacketValidator.validate(buf)).isEqualTo(PacketError.BAD_PAYLOAD_LENGTH);
    }

    @Test
    void ccProbeWithRateExtensionAndNodeList() {
        ByteBuf buf = Unpooled.buffer(64);
        cmd.wrap(buf, 0, buf.capacity());
        cmd.writeCommandHeader(NormWire.CMD_CC, 1, 2, 3, 4, 4, 1);
        cmd.writeCc(NormWire.CC_CMD_FLAG_SYN, 0x4321, 1_700_000_000L, 999_999);
        int header = CommandFlyweight.CC_HEADER_LENGTH;
        header += HeaderExtensions.writeCcRate(buf, header, Quantizer.quantizeRate(12_500_000));
        cmd.headerLength(header);
        buf.setInt(header, 0x0A0B0C0D);
        buf.setByte(header + 4, NormWire.CC_FLAG_CLR | NormWire.CC_FLAG_RTT);
        buf.setByte(header + 5, 77);
        buf.setShort(header + 6, 0x1234);
        buf.writerIndex(header + 8);
        assertThat(NormPacketValidator.validate(buf)).isNull();
        cmd.wrap(buf);
        assertThat(cmd.ccFlags()).isEqualTo(NormWire.CC_CMD_FLAG_SYN);
        assertThat(cmd.ccSequence()).isEqualTo(0x4321);
        assertThat(cmd.sendTimeSeconds()).isEqualTo(1_700_000_000L);
        assertThat(cmd.sendTimeMicros()).isEqualTo(999_999);
        int ext = HeaderExtensions.find(buf, CommandFlyweight.CC_HEADER_LENGTH, cmd.headerLength(), NormWire.EXT_CC_RATE);
        assertThat(Quantizer.unquantizeRate(HeaderExtensions.ccRate(buf, ext))).isBetween(12.4e6, 12.6e6);
        assertThat(cmd.ccNodeCount()).isEqualTo(1);
        assertThat(cmd.ccNodeId(0)).isEqualTo(0x0A0B0C0D);
        assertThat(cmd.ccNodeFlags(0)).isEqualTo(NormWire.CC_FLAG_CLR | NormWire.CC_FLAG_RTT);
        assertThat(cmd.ccNodeRtt(0)).isEqualTo(77);
        assertThat(cmd.ccNodeRate(0)).isEqualTo(0x1234);
        buf.writerIndex(header + 5);
        assertThat(NormPacketValidator.validate(buf)).isEqualTo(PacketError.BAD_PAYLOAD_LENGTH);
    }

    @Test
    void eotRepairAdvAckReqAndApplication() {
        for (int flavor : new int[] {NormWire.CMD_EOT, NormWire.CMD_REPAIR_ADV, NormWire.CMD_ACK_REQ,
                NormWire.CMD_APPLICATION}) {
            ByteBuf buf = Unpooled.buffer(64);
            cmd.wrap(buf, 0, buf.capacity());
            cmd.writeCommandHeader(flavor, 1, 2, 3, 4, 4, 1);
            if (flavor == NormWire.CMD_ACK_REQ) {
                cmd.writeAckRequest(NormWire.ACK_APPLICATION_BASE + 1, 9);
            }
            cmd.headerLength(CommandFlyweight.SHORT_HEADER_LENGTH);
            buf.writerIndex(CommandFlyweight.SHORT_HEADER_LENGTH + (flavor == NormWire.CMD_ACK_REQ ? 0 : 4));
            assertThat(NormPacketValidator.validate(buf)).as("flavor %d", flavor).isNull();
            cmd.wrap(buf);
            assertThat(cmd.flavor()).isEqualTo(flavor);
            if (flavor == NormWire.CMD_ACK_REQ) {
                assertThat(cmd.ackType()).isEqualTo(17);
                assertThat(cmd.ackId()).isEqualTo(9);
            }
        }
    }

    @Test
    void malformedCommandsAreRejected() {
        ByteBuf flush = Packets.flush(1, 0, 0);
        assertThat(NormPacketValidator.validate(flush, 0, 12)).isEqualTo(PacketError.TRUNCATED);
        ByteBuf unknown = flush.copy();
        unknown.setByte(CommandFlyweight.FLAVOR_OFFSET, 42);
        assertThat(NormPacketValidator.validate(unknown)).isEqualTo(PacketError.UNKNOWN_FLAVOR);
        ByteBuf badFec = flush.copy();
        badFec.setByte(CommandFlyweight.FEC_ID_OFFSET, 6);
        assertThat(NormPacketValidator.validate(badFec)).isEqualTo(PacketError.UNSUPPORTED_FEC_ID);
        ByteBuf shortHdr = flush.copy();
        shortHdr.setByte(1, 4);
        assertThat(NormPacketValidator.validate(shortHdr)).isEqualTo(PacketError.BAD_HEADER_LENGTH);
        ByteBuf ragged = Packets.flush(1, 0, 0, 5);
        ragged.writerIndex(ragged.writerIndex() - 1);
        assertThat(NormPacketValidator.validate(ragged)).isEqualTo(PacketError.BAD_PAYLOAD_LENGTH);
    }
}
