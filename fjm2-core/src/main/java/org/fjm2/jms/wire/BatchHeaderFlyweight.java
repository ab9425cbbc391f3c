package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

/**
 * The header at the start of every transport object (FJM2-JMS wire format version 1, see docs/wire-format.md):
 * <pre>
 *  0  uint16  magic 0x464A ("FJ")
 *  2  uint8   version (1)
 *  3  uint8   flags (0; receivers ignore unknown bits)
 *  4  int64   connection epoch: random per sending connection, scopes producer ids and sequences
 * 12  int32   number of message records that follow
 * </pre>
 * Big-endian. A flyweight: {@link #wrap} it over a buffer, no copy.
 */
public final class BatchHeaderFlyweight {

    public static final int MAGIC = 0x464A;
    public static final int VERSION = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 2;
    public static final int FLAGS_OFFSET = 3;
    public static final int EPOCH_OFFSET = 4;
    public static final int RECORD_COUNT_OFFSET = 12;
    public static final int LENGTH = 16;

    private ByteBuf buf;
    private int offset;

    public BatchHeaderFlyweight wrap(ByteBuf buffer, int headerOffset) {
        this.buf = buffer;
        this.offset = headerOffset;
        return this;
    }

    /** Appends a header with a zero record count at the writer index; returns where it starts. */
    public static int writeEmpty(ByteBuf out, long epoch) {
        int at = out.writerIndex();
        out.writeShort(MAGIC).writeByte(VERSION).writeByte(0).writeLong(epoch).writeInt(0);
        return at;
    }

    public int magic() {
        return buf.getUnsignedShort(offset + MAGIC_OFFSET);
    }

    public int version() {
        return buf.getUnsignedByte(offset + VERSION_OFFSET);
    }

    public long epoch() {
        return buf.getLong(offset + EPOCH_OFFSET);
    }

    public int recordCount() {
        return buf.getInt(offset + RECORD_COUNT_OFFSET);
    }

    public BatchHeaderFlyweight recordCount(int count) {
        buf.setInt(offset + RECORD_COUNT_OFFSET, count);
        return this;
    }
}
