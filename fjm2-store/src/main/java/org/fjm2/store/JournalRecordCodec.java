package org.fjm2.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.fjm2.jms.wire.MessageHeaderFlyweight;

/**
 * The bytes of one journal record (Artemis keeps them as given, with its own length and checksum around them):
 * <pre>
 *  0  uint8  format (1)
 *  1  int32  publisher node id
 *  5  int64  publisher epoch
 * 13  int64  received at (ms since 1970)
 * 21  ...    the FJM2 message record as published
 * </pre>
 * Big-endian. Decoding checks that the message record's framing holds, so a record that is not one is reported
 * instead of replayed.
 */
final class JournalRecordCodec {

    static final int FORMAT = 1;
    static final int HEADER_LENGTH = 21;

    private JournalRecordCodec() {
    }

    static byte[] encode(int node, long epoch, long storedAtMillis, ByteBuf source, int offset, int length) {
        byte[] bytes = new byte[HEADER_LENGTH + length];
        ByteBuf out = Unpooled.wrappedBuffer(bytes).writerIndex(0);
        out.writeByte(FORMAT).writeInt(node).writeLong(epoch).writeLong(storedAtMillis);
        out.writeBytes(source, offset, length);
        return bytes;
    }

    /** @throws IllegalArgumentException when the bytes are not a record of this format */
    static StoredMessage decode(long id, byte[] data) {
        if (data.length < HEADER_LENGTH + MessageHeaderFlyweight.FIXED_LENGTH || data[0] != FORMAT) {
            throw new IllegalArgumentException("journal record " + id + " is not a stored message (format "
                    + (data.length == 0 ? "none" : data[0]) + ", " + data.length + " bytes)");
        }
        ByteBuf in = Unpooled.wrappedBuffer(data);
        int node = in.getInt(1);
        long epoch = in.getLong(5);
        long storedAt = in.getLong(13);
        byte[] record = new byte[data.length - HEADER_LENGTH];
        in.getBytes(HEADER_LENGTH, record);
        MessageHeaderFlyweight header = new MessageHeaderFlyweight().wrap(Unpooled.wrappedBuffer(record), 0);
        if (header.recordLength() != record.length
                || MessageHeaderFlyweight.FIXED_LENGTH + header.topicLength() > record.length) {
            throw new IllegalArgumentException("journal record " + id + " holds a message record whose framing is "
                    + "broken (length " + header.recordLength() + " in " + record.length + " bytes)");
        }
        return new StoredMessage(id, node, epoch, storedAt, record);
    }
}
