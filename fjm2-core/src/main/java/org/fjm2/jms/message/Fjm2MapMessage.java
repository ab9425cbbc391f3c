package org.fjm2.jms.message;

import io.netty.buffer.ByteBuf;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.MessageFormatException;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.TypedValueCodec;
import org.fjm2.jms.wire.WireReader;
import org.fjm2.jms.wire.WireWriter;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Name-value pairs with the conversion table of {@link TypeConversion} (plus char and byte[]). On the wire:
 * int32 count, then per entry the name (uint16 length + UTF-8) and a typed value.
 */
public final class Fjm2MapMessage extends Fjm2Message implements MapMessage {

    /** Replaced, never cleared in place: copies for other consumers share it. */
    private Map<String, Object> map = new LinkedHashMap<>();

    @Override
    public int bodyKind() {
        return MessageHeaderFlyweight.KIND_MAP;
    }

    @Override
    public boolean getBoolean(String name) throws JMSException {
        return TypeConversion.toBoolean(map.get(name));
    }

    @Override
    public byte getByte(String name) throws JMSException {
        return TypeConversion.toByte(map.get(name));
    }

    @Override
    public short getShort(String name) throws JMSException {
        return TypeConversion.toShort(map.get(name));
    }

    @Override
    public char getChar(String name) throws JMSException {
        return TypeConversion.toChar(map.get(name));
    }

    @Override
    public int getInt(String name) throws JMSException {
        return TypeConversion.toInt(map.get(name));
    }

    @Override
    public long getLong(String name) throws JMSException {
        return TypeConversion.toLong(map.get(name));
    }

    @Override
    public float getFloat(String name) throws JMSException {
        return TypeConversion.toFloat(map.get(name));
    }

    @Override
    public double getDouble(String name) throws JMSException {
        return TypeConversion.toDouble(map.get(name));
    }

    @Override
    public String getString(String name) throws JMSException {
        return TypeConversion.toString(map.get(name));
    }

    @Override
    public byte[] getBytes(String name) throws JMSException {
        byte[] bytes = TypeConversion.toBytes(map.get(name));
        return bytes == null ? null : bytes.clone();
    }

    @Override
    public Object getObject(String name) {
        Object value = map.get(name);
        return value instanceof byte[] bytes ? bytes.clone() : value;
    }

    @Override
    public Enumeration<String> getMapNames() {
        return Collections.enumeration(map.keySet());
    }

    @Override
    public boolean itemExists(String name) {
        return map.containsKey(name);
    }

    @Override
    public void setBoolean(String name, boolean value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setByte(String name, byte value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setShort(String name, short value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setChar(String name, char value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setInt(String name, int value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setLong(String name, long value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setFloat(String name, float value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setDouble(String name, double value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setString(String name, String value) throws JMSException {
        put(name, value);
    }

    @Override
    public void setBytes(String name, byte[] value) throws JMSException {
        put(name, value == null ? null : value.clone());
    }

    @Override
    public void setBytes(String name, byte[] value, int offset, int length) throws JMSException {
        byte[] copy = new byte[length];
        System.arraycopy(value, offset, copy, 0, length);
        put(name, copy);
    }

    @Override
    public void setObject(String name, Object value) throws JMSException {
        if (value != null && !TypeConversion.isBodyValue(value)) {
            throw new MessageFormatException("MapMessage entry '" + name + "': a " + value.getClass().getName()
                    + " is not a boxed primitive, String or byte[]");
        }
        put(name, value instanceof byte[] bytes ? bytes.clone() : value);
    }

    private void put(String name, Object value) throws JMSException {
        checkBodyWritable();
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("MapMessage entry name must not be null or empty");
        }
        map.put(name, value);
    }

    @Override
    protected void clearBodyContent() {
        map = new LinkedHashMap<>();
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) {
        return map.isEmpty() || c.isAssignableFrom(Map.class);
    }

    @Override
    protected <T> T bodyAs(Class<T> c) {
        return map.isEmpty() ? null : c.cast(new LinkedHashMap<>(map));
    }

    @Override
    public void writeBody(ByteBuf out) {
        out.writeInt(map.size());
        for (Map.Entry<String, Object> entry : map.entrySet()) {
            WireWriter.writeShortString(out, entry.getKey());
            TypedValueCodec.write(out, entry.getValue());
        }
    }

    @Override
    public void readBody(WireReader in) throws MalformedWireException {
        int count = in.readLength(3); // a name length and a tag at least
        Map<String, Object> decoded = new LinkedHashMap<>(Math.min(count, 64) * 2);
        for (int i = 0; i < count; i++) {
            decoded.put(in.readShortString(), TypedValueCodec.read(in));
        }
        map = decoded;
    }

    @Override
    protected Fjm2Message newInstance() {
        return new Fjm2MapMessage();
    }

    @Override
    protected void shareBodyWith(Fjm2Message source) {
        Fjm2MapMessage other = (Fjm2MapMessage) source;
        map = other.bodyReadOnly ? other.map : new LinkedHashMap<>(other.map);
    }
}
