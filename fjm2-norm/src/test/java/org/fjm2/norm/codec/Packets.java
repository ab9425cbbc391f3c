package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

/** Builds well-formed NORM messages for codec tests. */
final class Packets {

    private Packets() {
    }

    static ByteBuf data(int fecId, int objectId, long block, int symbol, byte[] payload, boolean withFti) {
        ByteBuf buf = Unpooled.buffer(256 + payload.length);
        ObjectMessageFlyweight m = new ObjectMessageFlyweight().wrap(buf, 0, buf.capacity());
        m.writeObjectHeader(NormWire.TYPE_DATA, 7, 0x01020304, 0xBEEF, 100, 4, 3, NormWire.FLAG_INFO, fecId, objectId);
        m.writePayloadId(8, block, symbol, 32);
        int header = ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA, fecId);
        if (withFti) {
            header += HeaderExtensions.writeFti(buf, header, fecId, 8, 123_456_789_012L, 1400, 64, 8);
        }
        m.headerLength(header);
        buf.setBytes(header, payload);
        buf.writerIndex(header + payload.length);
        return buf;
    }

    static ByteBuf flush(int objectId, long block, int symbol, int... ackingNodes) {
        ByteBuf buf = Unpooled.buffer(128);
        CommandFlyweight c = new CommandFlyweight().wrap(buf, 0, buf.capacity());
        c.writeCommandHeader(NormWire.CMD_FLUSH, 9, 42, 77, 120, 4, 2);
        int header = c.writeObjectPosition(NormWire.FEC_RS8, 8, objectId, block, symbol, 64);
        c.headerLength(header);
        int length = header;
        for (int node : ackingNodes) {
            buf.setInt(length, node);
            length += 4;
        }
        buf.writerIndex(length);
        return buf;
    }

    static ByteBuf nackHeader(ByteBuf buf, int source, int server, int instance, long sec, long usec) {
        FeedbackFlyweight f = new FeedbackFlyweight().wrap(buf, 0, buf.capacity());
        f.writeFeedbackHeader(NormWire.TYPE_NACK, 3, source, server, instance, 0, 0, sec, usec);
        f.headerLength(FeedbackFlyweight.HEADER_LENGTH);
        return buf;
    }
}
