package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

/**
 * The list that ends durable subscription position records and shared subscription member records: an int32 count,
 * then that many entries of {@link #ENTRY_LENGTH} bytes, each a producer stream and a sequence number in it (int64
 * publisher epoch, int32 producer id, uint8 priority, int64 sequence), filling the record exactly.
 */
final class PositionEntries {

    static final int ENTRY_LENGTH = 21;
    private static final int EPOCH = 0;
    private static final int PRODUCER = 8;
    private static final int PRIORITY = 12;
    private static final int SEQUENCE = 13;

    private final String record;
    private ByteBuf buf;
    private int count;
    private int offset;

    /** @param record what the record is, for errors */
    PositionEntries(String record) {
        this.record = record;
    }

    /** Appends the count's place (patched by {@link #end}). */
    static void begin(ByteBuf out) {
        out.writeInt(0);
    }

    static void write(ByteBuf out, long epoch, int producer, int priority, long sequence) {
        out.writeLong(epoch).writeInt(producer).writeByte(priority).writeLong(sequence);
    }

    /** Ends the record begun at {@code start} with {@code count} entries written since {@link #begin}. */
    static void end(ByteBuf out, int start, int count) {
        ControlRecords.endRecord(out, start);
        out.setInt(out.writerIndex() - count * ENTRY_LENGTH - 4, count);
    }

    /**
     * Reads the count at {@code pos} and checks that exactly that many entries, at most {@code max}, fill the
     * record up to {@code end}.
     */
    void wrap(ByteBuf buffer, int pos, int end, int max) throws MalformedWireException {
        if (end - pos < 4) {
            throw new MalformedWireException(record + " without an entry count");
        }
        int n = buffer.getInt(pos);
        if (n < 0 || n > max || (long) n * ENTRY_LENGTH != end - pos - 4) {
            throw new MalformedWireException(record + " announces " + n + " entries in " + (end - pos - 4)
                    + " bytes");
        }
        this.buf = buffer;
        this.count = n;
        this.offset = pos + 4;
    }

    /** No entries (a record without a list). */
    void clear() {
        count = 0;
    }

    int count() {
        return count;
    }

    private int entry(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException(record + " entry " + index + " of " + count);
        }
        return offset + index * ENTRY_LENGTH;
    }

    long epoch(int index) {
        return buf.getLong(entry(index) + EPOCH);
    }

    int producer(int index) {
        return buf.getInt(entry(index) + PRODUCER);
    }

    int priority(int index) {
        return buf.getUnsignedByte(entry(index) + PRIORITY);
    }

    long sequence(int index) {
        return buf.getLong(entry(index) + SEQUENCE);
    }
}
