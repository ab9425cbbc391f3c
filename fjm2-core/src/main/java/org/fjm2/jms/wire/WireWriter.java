package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;

/**
 * Writes the variable-length parts of the wire format straight into the (pooled) destination buffer, without
 * intermediate byte arrays: strings are encoded in place and their length prefix patched afterwards.
 */
public final class WireWriter {

    /** Longest string with a uint16 length prefix (topic, names, type, correlation id). */
    public static final int MAX_SHORT_STRING_BYTES = 0xFFFF;

    private WireWriter() {
    }

    /** A string with a uint16 byte-length prefix; IllegalArgumentException when its UTF-8 form is too long. */
    public static void writeShortString(ByteBuf out, CharSequence s) {
        int lengthAt = out.writerIndex();
        out.writeShort(0);
        int written = ByteBufUtil.writeUtf8(out, s);
        if (written > MAX_SHORT_STRING_BYTES) {
            out.writerIndex(lengthAt);
            throw new IllegalArgumentException("string of " + written + " UTF-8 bytes exceeds "
                    + MAX_SHORT_STRING_BYTES + ": " + s.subSequence(0, 40) + "...");
        }
        out.setShort(lengthAt, written);
    }

    /** Pre-encoded UTF-8 with a uint16 length prefix. */
    public static void writeShortString(ByteBuf out, byte[] utf8) {
        out.writeShort(utf8.length);
        out.writeBytes(utf8);
    }

    /** A string with an int32 byte-length prefix. */
    public static void writeLongString(ByteBuf out, CharSequence s) {
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        int written = ByteBufUtil.writeUtf8(out, s);
        out.setInt(lengthAt, written);
    }

    public static void writeBytes(ByteBuf out, byte[] bytes) {
        out.writeInt(bytes.length);
        out.writeBytes(bytes);
    }
}
