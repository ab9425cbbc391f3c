package org.fjm2.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.DeliveryMode;
import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSProducer;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.TextMessage;
import org.fjm2.jms.message.PropertyNames;
import org.fjm2.jms.message.TypeConversion;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The simplified API's producer: holds delivery options and message properties, applies them to every message
 * it sends. Like a MessageProducer it has its own id and sequence numbers.
 */
final class Fjm2JMSProducer implements JMSProducer {

    private final Fjm2JMSContext context;
    private final ProducerState state;
    private final Map<String, Object> properties = new LinkedHashMap<>();
    private boolean disableMessageId;
    private boolean disableTimestamp;
    private int deliveryMode = DeliveryMode.PERSISTENT;
    private int priority = Message.DEFAULT_PRIORITY;
    private long timeToLive = Message.DEFAULT_TIME_TO_LIVE;
    private long deliveryDelay = Message.DEFAULT_DELIVERY_DELAY;
    private CompletionListener completionListener;
    private String correlationId;
    private byte[] correlationIdBytes;
    private String type;
    private Destination replyTo;

    Fjm2JMSProducer(Fjm2JMSContext context, ProducerState state) {
        this.context = context;
        this.state = state;
    }

    // ------------------------------------------------------------------ send

    @Override
    public JMSProducer send(Destination destination, Message message) {
        if (message == null) {
            throw new MessageFormatRuntimeException("message must not be null");
        }
        try {
            if (destination == null) {
                throw new InvalidDestinationRuntimeException("destination must not be null");
            }
            Fjm2Session session = context.session();
            Fjm2Topic topic = Destinations.toTopic(destination);
            for (Map.Entry<String, Object> p : properties.entrySet()) {
                message.setObjectProperty(p.getKey(), p.getValue());
            }
            if (correlationIdBytes != null) {
                message.setJMSCorrelationIDAsBytes(correlationIdBytes);
            } else if (correlationId != null) {
                message.setJMSCorrelationID(correlationId);
            }
            if (type != null) {
                message.setJMSType(type);
            }
            if (replyTo != null) {
                message.setJMSReplyTo(replyTo);
            }
            int mode = deliveryMode;
            int prio = priority;
            long ttl = timeToLive;
            long delay = deliveryDelay;
            boolean noId = disableMessageId;
            boolean noTimestamp = disableTimestamp;
            if (completionListener == null) {
                session.send(state, topic, message, mode, prio, ttl, delay, noId, noTimestamp);
            } else {
                session.sendAsync(message, completionListener,
                        () -> session.sendWithoutWaiting(state, topic, message, mode, prio, ttl, delay, noId,
                                noTimestamp));
            }
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
        return this;
    }

    @Override
    public JMSProducer send(Destination destination, String body) {
        TextMessage m = context.createTextMessage(body);
        return send(destination, m);
    }

    @Override
    public JMSProducer send(Destination destination, Map<String, Object> body) {
        MapMessage m = context.createMapMessage();
        try {
            if (body != null) {
                for (Map.Entry<String, Object> e : body.entrySet()) {
                    m.setObject(e.getKey(), e.getValue());
                }
            }
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
        return send(destination, m);
    }

    @Override
    public JMSProducer send(Destination destination, byte[] body) {
        BytesMessage m = context.createBytesMessage();
        try {
            if (body != null) {
                m.writeBytes(body);
            }
        } catch (JMSException e) {
            throw RuntimeExceptions.convert(e);
        }
        return send(destination, m);
    }

    @Override
    public JMSProducer send(Destination destination, Serializable body) {
        ObjectMessage m = context.createObjectMessage(body);
        return send(destination, m);
    }

    // ------------------------------------------------------------------ options

    @Override
    public JMSProducer setDisableMessageID(boolean value) {
        disableMessageId = value;
        return this;
    }

    @Override
    public boolean getDisableMessageID() {
        return disableMessageId;
    }

    @Override
    public JMSProducer setDisableMessageTimestamp(boolean value) {
        disableTimestamp = value;
        return this;
    }

    @Override
    public boolean getDisableMessageTimestamp() {
        return disableTimestamp;
    }

    @Override
    public JMSProducer setDeliveryMode(int mode) {
        if (mode != DeliveryMode.PERSISTENT && mode != DeliveryMode.NON_PERSISTENT) {
            throw new JMSRuntimeException("delivery mode must be PERSISTENT or NON_PERSISTENT, got " + mode);
        }
        deliveryMode = mode;
        return this;
    }

    @Override
    public int getDeliveryMode() {
        return deliveryMode;
    }

    @Override
    public JMSProducer setPriority(int value) {
        if (value < 0 || value > 9) {
            throw new JMSRuntimeException("priority must be 0..9, got " + value);
        }
        priority = value;
        return this;
    }

    @Override
    public int getPriority() {
        return priority;
    }

    @Override
    public JMSProducer setTimeToLive(long value) {
        timeToLive = value;
        return this;
    }

    @Override
    public long getTimeToLive() {
        return timeToLive;
    }

    @Override
    public JMSProducer setDeliveryDelay(long value) {
        deliveryDelay = value;
        return this;
    }

    @Override
    public long getDeliveryDelay() {
        return deliveryDelay;
    }

    @Override
    public JMSProducer setAsync(CompletionListener listener) {
        completionListener = listener;
        return this;
    }

    @Override
    public CompletionListener getAsync() {
        return completionListener;
    }

    // ------------------------------------------------------------------ properties

    private JMSProducer put(String name, Object value) {
        PropertyNames.checkSettable(name);
        properties.put(name, value);
        return this;
    }

    @Override
    public JMSProducer setProperty(String name, boolean value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, byte value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, short value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, int value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, long value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, float value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, double value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, String value) {
        return put(name, value);
    }

    @Override
    public JMSProducer setProperty(String name, Object value) {
        if (value != null && !TypeConversion.isPropertyValue(value)) {
            throw new MessageFormatRuntimeException("property '" + name + "': a " + value.getClass().getName()
                    + " is not a boxed primitive or String");
        }
        return put(name, value);
    }

    @Override
    public JMSProducer clearProperties() {
        properties.clear();
        return this;
    }

    @Override
    public boolean propertyExists(String name) {
        return properties.containsKey(name);
    }

    private interface Read<T> {
        T apply(Object value) throws MessageFormatException;
    }

    private <T> T read(String name, Read<T> conversion) {
        try {
            return conversion.apply(properties.get(name));
        } catch (MessageFormatException e) {
            throw new MessageFormatRuntimeException(e.getMessage(), e.getErrorCode(), e);
        }
    }

    @Override
    public boolean getBooleanProperty(String name) {
        return read(name, TypeConversion::toBoolean);
    }

    @Override
    public byte getByteProperty(String name) {
        return read(name, TypeConversion::toByte);
    }

    @Override
    public short getShortProperty(String name) {
        return read(name, TypeConversion::toShort);
    }

    @Override
    public int getIntProperty(String name) {
        return read(name, TypeConversion::toInt);
    }

    @Override
    public long getLongProperty(String name) {
        return read(name, TypeConversion::toLong);
    }

    @Override
    public float getFloatProperty(String name) {
        return read(name, TypeConversion::toFloat);
    }

    @Override
    public double getDoubleProperty(String name) {
        return read(name, TypeConversion::toDouble);
    }

    @Override
    public String getStringProperty(String name) {
        return read(name, TypeConversion::toString);
    }

    @Override
    public Object getObjectProperty(String name) {
        return properties.get(name);
    }

    @Override
    public Set<String> getPropertyNames() {
        return Collections.unmodifiableSet(new java.util.LinkedHashSet<>(properties.keySet()));
    }

    // ------------------------------------------------------------------ header fields

    @Override
    public JMSProducer setJMSCorrelationIDAsBytes(byte[] value) {
        correlationIdBytes = value == null ? null : value.clone();
        correlationId = null;
        return this;
    }

    @Override
    public byte[] getJMSCorrelationIDAsBytes() {
        if (correlationIdBytes != null) {
            return correlationIdBytes.clone();
        }
        return correlationId == null ? null : correlationId.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public JMSProducer setJMSCorrelationID(String value) {
        correlationId = value;
        correlationIdBytes = null;
        return this;
    }

    @Override
    public String getJMSCorrelationID() {
        return correlationIdBytes != null ? new String(correlationIdBytes, StandardCharsets.UTF_8) : correlationId;
    }

    @Override
    public JMSProducer setJMSType(String value) {
        type = value;
        return this;
    }

    @Override
    public String getJMSType() {
        return type;
    }

    @Override
    public JMSProducer setJMSReplyTo(Destination value) {
        replyTo = value;
        return this;
    }

    @Override
    public Destination getJMSReplyTo() {
        return replyTo;
    }
}
