package org.fjm2.jms.message;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;
import java.io.Serializable;

import io.netty.buffer.ByteBuf;
import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.WireReader;

/**
 * A serialised Java object. The object is serialised when set (so later changes to it do not travel) and
 * deserialised on every {@link #getObject()} through an {@link ObjectMessageAllowList}: a class outside the
 * list is refused with a MessageFormatException naming it and the URL parameter that allows it.
 */
public final class Fjm2ObjectMessage extends Fjm2Message implements ObjectMessage {

    /** Serialised form, null when no object was set. Never mutated: copies share it. */
    private byte[] serialized;
    private ObjectMessageAllowList allowList = ObjectMessageAllowList.DEFAULT;

    @Override
    public int bodyKind() {
        return MessageHeaderFlyweight.KIND_OBJECT;
    }

    /** Sets the classes getObject() may deserialise (the connection's objectMessageAllowList). */
    public void allowList(ObjectMessageAllowList list) {
        allowList = list;
    }

    @Override
    public void setObject(Serializable object) throws JMSException {
        checkBodyWritable();
        if (object == null) {
            serialized = null;
            return;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        } catch (IOException e) {
            MessageFormatException jms = new MessageFormatException("cannot serialise a "
                    + object.getClass().getName() + ": " + e);
            jms.setLinkedException(e);
            throw jms;
        }
        serialized = bytes.toByteArray();
    }

    @Override
    public Serializable getObject() throws JMSException {
        if (serialized == null) {
            return null;
        }
        FilteredObjectInputStream in = null;
        try {
            in = new FilteredObjectInputStream(new ByteArrayInputStream(serialized), allowList, serialized.length);
            return (Serializable) in.readObject();
        } catch (InvalidClassException e) {
            String refused = in == null || in.rejected == null ? "a class" : in.rejected;
            MessageFormatException jms = new MessageFormatException("ObjectMessage refused to deserialise "
                    + refused + ": not in " + ObjectMessageAllowList.PARAMETER + "=" + allowList
                    + " (or the object graph is too deep)");
            jms.setLinkedException(e);
            throw jms;
        } catch (IOException | ClassNotFoundException | RuntimeException e) {
            // A malformed stream makes the JDK's own readObject methods throw anything (NullPointerException,
            // NegativeArraySizeException...): to the application it is one thing, a body that cannot be read.
            MessageFormatException jms = new MessageFormatException("cannot deserialise ObjectMessage: " + e);
            jms.setLinkedException(e);
            throw jms;
        } finally {
            if (in != null) {
                try {
                    in.close();
                } catch (IOException ignored) {
                    // a byte array stream
                }
            }
        }
    }

    @Override
    protected void clearBodyContent() {
        serialized = null;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) {
        if (serialized == null) {
            return true;
        }
        try {
            return c.isInstance(getObject());
        } catch (JMSException e) {
            return false;
        }
    }

    @Override
    protected <T> T bodyAs(Class<T> c) throws JMSException {
        return c.cast(getObject());
    }

    @Override
    public void writeBody(ByteBuf out) {
        if (serialized == null) {
            out.writeByte(0);
        } else {
            out.writeByte(1).writeBytes(serialized);
        }
    }

    @Override
    public void readBody(WireReader in) throws MalformedWireException {
        serialized = in.readUnsignedByte() == 0 ? null : in.readRemainingBytes();
    }

    @Override
    protected Fjm2Message newInstance() {
        return new Fjm2ObjectMessage();
    }

    @Override
    protected void shareBodyWith(Fjm2Message source) {
        Fjm2ObjectMessage other = (Fjm2ObjectMessage) source;
        serialized = other.serialized;
        allowList = other.allowList;
    }

    /** Applies the allow-list and resolves classes through the thread's context class loader first. */
    private static final class FilteredObjectInputStream extends ObjectInputStream {
        /** The first class the allow-list refused, for the error message. */
        String rejected;

        /**
         * @param streamLength bytes of the serialised form: no array in it can be longer (every element takes at
         *                     least a byte), so a declared length beyond it is a lie that would allocate memory the
         *                     bytes never fill (an ArrayList's readObject allocates the size its stream claims)
         */
        FilteredObjectInputStream(ByteArrayInputStream in, ObjectMessageAllowList filter, int streamLength)
                throws IOException {
            super(in);
            setObjectInputFilter(info -> {
                if (info.arrayLength() > streamLength) {
                    return java.io.ObjectInputFilter.Status.REJECTED;
                }
                java.io.ObjectInputFilter.Status status = filter.checkInput(info);
                if (status == java.io.ObjectInputFilter.Status.REJECTED && rejected == null
                        && info.serialClass() != null) {
                    rejected = info.serialClass().getName();
                }
                return status;
            });
        }

        @Override
        protected Class<?> resolveClass(ObjectStreamClass desc) throws IOException, ClassNotFoundException {
            ClassLoader loader = Thread.currentThread().getContextClassLoader();
            if (loader != null) {
                try {
                    return Class.forName(desc.getName(), false, loader);
                } catch (ClassNotFoundException e) {
                    // fall back to the default lookup below
                }
            }
            return super.resolveClass(desc);
        }
    }
}
