package org.fjm2.jms.wire;

import io.netty.buffer.ByteBuf;

/**
 * Typed values of properties, map and stream bodies: a one-byte tag, then the value (big-endian). Strings are
 * UTF-8 with an int32 length, byte arrays likewise.
 */
public final class TypedValueCodec {

    public static final int NULL = 0;
    public static final int BOOLEAN = 1;
    public static final int BYTE = 2;
    public static final int SHORT = 3;
    public static final int INT = 4;
    public static final int LONG = 5;
    public static final int FLOAT = 6;
    public static final int DOUBLE = 7;
    public static final int STRING = 8;
    public static final int CHAR = 9;
    public static final int BYTES = 10;

    private TypedValueCodec() {
    }

    /** Writes one value; IllegalArgumentException for a type the wire format does not carry. */
    public static void write(ByteBuf out, Object value) {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof String s) {
            out.writeByte(STRING);
            WireWriter.writeLongString(out, s);
        } else if (value instanceof Integer i) {
            out.writeByte(INT).writeInt(i);
        } else if (value instanceof Long l) {
            out.writeByte(LONG).writeLong(l);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN).writeByte(b ? 1 : 0);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE).writeDouble(d);
        } else if (value instanceof Float f) {
            out.writeByte(FLOAT).writeFloat(f);
        } else if (value instanceof Short s) {
            out.writeByte(SHORT).writeShort(s);
        } else if (value instanceof Byte b) {
            out.writeByte(BYTE).writeByte(b);
        } else if (value instanceof Character c) {
            out.writeByte(CHAR).writeChar(c);
        } else if (value instanceof byte[] bytes) {
            out.writeByte(BYTES);
            WireWriter.writeBytes(out, bytes);
        } else {
            throw new IllegalArgumentException("cannot encode a " + value.getClass().getName());
        }
    }

    public static Object read(WireReader in) throws MalformedWireException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case NULL -> null;
            case BOOLEAN -> in.readByte() != 0;
            case BYTE -> in.readByte();
            case SHORT -> in.readShort();
            case INT -> in.readInt();
            case LONG -> in.readLong();
            case FLOAT -> Float.intBitsToFloat(in.readInt());
            case DOUBLE -> Double.longBitsToDouble(in.readLong());
            case STRING -> in.readLongString();
            case CHAR -> in.readChar();
            case BYTES -> in.readBytes(in.readLength(1));
            default -> throw new MalformedWireException("unknown value tag " + tag);
        };
    }
}
