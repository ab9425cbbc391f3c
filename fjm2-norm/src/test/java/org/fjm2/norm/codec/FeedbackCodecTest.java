package org.fjm2.norm.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class FeedbackCodecTest {

    private final FeedbackFlyweight fb = new FeedbackFlyweight();
    private final RepairRequestReader reader = new RepairRequestReader();
    private final RepairRequestWriter writer = new RepairRequestWriter();

    @Test
    void nackWithItemsRangesAndErasuresRoundTrips() {
        ByteBuf buf = Packets.nackHeader(Unpooled.buffer(512), 10, 20, 30, 1234, 5678);
        writer.reset(buf, FeedbackFlyweight.HEADER_LENGTH, 400, NormWire.FEC_RS8, 8);
        assertThat(writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_SEGMENT | NormWire.REPAIR_INFO)).isTrue();
        writer.item(7, 3, 1, 64);
        writer.item(7, 3, 5, 64);
        assertThat(writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_BLOCK)).isTrue();
        writer.range(8, 0, 0, 8, 9, 0, 64);
        assertThat(writer.open(NormWire.FORM_ERASURES, NormWire.REPAIR_SEGMENT)).isTrue();
        writer.item(9, 1, 0, 3);
        assertThat(writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_OBJECT)).isTrue();
        writer.close();     // empty request disappears
        buf.writerIndex(FeedbackFlyweight.HEADER_LENGTH + writer.length());
        assertThat(NormPacketValidator.validate(buf)).isNull();

        fb.wrap(buf);
        assertThat(fb.type()).isEqualTo(NormWire.TYPE_NACK);
        assertThat(fb.sourceId()).isEqualTo(10);
        assertThat(fb.serverId()).isEqualTo(20);
        assertThat(fb.instanceId()).isEqualTo(30);
        assertThat(fb.grttResponseSeconds()).isEqualTo(1234);
        assertThat(fb.grttResponseMicros()).isEqualTo(5678);
        assertThat(fb.hasGrttResponse()).isTrue();

        reader.reset(buf, fb.payloadIndex(), fb.payloadIndex() + fb.payloadLength(), NormWire.FEC_RS8, 8);
        assertThat(reader.nextRequest()).isTrue();
        assertThat(reader.form()).isEqualTo(NormWire.FORM_ITEMS);
        assertThat(reader.hasFlag(NormWire.REPAIR_SEGMENT)).isTrue();
        assertThat(reader.hasFlag(NormWire.REPAIR_INFO)).isTrue();
        assertThat(reader.nextItem()).isTrue();
        assertThat(reader.objectId()).isEqualTo(7);
        assertThat(reader.blockNumber()).isEqualTo(3);
        assertThat(reader.symbolId()).isEqualTo(1);
        assertThat(reader.nextItem()).isTrue();
        assertThat(reader.symbolId()).isEqualTo(5);
        assertThat(reader.nextItem()).isFalse();
        assertThat(reader.nextRequest()).isTrue();
        assertThat(reader.form()).isEqualTo(NormWire.FORM_RANGES);
        assertThat(reader.nextItem()).isTrue();
        assertThat(reader.blockNumber()).isEqualTo(0);
        assertThat(reader.nextItem()).isTrue();
        assertThat(reader.blockNumber()).isEqualTo(9);
        assertThat(reader.nextRequest()).isTrue();
        assertThat(reader.form()).isEqualTo(NormWire.FORM_ERASURES);
        assertThat(reader.nextItem()).isTrue();
        assertThat(reader.objectId()).isEqualTo(9);
        assertThat(reader.nextRequest()).isFalse();
        assertThat(reader.malformed()).isFalse();
    }

    @Test
    void entriesReadItemsAsThemselvesAndRangesWhole() {
        ByteBuf buf = Unpooled.buffer(512);
        writer.reset(buf, 0, 400, NormWire.FEC_RS8, 8);
        assertThat(writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_SEGMENT)).isTrue();
        writer.item(7, 3, 1, 64);
        assertThat(writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_SEGMENT)).isTrue();
        writer.range(8, 2, 4, 8, 2, 11, 64);
        writer.range(9, 0, 0, 12, 5, 6, 64);
        writer.close();

        reader.reset(buf, 0, writer.length(), NormWire.FEC_RS8, 8);
        assertThat(reader.nextRequest()).isTrue();
        assertNextEntry(7, 3, 1, 7, 3, 1);
        assertThat(reader.nextEntry()).isFalse();
        assertThat(reader.nextRequest()).isTrue();
        assertNextEntry(8, 2, 4, 8, 2, 11);
        assertNextEntry(9, 0, 0, 12, 5, 6);
        assertThat(reader.nextEntry()).isFalse();
        assertThat(reader.nextRequest()).isFalse();
        assertThat(reader.malformed()).isFalse();
    }

    private void assertNextEntry(long... expectedFirstThenLast) {
        assertThat(reader.nextEntry()).isTrue();
        assertThat(new long[] {reader.objectId(), reader.blockNumber(), reader.symbolId(), reader.lastObjectId(),
                reader.lastBlockNumber(), reader.lastSymbolId()}).containsExactly(expectedFirstThenLast);
    }

    @Test
    void writerRespectsItsBudget() {
        ByteBuf buf = Unpooled.buffer(256);
        writer.reset(buf, 0, 4 + 8 * 3, NormWire.FEC_RS8, 8);
        assertThat(writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_SEGMENT)).isTrue();
        assertThat(writer.item(1, 0, 1, 64)).isTrue();
        assertThat(writer.item(1, 0, 2, 64)).isTrue();
        assertThat(writer.item(1, 0, 3, 64)).isTrue();
        assertThat(writer.item(1, 0, 4, 64)).isFalse();
        writer.close();
        assertThat(writer.length()).isEqualTo(28);
    }

    @Test
    void malformedRepairRequestsStopTheWalk() {
        ByteBuf buf = Unpooled.buffer(64);
        // RANGES with an odd number of items
        buf.writeByte(NormWire.FORM_RANGES).writeByte(NormWire.REPAIR_SEGMENT).writeShort(8);
        buf.writeByte(NormWire.FEC_RS8).writeByte(0).writeShort(1).writeInt(0);
        reader.reset(buf, 0, buf.writerIndex(), NormWire.FEC_RS8, 8);
        assertThat(reader.nextRequest()).isFalse();
        assertThat(reader.malformed()).isTrue();

        // length running past the end
        buf.clear();
        buf.writeByte(NormWire.FORM_ITEMS).writeByte(NormWire.REPAIR_SEGMENT).writeShort(64);
        buf.writeByte(NormWire.FEC_RS8).writeByte(0).writeShort(1).writeInt(0);
        reader.reset(buf, 0, buf.writerIndex(), NormWire.FEC_RS8, 8);
        assertThat(reader.nextRequest()).isFalse();
        assertThat(reader.malformed()).isTrue();

        // an item of another fec_id
        buf.clear();
        buf.writeByte(NormWire.FORM_ITEMS).writeByte(NormWire.REPAIR_SEGMENT).writeShort(8);
        buf.writeByte(NormWire.FEC_SMALL_BLOCK).writeByte(0).writeShort(1).writeInt(0);
        reader.reset(buf, 0, buf.writerIndex(), NormWire.FEC_RS8, 8);
        assertThat(reader.nextRequest()).isTrue();
        assertThat(reader.nextItem()).isFalse();
        assertThat(reader.malformed()).isTrue();

        // unknown form, and trailing garbage shorter than a request header
        buf.clear();
        buf.writeByte(9).writeByte(0).writeShort(0);
        reader.reset(buf, 0, buf.writerIndex(), NormWire.FEC_RS8, 8);
        assertThat(reader.nextRequest()).isFalse();
        assertThat(reader.malformed()).isTrue();
        buf.clear();
        buf.writeByte(1).writeByte(1);
        reader.reset(buf, 0, buf.writerIndex(), NormWire.FEC_RS8, 8);
        assertThat(reader.nextRequest()).isFalse();
        assertThat(reader.malformed()).isTrue();
    }

    @Test
    void ackFlushAndCcFeedbackRoundTrip() {
        ByteBuf buf = Unpooled.buffer(128);
        fb.wrap(buf, 0, buf.capacity());
        fb.writeFeedbackHeader(NormWire.TYPE_ACK, 1, 10, 20, 30, NormWire.ACK_FLUSH, 3, 0, 0);
        int header = FeedbackFlyweight.HEADER_LENGTH;
        header += HeaderExtensions.writeCcFeedback(buf, header, 0x0102, NormWire.CC_FLAG_RTT, 33, 0x12345678L,
                Quantizer.quantizeRate(1e6));
        fb.headerLength(header);
        int payload = FeedbackFlyweight.writeAckFlushPayload(buf, header, NormWire.FEC_RS8, 8, 444, 5, 63, 64);
        buf.writerIndex(header + payload);
        assertThat(NormPacketValidator.validate(buf)).isNull();
        fb.wrap(buf);
        assertThat(fb.ackType()).isEqualTo(NormWire.ACK_FLUSH);
        assertThat(fb.ackId()).isEqualTo(3);
        assertThat(fb.hasGrttResponse()).isFalse();
        assertThat(fb.ackFlushFecId()).isEqualTo(NormWire.FEC_RS8);
        assertThat(fb.ackFlushObjectId()).isEqualTo(444);
        assertThat(fb.ackFlushBlockNumber(8)).isEqualTo(5);
        assertThat(fb.ackFlushSymbolId(8)).isEqualTo(63);
        int ext = HeaderExtensions.find(buf, FeedbackFlyweight.HEADER_LENGTH, fb.headerLength(),
                NormWire.EXT_CC_FEEDBACK);
        assertThat(HeaderExtensions.ccFeedbackSequence(buf, ext)).isEqualTo(0x0102);
        assertThat(HeaderExtensions.ccFeedbackFlags(buf, ext)).isEqualTo(NormWire.CC_FLAG_RTT);
        assertThat(HeaderExtensions.ccFeedbackRtt(buf, ext)).isEqualTo(33);
        assertThat(HeaderExtensions.ccFeedbackLoss32(buf, ext)).isEqualTo(0x12345678L);

        buf.writerIndex(header + 5);    // ACK(FLUSH) payload cut short
        assertThat(NormPacketValidator.validate(buf)).isEqualTo(PacketError.BAD_PAYLOAD_LENGTH);
        buf.writerIndex(20);
        assertThat(NormPacketValidator.validate(buf)).isEqualTo(PacketError.TRUNCATED);
    }

    @Test
    void flowReportRoundTripsAndAShortOneIsRejected() {
        ByteBuf buf = Unpooled.buffer(64);
        FeedbackFlyweight writer = new FeedbackFlyweight();
        writer.wrap(buf, 0, FeedbackFlyweight.HEADER_LENGTH + FlowReport.LENGTH);
        writer.writeFeedbackHeader(NormWire.TYPE_ACK, 1, 10, 20, 30, NormWire.ACK_FJM2_FLOW, 0, 0, 0);
        writer.headerLength(FeedbackFlyweight.HEADER_LENGTH);
        FlowReport.write(buf, FeedbackFlyweight.HEADER_LENGTH, 0xFFFE, 140, 0x1234, FlowReport.FLAG_RELEASED);
        buf.writerIndex(FeedbackFlyweight.HEADER_LENGTH + FlowReport.LENGTH);
        assertThat(NormPacketValidator.validate(buf)).isNull();
        fb.wrap(buf);
        assertThat(fb.ackType()).isEqualTo(NormWire.ACK_FJM2_FLOW);
        assertThat(FlowReport.readSequence(fb)).isEqualTo(0xFFFE);
        assertThat(FlowReport.windowUnits(fb)).isEqualTo(140);
        assertThat(FlowReport.releasedObject(fb)).isEqualTo(0x1234);
        assertThat(FlowReport.flags(fb)).isEqualTo(FlowReport.FLAG_RELEASED);

        buf.writerIndex(FeedbackFlyweight.HEADER_LENGTH + FlowReport.LENGTH - 1);
        assertThat(NormPacketValidator.validate(buf)).isEqualTo(PacketError.BAD_PAYLOAD_LENGTH);
    }
}
