package org.fjm2.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * The bytes of a durable subscription's journal record (the add record and every update carry the whole state, so
 * the last one read wins):
 * <pre>
 *  0  uint8   format (2; 1 lacks the three fields of 10..33)
 *  1  int64   created after journal record id
 *  9  uint8   flags: bit 0 noLocal, bit 1 has a selector, bit 2 shared (createSharedDurableConsumer)
 * 10  int64   incarnation (0: unknown)
 * 18  int64   created, ms since the epoch
 * 26  int64   removed, ms since the epoch (0: it lives; otherwise a tombstone)
 * 34  uint16  client id length, client id; uint16 name length, name; uint16 topic length, topic;
 *             uint16 selector length, selector (UTF-8)
 *  n  int32   position count, then per stream: int64 epoch, int32 producer, uint8 priority, int64 sequence
 * </pre>
 * Big-endian. Format 1 records (written before stores named subscriptions) still read.
 */
final class SubscriptionRecordCodec {

    static final int FORMAT = 2;
    static final int FORMAT_WITHOUT_INCARNATION = 1;
    private static final int FLAG_NO_LOCAL = 1;
    private static final int FLAG_SELECTOR = 2;
    private static final int FLAG_SHARED = 4;

    private SubscriptionRecordCodec() {
    }

    static byte[] encode(Subscription s) {
        ByteBuf out = Unpooled.buffer();
        out.writeByte(FORMAT).writeLong(s.createdAfterId())
                .writeByte((s.noLocal() ? FLAG_NO_LOCAL : 0) | (s.selector() != null ? FLAG_SELECTOR : 0)
                        | (s.shared() ? FLAG_SHARED : 0))
                .writeLong(s.incarnation()).writeLong(s.createdMillis()).writeLong(s.removedMillis());
        writeString(out, s.key().clientId());
        writeString(out, s.key().name());
        writeString(out, s.topic());
        writeString(out, s.selector() == null ? "" : s.selector());
        out.writeInt(s.positions().size());
        s.positions().forEach((stream, sequence) -> out.writeLong(stream.epoch()).writeInt(stream.producer())
                .writeByte(stream.priority()).writeLong(sequence));
        byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return bytes;
    }

    /** @throws IllegalArgumentException when the bytes are not a subscription record of this format */
    static Subscription decode(long journalId, byte[] data) {
        ByteBuf in = Unpooled.wrappedBuffer(data);
        try {
            int format = in.readUnsignedByte();
            if (format != FORMAT && format != FORMAT_WITHOUT_INCARNATION) {
                throw new IllegalArgumentException("journal record " + journalId + " is a subscription of an "
                        + "unknown format");
            }
            long createdAfter = in.readLong();
            int flags = in.readUnsignedByte();
            boolean named = format == FORMAT;
            long incarnation = named ? in.readLong() : 0;
            long createdMillis = named ? in.readLong() : 0;
            long removedMillis = named ? in.readLong() : 0;
            String clientId = readString(in);
            String name = readString(in);
            String topic = readString(in);
            String selector = readString(in);
            Subscription s = new Subscription(new SubscriptionKey(clientId, name), journalId, topic,
                    (flags & FLAG_SELECTOR) != 0 ? selector : null, (flags & FLAG_NO_LOCAL) != 0, createdAfter,
                    incarnation, createdMillis);
            s.removedAt(removedMillis);
            s.shared((flags & FLAG_SHARED) != 0);
            int count = in.readInt();
            if (count < 0 || (long) count * 21 != in.readableBytes()) {
                throw new IllegalArgumentException("journal record " + journalId + ": subscription with " + count
                        + " positions in " + in.readableBytes() + " bytes");
            }
            for (int i = 0; i < count; i++) {
                s.acknowledged(new PositionKey(in.readLong(), in.readInt(), in.readUnsignedByte()), in.readLong());
            }
            return s;
        } catch (IndexOutOfBoundsException e) {
            throw new IllegalArgumentException("journal record " + journalId + " is a truncated subscription", e);
        }
    }

    private static void writeString(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(bytes.length).writeBytes(bytes);
    }

    private static String readString(ByteBuf in) {
        int length = in.readUnsignedShort();
        return in.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }
}
