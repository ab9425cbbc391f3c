package org.fjm2.jms.message;

import io.netty.buffer.ByteBuf;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import jakarta.jms.StreamMessage;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.TypedValueCodec;
import org.fjm2.jms.wire.WireReader;

import java.util.ArrayList;
import java.util.List;

/**
 * A sequence of typed values, read in order with the conversion table of {@link TypeConversion}. A read that
 * fails with MessageFormatException or NumberFormatException does not move the read position, as the
 * specification requires. On the wire: int32 count, then the typed values.
 */
public final class Fjm2StreamMessage extends Fjm2Message implements StreamMessage {

    /** Replaced, never cleared in place: copies for other consumers share it. */
    private List<Object> items = new ArrayList<>();
    private int position;
    /** Offset inside the byte[] item being read by readBytes, or -1 when not inside one. */
    private int bytesOffset = -1;
    /**
     * The last readBytes returned a byte[] field's last bytes (the position has moved past it): the next readBytes
     * returns -1, as the specification's read loop expects, instead of reading into the next field.
     */
    private boolean bytesFieldEnded;

    @Override
    public int bodyKind() {
        return MessageHeaderFlyweight.KIND_STREAM;
    }

    private interface Converter<T> {
        T convert(Object value) throws JMSException;
    }

    private <T> T read(Converter<T> converter) throws JMSException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("StreamMessage is write-only: call reset() before reading");
        }
        if (bytesOffset >= 0) {
            throw new MessageFormatException("finish reading the byte[] field with readBytes() first");
        }
        if (position >= items.size()) {
            throw new MessageEOFException("end of the StreamMessage body");
        }
        T value = converter.convert(items.get(position));
        position++;
        bytesFieldEnded = false;
        return value;
    }

    @Override
    public boolean readBoolean() throws JMSException {
        return read(TypeConversion::toBoolean);
    }

    @Override
    public byte readByte() throws JMSException {
        return read(TypeConversion::toByte);
    }

    @Override
    public short readShort() throws JMSException {
        return read(TypeConversion::toShort);
    }

    @Override
    public char readChar() throws JMSException {
        return read(TypeConversion::toChar);
    }

    @Override
    public int readInt() throws JMSException {
        return read(TypeConversion::toInt);
    }

    @Override
    public long readLong() throws JMSException {
        return read(TypeConversion::toLong);
    }

    @Override
    public float readFloat() throws JMSException {
        return read(TypeConversion::toFloat);
    }

    @Override
    public double readDouble() throws JMSException {
        return read(TypeConversion::toDouble);
    }

    @Override
    public String readString() throws JMSException {
        return read(TypeConversion::toString);
    }

    @Override
    public Object readObject() throws JMSException {
        return read(value -> value instanceof byte[] bytes ? bytes.clone() : value);
    }

    /**
     * Reads a byte[] field in pieces, as the specification describes: each call fills the buffer, one that returns
     * less than its length has copied the field's last bytes, and the call after the last bytes returns -1 (also
     * when the field had exactly the buffer's length, and whatever type the next field has); a null field reads
     * as -1 at once, an empty one as 0 and then -1. Once the field is fully read the next field may be read.
     */
    @Override
    public int readBytes(byte[] value) throws JMSException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("StreamMessage is write-only: call reset() before reading");
        }
        if (bytesFieldEnded) {
            bytesFieldEnded = false;
            return -1;
        }
        if (position >= items.size()) {
            throw new MessageEOFException("end of the StreamMessage body");
        }
        Object item = items.get(position);
        if (item != null && !(item instanceof byte[])) {
            throw new MessageFormatException("the next field is a " + item.getClass().getSimpleName()
                    + ", not byte[]");
        }
        byte[] bytes = (byte[]) item;
        if (bytes == null) {
            position++;
            return -1;
        }
        int offset = Math.max(bytesOffset, 0);
        int n = Math.min(value.length, bytes.length - offset);
        System.arraycopy(bytes, offset, value, 0, n);
        if (offset + n == bytes.length) {
            bytesOffset = -1;
            bytesFieldEnded = true;
            position++;
        } else {
            bytesOffset = offset + n;
        }
        return n;
    }

    private void write(Object value) throws JMSException {
        checkBodyWritable();
        items.add(value);
    }

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        write(value);
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        write(value);
    }

    @Override
    public void writeShort(short value) throws JMSException {
        write(value);
    }

    @Override
    public void writeChar(char value) throws JMSException {
        write(value);
    }

    @Override
    public void writeInt(int value) throws JMSException {
        write(value);
    }

    @Override
    public void writeLong(long value) throws JMSException {
        write(value);
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        write(value);
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        write(value);
    }

    @Override
    public void writeString(String value) throws JMSException {
        write(value);
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        write(value == null ? null : value.clone());
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        byte[] copy = new byte[length];
        System.arraycopy(value, offset, copy, 0, length);
        write(copy);
    }

    @Override
    public void writeObject(Object value) throws JMSException {
        if (value != null && !TypeConversion.isBodyValue(value)) {
            throw new MessageFormatException("StreamMessage cannot hold a " + value.getClass().getName());
        }
        write(value instanceof byte[] bytes ? bytes.clone() : value);
    }

    @Override
    public void reset() {
        bodyReadOnly = true;
        prepareBodyForReading();
    }

    @Override
    protected void prepareBodyForReading() {
        position = 0;
        bytesOffset = -1;
        bytesFieldEnded = false;
    }

    @Override
    protected void clearBodyContent() {
        items = new ArrayList<>();
        position = 0;
        bytesOffset = -1;
        bytesFieldEnded = false;
    }

    /** The specification: the body of a StreamMessage is never returned by getBody. */
    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) {
        return false;
    }

    @Override
    public void writeBody(ByteBuf out) {
        out.writeInt(items.size());
        for (Object item : items) {
            TypedValueCodec.write(out, item);
        }
    }

    @Override
    public void readBody(WireReader in) throws MalformedWireException {
        int count = in.readLength(1);
        List<Object> decoded = new ArrayList<>(Math.min(count, 1024));
        for (int i = 0; i < count; i++) {
            decoded.add(TypedValueCodec.read(in));
        }
        items = decoded;
    }

    @Override
    protected Fjm2Message newInstance() {
        return new Fjm2StreamMessage();
    }

    @Override
    protected void shareBodyWith(Fjm2Message source) {
        Fjm2StreamMessage other = (Fjm2StreamMessage) source;
        items = other.bodyReadOnly ? other.items : new ArrayList<>(other.items);
        position = 0;
        bytesOffset = -1;
        bytesFieldEnded = false;
    }
}
