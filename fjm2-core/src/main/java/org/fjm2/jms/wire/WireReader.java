package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A bounds-checked cursor over part of a buffer (big-endian, as the whole wire format). Every read checks that
 * the bytes lie inside {@code [index, limit)} and throws {@link MalformedWireException} instead of reading past:
 * a sender cannot make a receiver read outside the record, nor allocate more than the record holds. Reusable:
 * {@link #wrap} it again for the next record.
 */
public final class WireReader {

    private ByteBuf buf;
    private int index;
    private int limit;

    public WireReader wrap(ByteBuf buffer, int start, int end) {
        this.buf = buffer;
        this.index = start;
        this.limit = end;
        return this;
    }

    public int index() {
        return index;
    }

    public int remaining() {
        return limit - index;
    }

    private void need(int bytes) throws MalformedWireException {
        if (bytes < 0 || bytes > limit - index) {
            throw new MalformedWireException("field of " + bytes + " bytes at " + index
                    + " runs past the record end " + limit);
        }
    }

    public int readUnsignedByte() throws MalformedWireException {
        need(1);
        return buf.getUnsignedByte(index++);
    }

    public byte readByte() throws MalformedWireException {
        need(1);
        return buf.getByte(index++);
    }

    public int readUnsignedShort() throws MalformedWireException {
        need(2);
        int v = buf.getUnsignedShort(index);
        index += 2;
        return v;
    }

    public short readShort() throws MalformedWireException {
        need(2);
        short v = buf.getShort(index);
        index += 2;
        return v;
    }

    public char readChar() throws MalformedWireException {
        return (char) readUnsignedShort();
    }

    public int readInt() throws MalformedWireException {
        need(4);
        int v = buf.getInt(index);
        index += 4;
        return v;
    }

    public long readLong() throws MalformedWireException {
        need(8);
        long v = buf.getLong(index);
        index += 8;
        return v;
    }

    /** A count or length field (int32) that must be non-negative and fit in what is left at minimum size. */
    public int readLength(int minBytesPerUnit) throws MalformedWireException {
        int n = readInt();
        if (n < 0 || (long) n * minBytesPerUnit > remaining()) {
            throw new MalformedWireException("length " + n + " at " + (index - 4) + " exceeds the record");
        }
        return n;
    }

    public String readUtf8(int length) throws MalformedWireException {
        need(length);
        String s = buf.toString(index, length, StandardCharsets.UTF_8);
        index += length;
        return s;
    }

    /** A string with a uint16 byte-length prefix. */
    public String readShortString() throws MalformedWireException {
        return readUtf8(readUnsignedShort());
    }

    /** A string with a uint16 byte-length prefix, through {@code cache} (for names that repeat, like properties). */
    public String readShortString(NameCache cache) throws MalformedWireException {
        int length = readUnsignedShort();
        need(length);
        String s = cache.get(buf, index, length);
        index += length;
        return s;
    }

    /** A string with an int32 byte-length prefix. */
    public String readLongString() throws MalformedWireException {
        return readUtf8(readLength(1));
    }

    public byte[] readBytes(int length) throws MalformedWireException {
        need(length);
        byte[] bytes;
        if (buf.hasArray()) {
            // A copy made by Arrays.copyOfRange is allocated without zeroing first (the JIT fuses the two), which
            // for large bodies is a third of the cost of decoding them.
            int from = buf.arrayOffset() + index;
            bytes = Arrays.copyOfRange(buf.array(), from, from + length);
        } else {
            bytes = new byte[length];
            buf.getBytes(index, bytes);
        }
        index += length;
        return bytes;
    }

    /** Everything up to the limit. */
    public byte[] readRemainingBytes() throws MalformedWireException {
        return readBytes(remaining());
    }

    public String readRemainingUtf8() throws MalformedWireException {
        return readUtf8(remaining());
    }
}
