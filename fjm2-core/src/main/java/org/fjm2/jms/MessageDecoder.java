package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.message.Fjm2BytesMessage;
import org.fjm2.jms.message.Fjm2MapMessage;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.message.Fjm2ObjectMessage;
import org.fjm2.jms.message.Fjm2StreamMessage;
import org.fjm2.jms.message.Fjm2TextMessage;
import org.fjm2.jms.message.ObjectMessageAllowList;
import org.fjm2.jms.wire.MalformedWireException;
import org.fjm2.jms.wire.NameCache;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.TypedValueCodec;
import org.fjm2.jms.wire.WireReader;

import java.util.function.Function;

import static org.fjm2.jms.wire.MessageHeaderFlyweight.*;

/**
 * Turns one record into a received (read-only) message. Bounds-checked throughout: a malformed record throws
 * {@link MalformedWireException}, which the receive path counts. One instance per receiving thread (it reuses
 * its reader and flyweight).
 */
final class MessageDecoder {

    private final WireReader reader = new WireReader();
    private final NameCache propertyNames = new NameCache();
    private final MessageHeaderFlyweight header = new MessageHeaderFlyweight();
    private final ObjectMessageAllowList allowList;
    private final Function<String, Fjm2Topic> temporaryTopics;

    /**
     * @param temporaryTopics resolves a temporary topic name to this connection's own instance, or a remote one
     */
    MessageDecoder(ObjectMessageAllowList allowList, Function<String, Fjm2Topic> temporaryTopics) {
        this.allowList = allowList;
        this.temporaryTopics = temporaryTopics;
    }

    /** Decodes the record at {@code offset} whose framing (length) the caller has checked. */
    Fjm2Message decode(ByteBuf buf, int offset, int length, Fjm2Topic destination, long epoch)
            throws MalformedWireException {
        header.wrap(buf, offset);
        int kind = header.kind();
        int flags = header.flags();
        int priority = header.priority();
        if (kind > KIND_MAX) {
            throw new MalformedWireException("unknown body kind " + kind);
        }
        if (priority > 9) {
            throw new MalformedWireException("priority " + priority + " outside 0..9");
        }
        Fjm2Message m = newMessage(kind);
        reader.wrap(buf, header.topicOffset() + header.topicLength(), offset + length);
        if (reader.remaining() < 0) {
            throw new MalformedWireException("topic runs past the record");
        }
        try {
            m.setJMSPriority(priority);
            m.setJMSDeliveryMode((flags & FLAG_PERSISTENT) != 0
                    ? jakarta.jms.DeliveryMode.PERSISTENT : jakarta.jms.DeliveryMode.NON_PERSISTENT);
        } catch (jakarta.jms.JMSException e) {
            throw new MalformedWireException(e.getMessage());
        }
        int flags2 = header.flags2();
        m.origin(epoch, header.producerId(), priority, header.sequence());
        m.originSentMillis(header.timestamp());
        if ((flags & FLAG_NO_MESSAGE_ID) == 0 && (flags2 & FLAGS2_EXPLICIT_MESSAGE_ID) == 0) {
            m.assignMessageId(epoch, header.producerId(), priority, header.sequence());
        }
        m.setJMSTimestamp((flags & FLAG_NO_TIMESTAMP) != 0 ? 0 : header.timestamp());
        m.setJMSExpiration(header.expiration());
        long deliveryTime = header.deliveryTime();
        m.setJMSDeliveryTime(deliveryTime == 0 ? header.timestamp() : deliveryTime);
        m.setJMSDestination(destination);
        if ((flags2 & FLAGS2_EXPLICIT_MESSAGE_ID) != 0) {
            m.setJMSMessageID(reader.readShortString());
        }
        if ((flags & FLAG_HAS_CORRELATION_ID) != 0) {
            if ((flags & FLAG_CORRELATION_ID_BYTES) != 0) {
                m.setJMSCorrelationIDAsBytes(reader.readBytes(reader.readUnsignedShort()));
            } else {
                m.setJMSCorrelationID(reader.readShortString());
            }
        }
        int replyToKind = flags2 & FLAGS2_REPLY_TO_MASK;
        if (replyToKind == REPLY_TO_TOPIC) {
            m.setJMSReplyTo(new Fjm2Topic(nonEmpty(reader.readShortString())));
        } else if (replyToKind == REPLY_TO_TEMPORARY_TOPIC) {
            m.setJMSReplyTo(temporaryTopics.apply(nonEmpty(reader.readShortString())));
        } else if (replyToKind != REPLY_TO_NONE) {
            throw new MalformedWireException("unknown reply-to kind " + replyToKind);
        }
        if ((flags & FLAG_HAS_TYPE) != 0) {
            m.setJMSType(reader.readShortString());
        }
        if ((flags & FLAG_HAS_PROPERTIES) != 0) {
            int count = reader.readLength(3);
            for (int i = 0; i < count; i++) {
                m.putDecodedProperty(reader.readShortString(propertyNames), TypedValueCodec.read(reader));
            }
        }
        m.readBody(reader);
        if (m instanceof Fjm2ObjectMessage object) {
            object.allowList(allowList);
        }
        m.wireSize(length);
        m.deliveryCount(1);
        m.makeReadOnly();
        return m;
    }

    private static String nonEmpty(String name) throws MalformedWireException {
        if (name.isEmpty()) {
            throw new MalformedWireException("empty reply-to topic name");
        }
        return name;
    }

    private static Fjm2Message newMessage(int kind) {
        return switch (kind) {
            case KIND_TEXT -> new Fjm2TextMessage();
            case KIND_BYTES -> new Fjm2BytesMessage();
            case KIND_MAP -> new Fjm2MapMessage();
            case KIND_STREAM -> new Fjm2StreamMessage();
            case KIND_OBJECT -> new Fjm2ObjectMessage();
            default -> new Fjm2Message();
        };
    }
}
