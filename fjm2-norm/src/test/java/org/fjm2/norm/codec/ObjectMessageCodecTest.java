package org.fjm2.norm.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

class ObjectMessageCodecTest {

    private final ObjectMessageFlyweight msg = new ObjectMessageFlyweight();
    private final Fti fti = new Fti();

    @Test
    void dataRoundTripsForEachFecId() {
        for (int fecId : new int[] {NormWire.FEC_RS8, NormWire.FEC_RS, NormWire.FEC_SMALL_BLOCK}) {
            byte[] payload = {1, 2, 3, 4, 5};
            ByteBuf buf = Packets.data(fecId, 0xABCD, 0x123456, 0xEE, payload, true);
            assertThat(NormPacketValidator.validate(buf)).isNull();
            msg.wrap(buf);
            assertThat(msg.version()).isEqualTo(1);
            assertThat(msg.type()).isEqualTo(NormWire.TYPE_DATA);
            assertThat(msg.sequence()).isEqualTo(7);
            assertThat(msg.sourceId()).isEqualTo(0x01020304);
            assertThat(msg.instanceId()).isEqualTo(0xBEEF);
            assertThat(msg.grtt()).isEqualTo(100);
            assertThat(msg.backoff()).isEqualTo(4);
            assertThat(msg.gsize()).isEqualTo(3);
            assertThat(msg.hasFlag(NormWire.FLAG_INFO)).isTrue();
            assertThat(msg.hasFlag(NormWire.FLAG_REPAIR)).isFalse();
            assertThat(msg.fecId()).isEqualTo(fecId);
            assertThat(msg.objectId()).isEqualTo(0xABCD);
            assertThat(msg.blockNumber(8)).isEqualTo(0x123456);
            assertThat(msg.symbolId(8)).isEqualTo(0xEE);
            if (fecId == NormWire.FEC_SMALL_BLOCK) {
                assertThat(msg.payloadBlockLength()).isEqualTo(32);
            }
            assertThat(msg.payloadLength()).isEqualTo(5);
            assertThat(buf.getByte(msg.payloadIndex() + 4)).isEqualTo((byte) 5);
            int ext = HeaderExtensions.find(buf, msg.extensionsIndex(), msg.offset() + msg.headerLength(),
                    NormWire.EXT_FTI);
            assertThat(HeaderExtensions.readFti(buf, ext, msg.offset() + msg.headerLength(), fecId, fti)).isTrue();
            assertThat(fti.transferLength()).isEqualTo(123_456_789_012L);
            assertThat(fti.symbolLength()).isEqualTo(1400);
            assertThat(fti.maxBlockLength()).isEqualTo(64);
            assertThat(fti.lastField()).isEqualTo(8);
        }
    }

    @Test
    void fecId2WithSixteenBitFieldSplitsPayloadIdInHalves() {
        ByteBuf buf = Unpooled.buffer(64);
        FecPayloadId.write(buf, 0, NormWire.FEC_RS, 16, 0x1234, 0xABCD, 0);
        assertThat(FecPayloadId.blockNumber(buf, 0, NormWire.FEC_RS, 16)).isEqualTo(0x1234);
        assertThat(FecPayloadId.symbolId(buf, 0, NormWire.FEC_RS, 16)).isEqualTo(0xABCD);
        assertThat(FecPayloadId.blockNumber(buf, 0, NormWire.FEC_RS, 8)).isEqualTo(0x1234AB);
    }

    @Test
    void infoRoundTrips() {
        ByteBuf buf = Unpooled.buffer(128);
        msg.wrap(buf, 0, buf.capacity());
        msg.writeObjectHeader(NormWire.TYPE_INFO, 1, 5, 6, 7, 1, 2, 0, NormWire.FEC_RS8, 99);
        int header = ObjectMessageFlyweight.INFO_HEADER_LENGTH;
        header += HeaderExtensions.writeFti(buf, header, NormWire.FEC_RS8, 8, 1000, 500, 10, 2);
        msg.headerLength(header);
        buf.setBytes(header, "file.bin".getBytes());
        buf.writerIndex(header + 8);
        assertThat(NormPacketValidator.validate(buf)).isNull();
        msg.wrap(buf);
        assertThat(msg.type()).isEqualTo(NormWire.TYPE_INFO);
        assertThat(msg.objectId()).isEqualTo(99);
        assertThat(buf.toString(msg.payloadIndex(), msg.payloadLength(), java.nio.charset.StandardCharsets.US_ASCII))
                .isEqualTo("file.bin");
    }

    @Test
    void malformedObjectMessagesAreRejected() {
        ByteBuf good = Packets.data(NormWire.FEC_RS8, 1, 0, 0, new byte[10], true);
        // truncated below the fixed fields
        assertThat(NormPacketValidator.validate(good, 0, 7)).isEqualTo(PacketError.TRUNCATED);
        assertThat(NormPacketValidator.validate(good, 0, 15)).isEqualTo(PacketError.TRUNCATED);
        // hdr_len past the datagram
        ByteBuf longHeader = good.copy();
        longHeader.setByte(1, 200);
        assertThat(NormPacketValidator.validate(longHeader)).isEqualTo(PacketError.BAD_HEADER_LENGTH);
        // hdr_len shorter than the base header
        ByteBuf shortHeader = good.copy();
        shortHeader.setByte(1, 3);
        assertThat(NormPacketValidator.validate(shortHeader)).isEqualTo(PacketError.BAD_HEADER_LENGTH);
        // unsupported fec_id (NRL drops fec_id 0 too)
        ByteBuf fec0 = good.copy();
        fec0.setByte(ObjectMessageFlyweight.FEC_ID_OFFSET, 0);
        assertThat(NormPacketValidator.validate(fec0)).isEqualTo(PacketError.UNSUPPORTED_FEC_ID);
        // bad version
        ByteBuf v2 = good.copy();
        v2.setByte(0, (2 << 4) | NormWire.TYPE_DATA);
        assertThat(NormPacketValidator.validate(v2)).isEqualTo(PacketError.BAD_VERSION);
        // unknown type
        ByteBuf type9 = good.copy();
        type9.setByte(0, (1 << 4) | 9);
        assertThat(NormPacketValidator.validate(type9)).isEqualTo(PacketError.UNKNOWN_TYPE);
        // extension with zero length
        ByteBuf zeroExt = good.copy();
        zeroExt.setByte(21, 0);
        assertThat(NormPacketValidator.validate(zeroExt)).isEqualTo(PacketError.BAD_EXTENSION);
        // extension running past hdr_len
        ByteBuf longExt = good.copy();
        longExt.setByte(21, 9);
        assertThat(NormPacketValidator.validate(longExt)).isEqualTo(PacketError.BAD_EXTENSION);
        // FTI of the wrong length for the fec_id
        ByteBuf wrongFti = Packets.data(NormWire.FEC_RS8, 1, 0, 0, new byte[40], false);
        wrongFti.setByte(1, 8);         // header 32 bytes: 20 base + a 12-byte extension
        wrongFti.setByte(20, NormWire.EXT_FTI);
        wrongFti.setByte(21, 2);        // 8 bytes long, then a 4-byte fixed extension
        wrongFti.setByte(28, NormWire.EXT_CC_RATE);
        assertThat(NormPacketValidator.validate(wrongFti)).isEqualTo(PacketError.BAD_EXTENSION);
        // stream data without its payload header
        ByteBuf stream = Packets.data(NormWire.FEC_RS8, 1, 0, 0, new byte[4], true);
        stream.setByte(ObjectMessageFlyweight.FLAGS_OFFSET, NormWire.FLAG_STREAM);
        assertThat(NormPacketValidator.validate(stream)).isEqualTo(PacketError.BAD_PAYLOAD_LENGTH);
    }
}
