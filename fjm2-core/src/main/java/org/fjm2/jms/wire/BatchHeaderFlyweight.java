package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

/**
 * The header at the start of every transport object (FJM2-JMS wire format version 1, see docs/wire-format.md):
 * <pre>
 *  0  uint16  magic 0x464A ("FJ")
 *  2  uint8   version (1)
 *  3  uint8   flags: bit 0 the epoch carries the connection's start time (receivers ignore unknown bits)
 *  4  int64   connection epoch: unique per sending connection, scopes producer ids and sequences; with flag bit 0
 *             its top 44 bits are the connection's start time (ms since 1970) and its low 20 bits random
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

    /** Flag: the epoch's top bits are the sending connection's start time. */
    public static final int FLAG_EPOCH_HAS_START_TIME = 0x01;
    /** Bits of randomness below the start time in such an epoch. */
    public static final int EPOCH_RANDOM_BITS = 20;

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
        out.writeShort(MAGIC).writeByte(VERSION).writeByte(FLAG_EPOCH_HAS_START_TIME).writeLong(epoch).writeInt(0);
        return at;
    }

    /** An epoch for a connection started at {@code startMillis}: the start time above {@code random}'s low bits. */
    public static long epochOf(long startMillis, long random) {
        return (startMillis << EPOCH_RANDOM_BITS) | (random & ((1L << EPOCH_RANDOM_BITS) - 1));
    }

    public int flags() {
        return buf.getUnsignedByte(offset + FLAGS_OFFSET);
    }

    /** The sending connection's start time (ms since 1970), or -1 when the sender does not say. */
    public long senderStartMillis() {
        return (flags() & FLAG_EPOCH_HAS_START_TIME) != 0 ? epoch() >>> EPOCH_RANDOM_BITS : -1;
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
