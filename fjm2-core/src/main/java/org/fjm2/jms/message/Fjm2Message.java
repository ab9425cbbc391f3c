package org.fjm2.jms.message;

import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import io.netty.buffer.ByteBuf;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.WireReader;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Vector;

/**
 * A message without a body, and the header and properties every FJM2 message type shares. Header fields
 * follow the Jakarta Messaging rules; properties follow the conversion table of section 3.5.4 (see
 * {@link TypeConversion}). The message id of a sent or received message is computed on first use from the
 * sender's connection epoch, producer id, priority and sequence number, so sending costs no string.
 *
 * <p>Received messages are read-only until {@link #clearBody()} / {@link #clearProperties()}. A message is not
 * thread-safe (JMS messages never are).
 */
public class Fjm2Message implements Message {

    /** JMS default priority. */
    public static final int DEFAULT_PRIORITY = Message.DEFAULT_PRIORITY;

    private String messageId;
    private long idEpoch;
    private int idProducer;
    private int idPriority;
    private long idSequence;
    /** The stream a received message came in: (epoch, producer, priority) and its number there; 0: not received. */
    private long originEpoch;
    private int originProducer;
    private int originPriority;
    private long originSequence;
    /** When a received message was sent (the sender's clock), even when its JMSTimestamp reads 0. */
    private long originSentMillis;
    private long timestamp;
    private String correlationId;
    private byte[] correlationIdBytes;
    private Destination replyTo;
    private Destination destination;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private boolean redelivered;
    private String type;
    private long expiration;
    private long deliveryTime;
    private int priority = DEFAULT_PRIORITY;
    private int deliveryCount;
    private int wireSize;
    private Map<String, Object> properties;
    private boolean propertiesReadOnly;
    /** True once received (until clearBody): writing the body throws. */
    protected boolean bodyReadOnly;
    private Acknowledger acknowledger;

    /** The wire body kind of this class (MessageHeaderFlyweight.KIND_*). */
    public int bodyKind() {
        return MessageHeaderFlyweight.KIND_MESSAGE;
    }

    // ---------------------------------------------------------------- header fields

    @Override
    public String getJMSMessageID() {
        if (messageId == null && idSequence != 0) {
            messageId = "ID:" + Long.toHexString(idEpoch) + ":" + Integer.toHexString(idProducer) + ":"
                    + idPriority + ":" + idSequence;
        }
        return messageId;
    }

    @Override
    public void setJMSMessageID(String id) {
        messageId = id;
        idSequence = 0;
    }

    /** Sets the id a provider assigns: computed lazily from these parts. */
    public void assignMessageId(long epoch, int producerId, int idPrio, long sequence) {
        messageId = null;
        idEpoch = epoch;
        idProducer = producerId;
        idPriority = idPrio;
        idSequence = sequence;
    }

    /** Where a received message stands in its producer's stream (late join needs it whatever the id says). */
    public void origin(long epoch, int producerId, int streamPriority, long sequence) {
        originEpoch = epoch;
        originProducer = producerId;
        originPriority = streamPriority;
        originSequence = sequence;
    }

    /** A received message's send time as its record says (shared subscriptions share messages out by it). */
    public void originSentMillis(long millis) {
        originSentMillis = millis;
    }

    public long originSentMillis() {
        return originSentMillis;
    }

    public long originEpoch() {
        return originEpoch;
    }

    public int originProducer() {
        return originProducer;
    }

    public int originPriority() {
        return originPriority;
    }

    /** The number of a received message in its producer's stream; 0 for a message this provider did not receive. */
    public long originSequence() {
        return originSequence;
    }

    @Override
    public long getJMSTimestamp() {
        return timestamp;
    }

    @Override
    public void setJMSTimestamp(long value) {
        timestamp = value;
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationIdBytes != null) {
            return correlationIdBytes.clone();
        }
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void setJMSCorrelationIDAsBytes(byte[] value) {
        correlationIdBytes = value == null ? null : value.clone();
        correlationId = null;
    }

    /** The bytes as set, or null when the correlation id was set as a string (or not at all). No copy. */
    public byte[] correlationIdBytesOrNull() {
        return correlationIdBytes;
    }

    @Override
    public void setJMSCorrelationID(String value) {
        correlationId = value;
        correlationIdBytes = null;
    }

    @Override
    public String getJMSCorrelationID() {
        if (correlationId == null && correlationIdBytes != null) {
            return new String(correlationIdBytes, StandardCharsets.UTF_8);
        }
        return correlationId;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }

    @Override
    public void setJMSReplyTo(Destination value) {
        replyTo = value;
    }

    @Override
    public Destination getJMSDestination() {
        return destination;
    }

    @Override
    public void setJMSDestination(Destination value) {
        destination = value;
    }

    @Override
    public int getJMSDeliveryMode() {
        return deliveryMode;
    }

    @Override
    public void setJMSDeliveryMode(int value) throws JMSException {
        if (value != DeliveryMode.PERSISTENT && value != DeliveryMode.NON_PERSISTENT) {
            throw new JMSException("delivery mode must be PERSISTENT (2) or NON_PERSISTENT (1), got " + value);
        }
        deliveryMode = value;
    }

    @Override
    public boolean getJMSRedelivered() {
        return redelivered;
    }

    @Override
    public void setJMSRedelivered(boolean value) {
        redelivered = value;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public void setJMSType(String value) {
        type = value;
    }

    @Override
    public long getJMSExpiration() {
        return expiration;
    }

    @Override
    public void setJMSExpiration(long value) {
        expiration = value;
    }

    @Override
    public long getJMSDeliveryTime() {
        return deliveryTime;
    }

    @Override
    public void setJMSDeliveryTime(long value) {
        deliveryTime = value;
    }

    @Override
    public int getJMSPriority() {
        return priority;
    }

    @Override
    public void setJMSPriority(int value) throws JMSException {
        if (value < 0 || value > 9) {
            throw new JMSException("priority must be 0..9, got " + value);
        }
        priority = value;
    }

    /** JMSXDeliveryCount: 0 for a message not received, 1 on first delivery, +1 per redelivery. */
    public int deliveryCount() {
        return deliveryCount;
    }

    public void deliveryCount(int count) {
        deliveryCount = count;
    }

    /** Size of the encoded record of a received message, in bytes (what consumer queue limits count). */
    public int wireSize() {
        return wireSize;
    }

    public void wireSize(int bytes) {
        wireSize = bytes;
    }

    /** True when the message expired at {@code nowMillis}. */
    public boolean isExpired(long nowMillis) {
        return expiration != 0 && nowMillis >= expiration;
    }

    // ---------------------------------------------------------------- properties

    @Override
    public void clearProperties() {
        properties = null;
        propertiesReadOnly = false;
    }

    @Override
    public boolean propertyExists(String name) {
        return (deliveryCount > 0 && PropertyNames.JMSX_DELIVERY_COUNT.equals(name))
                || (properties != null && properties.containsKey(name));
    }

    @Override
    public boolean getBooleanProperty(String name) throws JMSException {
        return TypeConversion.toBoolean(getObjectProperty(name));
    }

    @Override
    public byte getByteProperty(String name) throws JMSException {
        return TypeConversion.toByte(getObjectProperty(name));
    }

    @Override
    public short getShortProperty(String name) throws JMSException {
        return TypeConversion.toShort(getObjectProperty(name));
    }

    @Override
    public int getIntProperty(String name) throws JMSException {
        return TypeConversion.toInt(getObjectProperty(name));
    }

    @Override
    public long getLongProperty(String name) throws JMSException {
        return TypeConversion.toLong(getObjectProperty(name));
    }

    @Override
    public float getFloatProperty(String name) throws JMSException {
        return TypeConversion.toFloat(getObjectProperty(name));
    }

    @Override
    public double getDoubleProperty(String name) throws JMSException {
        return TypeConversion.toDouble(getObjectProperty(name));
    }

    @Override
    public String getStringProperty(String name) throws JMSException {
        return TypeConversion.toString(getObjectProperty(name));
    }

    @Override
    public Object getObjectProperty(String name) {
        if (deliveryCount > 0 && PropertyNames.JMSX_DELIVERY_COUNT.equals(name)) {
            return deliveryCount;
        }
        return properties == null ? null : properties.get(name);
    }

    @Override
    public Enumeration<String> getPropertyNames() {
        Vector<String> names = new Vector<>();
        if (properties != null) {
            names.addAll(properties.keySet());
        }
        if (deliveryCount > 0) {
            names.add(PropertyNames.JMSX_DELIVERY_COUNT);
        }
        return names.elements();
    }

    /** The application's properties (not JMSXDeliveryCount), read-only view; empty when none. */
    public Map<String, Object> properties() {
        return properties == null ? Map.of() : Collections.unmodifiableMap(properties);
    }

    /** True when the message has application properties. Cheaper than properties().isEmpty(). */
    public boolean hasProperties() {
        return properties != null && !properties.isEmpty();
    }

    @Override
    public void setBooleanProperty(String name, boolean value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setByteProperty(String name, byte value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setShortProperty(String name, short value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setIntProperty(String name, int value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setLongProperty(String name, long value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setFloatProperty(String name, float value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setDoubleProperty(String name, double value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setStringProperty(String name, String value) throws JMSException {
        putProperty(name, value);
    }

    @Override
    public void setObjectProperty(String name, Object value) throws JMSException {
        if (value != null && !TypeConversion.isPropertyValue(value)) {
            throw new MessageFormatException("property '" + name + "': a " + value.getClass().getName()
                    + " is not a boxed primitive or String");
        }
        putProperty(name, value);
    }

    private void putProperty(String name, Object value) throws MessageNotWriteableException {
        if (propertiesReadOnly) {
            throw new MessageNotWriteableException("properties of a received message are read-only;"
                    + " call clearProperties() first");
        }
        PropertyNames.checkSettable(name);
        if (properties == null) {
            properties = new LinkedHashMap<>();
        }
        properties.put(name, value);
    }

    /** Sets a property as decoded from the wire, without the application's checks. */
    public void putDecodedProperty(String name, Object value) {
        if (properties == null) {
            properties = new LinkedHashMap<>();
        }
        properties.put(name, value);
    }

    // ---------------------------------------------------------------- acknowledgement, body, state

    @Override
    public void acknowledge() throws JMSException {
        Acknowledger a = acknowledger;
        if (a != null) {
            a.acknowledge();
        }
    }

    public void acknowledger(Acknowledger value) {
        acknowledger = value;
    }

    @Override
    public void clearBody() throws JMSException {
        bodyReadOnly = false;
        clearBodyContent();
    }

    /** Drops the body; subclasses replace (never mutate) shared containers, see {@link #copy()}. */
    protected void clearBodyContent() {
    }

    /** Makes the message read-only as received messages are: properties and body, body ready to read. */
    public void makeReadOnly() {
        propertiesReadOnly = true;
        bodyReadOnly = true;
        prepareBodyForReading();
    }

    /** Puts a body that is read sequentially (bytes, stream) at its start. */
    protected void prepareBodyForReading() {
    }

    protected void checkBodyWritable() throws MessageNotWriteableException {
        if (bodyReadOnly) {
            throw new MessageNotWriteableException("the body of a received message is read-only;"
                    + " call clearBody() first");
        }
    }

    @Override
    public <T> T getBody(Class<T> c) throws JMSException {
        if (!isBodyAssignableTo(c)) {
            throw new MessageFormatException("the body of a " + getClass().getSimpleName()
                    + " cannot be returned as " + c.getName());
        }
        return bodyAs(c);
    }

    /** The body as {@code c} (already checked with isBodyAssignableTo); null when there is no body. */
    protected <T> T bodyAs(Class<T> c) throws JMSException {
        return null;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public boolean isBodyAssignableTo(Class c) throws JMSException {
        return true;
    }

    /**
     * A copy for another consumer of the same received message: header and properties copied, the body shared
     * (bodies of received messages are never mutated in place, only replaced after clearBody()).
     */
    public Fjm2Message copy() {
        Fjm2Message copy = newInstance();
        copy.messageId = messageId;
        copy.idEpoch = idEpoch;
        copy.idProducer = idProducer;
        copy.idPriority = idPriority;
        copy.idSequence = idSequence;
        copy.originEpoch = originEpoch;
        copy.originProducer = originProducer;
        copy.originPriority = originPriority;
        copy.originSequence = originSequence;
        copy.originSentMillis = originSentMillis;
        copy.timestamp = timestamp;
        copy.correlationId = correlationId;
        copy.correlationIdBytes = correlationIdBytes;
        copy.replyTo = replyTo;
        copy.destination = destination;
        copy.deliveryMode = deliveryMode;
        copy.redelivered = redelivered;
        copy.type = type;
        copy.expiration = expiration;
        copy.deliveryTime = deliveryTime;
        copy.priority = priority;
        copy.deliveryCount = deliveryCount;
        copy.wireSize = wireSize;
        copy.properties = properties == null ? null : new LinkedHashMap<>(properties);
        copy.propertiesReadOnly = propertiesReadOnly;
        copy.bodyReadOnly = bodyReadOnly;
        copy.shareBodyWith(this);
        return copy;
    }

    /** Writes the body in its wire form (docs/wire-format.md) at the writer index. */
    public void writeBody(ByteBuf out) {
    }

    /** Reads the body from its wire form: everything up to the reader's limit. */
    public void readBody(WireReader in) throws MalformedWireException {
        if (in.remaining() != 0) {
            throw new MalformedWireException("a message without body has " + in.remaining() + " body bytes");
        }
    }

    /** A new empty message of the same class. */
    protected Fjm2Message newInstance() {
        return new Fjm2Message();
    }

    /** Shares the body of {@code source} (same class). */
    protected void shareBodyWith(Fjm2Message source) {
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[id=" + getJMSMessageID() + ", destination=" + destination
                + ", priority=" + priority + ", redelivered=" + redelivered + "]";
    }
}
