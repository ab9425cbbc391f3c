package org.fjm2.jms.message;

import io.netty.buffer.ByteBuf;
import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MessageEOFException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotReadableException;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.WireReader;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;

/**
 * A stream of uninterpreted bytes with {@link java.io.DataOutput} encodings. Write-only until {@link #reset()}
 * or delivery, read-only after. On the wire the body is the bytes themselves, copied straight from the
 * write buffer into the batch.
 */
public final class Fjm2BytesMessage extends Fjm2Message implements BytesMessage {

    private static final byte[] EMPTY = new byte[0];

    /** Write mode: the growing body (null until the first write). */
    private ExposedByteArrayOutputStream written;
    private DataOutputStream out;
    /** Read mode: the body and the stream reading it. */
    private byte[] body = EMPTY;
    private DataInputStream in;
    private ByteArrayInputStream inBytes;

    @Override
    public int bodyKind() {
        return MessageHeaderFlyweight.KIND_BYTES;
    }

    // ------------------------------------------------------------------------------------ state

    @Override
    public long getBodyLength() throws JMSException {
        checkReadable();
        return body.length;
    }

    @Override
    public void reset() {
        bodyReadOnly = true;
        prepareBodyForReading();
    }

    @Override
    protected void prepareBodyForReading() {
        if (written != null) {
            body = written.toByteArray();
            written = null;
            out = null;
        }
        // The read streams are made on the first read: most received messages are read with one readBytes, or not
        // at all (selectors, benchmarks), and a receiver decodes every message on its network thread.
        inBytes = null;
        in = null;
    }

    @Override
    protected void clearBodyContent() {
        written = null;
        out = null;
        body = EMPTY;
        in = null;
        inBytes = null;
    }

    private void checkReadable() throws MessageNotReadableException {
        if (!bodyReadOnly) {
            throw new MessageNotReadableException("BytesMessage is write-only: call reset() before reading");
        }
    }

    /** The write stream (a first bulk write becomes the body without growing it: see the stream). */
    private DataOutputStream output() throws JMSException {
        checkBodyWritable();
        if (out == null) {
            written = new ExposedByteArrayOutputStream(body);
            body = EMPTY;
            out = new DataOutputStream(written);
        }
        return out;
    }

    private DataInputStream input() throws MessageNotReadableException {
        checkReadable();
        if (in == null) {
            inBytes = new ByteArrayInputStream(body);
            in = new DataInputStream(inBytes);
        }
        return in;
    }

    /** The body bytes without copying, whatever the mode: {@code length} of {@code bodyArray}. */
    private int bodyLength() {
        return written != null ? written.size() : body.length;
    }

    private byte[] bodyArray() {
        return written != null ? written.buffer() : body;
    }

    // ------------------------------------------------------------------------------------ reading

    @Override
    public boolean readBoolean() throws JMSException {
        return read(DataInputStream::readBoolean);
    }

    @Override
    public byte readByte() throws JMSException {
        return read(DataInputStream::readByte);
    }

    @Override
    public int readUnsignedByte() throws JMSException {
        return read(DataInputStream::readUnsignedByte);
    }

    @Override
    public short readShort() throws JMSException {
        return read(DataInputStream::readShort);
    }

    @Override
    public int readUnsignedShort() throws JMSException {
        return read(DataInputStream::readUnsignedShort);
    }

    @Override
    public char readChar() throws JMSException {
        return read(DataInputStream::readChar);
    }

    @Override
    public int readInt() throws JMSException {
        return read(DataInputStream::readInt);
    }

    @Override
    public long readLong() throws JMSException {
        return read(DataInputStream::readLong);
    }

    @Override
    public float readFloat() throws JMSException {
        return read(DataInputStream::readFloat);
    }

    @Override
    public double readDouble() throws JMSException {
        return read(DataInputStream::readDouble);
    }

    @Override
    public String readUTF() throws JMSException {
        DataInputStream data = input();
        inBytes.mark(0);
        try {
            return data.readUTF();
        } catch (IOException e) {
            inBytes.reset();
            throw readFailure(e);
        }
    }

    @Override
    public int readBytes(byte[] value) throws JMSException {
        return readBytes(value, value.length);
    }

    @Override
    public int readBytes(byte[] value, int length) throws JMSException {
        if (length < 0 || length > value.length) {
            throw new IndexOutOfBoundsException("length " + length + " outside 0.." + value.length);
        }
        DataInputStream data = input();
        if (inBytes.available() == 0) {
            return -1;
        }
        try {
            return data.read(value, 0, length);
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    private interface Read<T> {
        T from(DataInputStream in) throws IOException;
    }

    private interface Write {
        void to(DataOutputStream out) throws IOException;
    }

    private <T> T read(Read<T> read) throws JMSException {
        DataInputStream data = input();
        try {
            return read.from(data);
        } catch (IOException e) {
            throw readFailure(e);
        }
    }

    private void write(Write write) throws JMSException {
        DataOutputStream data = output();
        try {
            write.to(data);
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array stream does not fail
        }
    }

    private static JMSException readFailure(IOException e) {
        JMSException jms = e instanceof EOFException
                ? new MessageEOFException("unexpected end of the BytesMessage body")
                : new MessageFormatException("malformed BytesMessage body: " + e.getMessage());
        jms.setLinkedException(e);
        jms.initCause(e);
        return jms;
    }

    // ------------------------------------------------------------------------------------ writing

    @Override
    public void writeBoolean(boolean value) throws JMSException {
        write(out -> out.writeBoolean(value));
    }

    @Override
    public void writeByte(byte value) throws JMSException {
        write(out -> out.writeByte(value));
    }

    @Override
    public void writeShort(short value) throws JMSException {
        write(out -> out.writeShort(value));
    }

    @Override
    public void writeChar(char value) throws JMSException {
        write(out -> out.writeChar(value));
    }

    @Override
    public void writeInt(int value) throws JMSException {
        write(out -> out.writeInt(value));
    }

    @Override
    public void writeLong(long value) throws JMSException {
        write(out -> out.writeLong(value));
    }

    @Override
    public void writeFloat(float value) throws JMSException {
        write(out -> out.writeFloat(value));
    }

    @Override
    public void writeDouble(double value) throws JMSException {
        write(out -> out.writeDouble(value));
    }

    @Override
    public void writeUTF(String value) throws JMSException {
        try {
            output().writeUTF(value);
        } catch (IOException e) {
            throw new MessageFormatException("cannot write UTF string: " + e.getMessage());
        }
    }

    @Override
    public void writeBytes(byte[] value) throws JMSException {
        writeBytes(value, 0, value.length);
    }

    @Override
    public void writeBytes(byte[] value, int offset, int length) throws JMSException {
        try {
            output().write(value, offset, length);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void writeObject(Object value) throws JMSException {
        checkBodyWritable();
        if (value == null) {
            throw new NullPointerException("BytesMessage.writeObject(null)");
        } else if (value instanceof Boolean v) {
            writeBoolean(v);
        } else if (value instanceof Byte v) {
            writeByte(v);
        } else if (value instanceof Short v) {
            writeShort(v);
        } else if (value instanceof Character v) {
            writeChar(v);
        } else if (value instanceof Integer v) {
            writeInt(v);
        } else if (value instanceof Long v) {
            writeLong(v);
        } else if (value instanceof Float v) {
            writeFloat(v);
        } else if (value instanceof Double v) {
            writeDouble(v);
        } else if (value instanceof String v) {
            writeUTF(v);
        } else if (value instanceof byte[] v) {
            writeBytes(v);
        } else {
            throw new MessageFormatException("BytesMessage.writeObject cannot write a " + value.getClass().getName());
        }
    }

    // ------------------------------------------------------------------------------------ body as a whole

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) {
        return bodyLength() == 0 || c.isAssignableFrom(byte[].class);
    }

    @Override
    protected <T> T bodyAs(Class<T> c) {
        int length = bodyLength();
        return length == 0 ? null : c.cast(Arrays.copyOf(bodyArray(), length));
    }

    @Override
    public void writeBody(ByteBuf buf) {
        buf.writeBytes(bodyArray(), 0, bodyLength());
    }

    @Override
    public void readBody(WireReader reader) throws MalformedWireException {
        clearBodyContent();
        body = reader.readRemainingBytes();
    }

    @Override
    protected Fjm2Message newInstance() {
        return new Fjm2BytesMessage();
    }

    @Override
    protected void shareBodyWith(Fjm2Message source) {
        Fjm2BytesMessage other = (Fjm2BytesMessage) source;
        body = other.written != null ? Arrays.copyOf(other.bodyArray(), other.bodyLength()) : other.body;
        if (bodyReadOnly) {
            prepareBodyForReading();
        }
    }

    /** Gives access to the internal array so that encoding copies once, straight into the batch buffer. */
    private static final class ExposedByteArrayOutputStream extends java.io.ByteArrayOutputStream {
        /** Room for the small writes of typed values before the first growth. */
        private static final int INITIAL_CAPACITY = 64;

        ExposedByteArrayOutputStream(byte[] initial) {
            super(Math.max(INITIAL_CAPACITY, initial.length));
            write(initial, 0, initial.length);
        }

        /**
         * A first write larger than the buffer becomes the buffer: the usual BytesMessage is one writeBytes of the
         * whole body, and a copy made by Arrays.copyOfRange is not zeroed first (the JIT fuses the two), which at
         * 8 KB saves a third of the cost of building the message.
         */
        @Override
        public void write(byte[] b, int off, int len) {
            if (count == 0 && len > buf.length) {
                Objects.checkFromIndexSize(off, len, b.length);
                buf = Arrays.copyOfRange(b, off, off + len);
                count = len;
                return;
            }
            super.write(b, off, len);
        }

        byte[] buffer() {
            return buf;
        }
    }
}
