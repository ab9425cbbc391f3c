package org.fjm2.tunnel;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;

/** Well-formed NORM packets for the tunnel's unit tests. */
public final class TestPackets {

    /** Length of a {@link #data} packet. */
    public static final int DATA_LENGTH = 520;

    private TestPackets() {
    }

    /** A NORM_DATA packet of {@code sender}: segment {@code symbol} of {@code object} (RS8, 8 source symbols). */
    public static ByteBuf data(int sender, int instance, int object, int symbol) {
        ByteBuf b = Unpooled.buffer(DATA_LENGTH);
        ObjectMessageFlyweight f = new ObjectMessageFlyweight().wrap(b, 0, DATA_LENGTH);
        f.writeObjectHeader(NormWire.TYPE_DATA, symbol, sender, instance, 0, 4, 0, 0, NormWire.FEC_RS8, object);
        f.headerLength(20);
        f.writePayloadId(8, 0, symbol, 0);
        b.writerIndex(DATA_LENGTH);
        return b;
    }
}
