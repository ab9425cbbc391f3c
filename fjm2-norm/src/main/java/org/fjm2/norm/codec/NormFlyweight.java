package org.fjm2.norm.codec;

import io.netty.buffer.ByteBuf;

/**
 * Base of every NORM message flyweight: a view over one datagram in a {@link ByteBuf} (no copy, no allocation),
 * with the common header every NORM message starts with.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * |version| type  |    hdr_len    |          sequence             |
 * |                           source_id                           |
 * </pre>
 *
 * Getters do not re-check bounds: a datagram from the network is first checked by {@link NormPacketValidator},
 * which guarantees that every fixed field and every length-derived range lies inside the datagram.
 */
public abstract class NormFlyweight {

    public static final int VERSION_TYPE_OFFSET = 0;
    public static final int HDR_LEN_OFFSET = 1;
    public static final int SEQUENCE_OFFSET = 2;
    public static final int SOURCE_ID_OFFSET = 4;
    /** Length of the common header. */
    public static final int COMMON_HEADER_LENGTH = 8;

    protected ByteBuf buffer;
    protected int offset;
    protected int length;

    /** Views {@code length} bytes of {@code buffer} starting at absolute index {@code offset}. */
    @SuppressWarnings("unchecked")
    public <T extends NormFlyweight> T wrap(ByteBuf buffer, int offset, int length) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        return (T) this;
    }

    /** Views the readable bytes of a datagram. */
    public <T extends NormFlyweight> T wrap(ByteBuf datagram) {
        return wrap(datagram, datagram.readerIndex(), datagram.readableBytes());
    }

    public ByteBuf buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** Total message length in bytes (header, extensions and payload). */
    public int length() {
        return length;
    }

    /** Sets the total message length, used when building a message. */
    public void length(int length) {
        this.length = length;
    }

    public int version() {
        return (u8(VERSION_TYPE_OFFSET) >>> 4) & 0x0F;
    }

    public int type() {
        return u8(VERSION_TYPE_OFFSET) & 0x0F;
    }

    /** Header length in bytes, extensions included. */
    public int headerLength() {
        return u8(HDR_LEN_OFFSET) << 2;
    }

    public int sequence() {
        return u16(SEQUENCE_OFFSET);
    }

    public int sourceId() {
        return buffer.getInt(offset + SOURCE_ID_OFFSET);
    }

    /** Writes version 1, the type, a sequence number and the source id. */
    public void writeCommonHeader(int type, int sequence, int sourceId) {
        buffer.setByte(offset + VERSION_TYPE_OFFSET, (NormWire.VERSION << 4) | (type & 0x0F));
        buffer.setShort(offset + SEQUENCE_OFFSET, sequence);
        buffer.setInt(offset + SOURCE_ID_OFFSET, sourceId);
    }

    /** Sets hdr_len; {@code bytes} must be a multiple of four. */
    public void headerLength(int bytes) {
        if ((bytes & 3) != 0 || bytes > 1020) {
            throw new IllegalArgumentException("header length must be a multiple of 4 up to 1020: " + bytes);
        }
        buffer.setByte(offset + HDR_LEN_OFFSET, bytes >>> 2);
    }

    /** Bytes after the header (extensions included): the payload. */
    public int payloadLength() {
        return length - headerLength();
    }

    /** Absolute buffer index of the payload. */
    public int payloadIndex() {
        return offset + headerLength();
    }

    protected final int u8(int fieldOffset) {
        return buffer.getUnsignedByte(offset + fieldOffset);
    }

    protected final int u16(int fieldOffset) {
        return buffer.getUnsignedShort(offset + fieldOffset);
    }

    protected final long u32(int fieldOffset) {
        return buffer.getUnsignedInt(offset + fieldOffset);
    }

    protected final void put8(int fieldOffset, int value) {
        buffer.setByte(offset + fieldOffset, value);
    }

    protected final void put16(int fieldOffset, int value) {
        buffer.setShort(offset + fieldOffset, value);
    }

    protected final void put32(int fieldOffset, long value) {
        buffer.setInt(offset + fieldOffset, (int) value);
    }
}
