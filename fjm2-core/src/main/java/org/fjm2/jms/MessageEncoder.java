package org.fjm2.jms;

import io.netty.buffer.ByteBuf;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.wire.MessageHeaderFlyweight;
import org.fjm2.jms.wire.TypedValueCodec;
import org.fjm2.jms.wire.WireWriter;

import java.util.Map;

import static org.fjm2.jms.wire.MessageHeaderFlyweight.*;

/**
 * Writes one message record (docs/wire-format.md) straight into the destination buffer, usually the pooled
 * batch: no intermediate arrays, no per-message garbage for a text or bytes message without properties.
 */
final class MessageEncoder {

    private MessageEncoder() {
    }

    /**
     * Appends the record at the writer index. The header fields (priority, delivery mode, expiration, delivery
     * time, timestamp) are taken from the message, which the producer has already stamped.
     *
     * @param sendTime          the send time in ms: the wire timestamp even when the producer disabled JMSTimestamp
     * @param deliveryTime      when a delivery delay is set, the time receivers may deliver; else 0
     * @param explicitMessageId the message id as text (transacted sends), or null to derive it from the sequence
     * @return the offset where the record starts
     * @throws IndexOutOfBoundsException when the record does not fit the buffer's max capacity (writer index
     *                                   is then restored by the caller)
     */
    static int encode(ByteBuf out, Fjm2Message m, Fjm2Topic destination, Fjm2Topic replyTo, int producerId,
                      long sequence, long sendTime, long deliveryTime, boolean noMessageId, boolean noTimestamp,
                      String explicitMessageId) {
        int start = out.writerIndex();
        String correlationId = m.getJMSCorrelationID();
        byte[] correlationBytes = m.correlationIdBytesOrNull();
        String type = m.getJMSType();
        boolean hasProperties = m.hasProperties();
        int flags = (m.getJMSDeliveryMode() == jakarta.jms.DeliveryMode.PERSISTENT ? FLAG_PERSISTENT : 0)
                | (noMessageId ? FLAG_NO_MESSAGE_ID : 0)
                | (noTimestamp ? FLAG_NO_TIMESTAMP : 0)
                | (destination.isTemporary() ? FLAG_TEMPORARY_DESTINATION : 0)
                | (correlationBytes != null ? FLAG_HAS_CORRELATION_ID | FLAG_CORRELATION_ID_BYTES
                        : correlationId != null ? FLAG_HAS_CORRELATION_ID : 0)
                | (type != null ? FLAG_HAS_TYPE : 0)
                | (hasProperties ? FLAG_HAS_PROPERTIES : 0);
        int flags2 = (replyTo == null ? REPLY_TO_NONE
                : replyTo.isTemporary() ? REPLY_TO_TEMPORARY_TOPIC : REPLY_TO_TOPIC)
                | (explicitMessageId != null && !noMessageId ? FLAGS2_EXPLICIT_MESSAGE_ID : 0);
        out.writeInt(0) // record length, patched below
                .writeByte(m.bodyKind())
                .writeByte(flags)
                .writeByte(m.getJMSPriority())
                .writeByte(flags2)
                .writeInt(producerId)
                .writeLong(sequence)
                .writeLong(sendTime)
                .writeLong(m.getJMSExpiration())
                .writeLong(deliveryTime);
        WireWriter.writeShortString(out, destination.utf8());
        if ((flags2 & FLAGS2_EXPLICIT_MESSAGE_ID) != 0) {
            WireWriter.writeShortString(out, explicitMessageId);
        }
        if (correlationBytes != null) {
            if (correlationBytes.length > WireWriter.MAX_SHORT_STRING_BYTES) {
                throw new IllegalArgumentException("JMSCorrelationID longer than 65535 bytes");
            }
            WireWriter.writeShortString(out, correlationBytes);
        } else if (correlationId != null) {
            WireWriter.writeShortString(out, correlationId);
        }
        if (replyTo != null) {
            WireWriter.writeShortString(out, replyTo.utf8());
        }
        if (type != null) {
            WireWriter.writeShortString(out, type);
        }
        if (hasProperties) {
            Map<String, Object> properties = m.properties();
            out.writeInt(properties.size());
            for (Map.Entry<String, Object> e : properties.entrySet()) {
                WireWriter.writeShortString(out, e.getKey());
                TypedValueCodec.write(out, e.getValue());
            }
        }
        m.writeBody(out);
        out.setInt(start + MessageHeaderFlyweight.RECORD_LENGTH_OFFSET, out.writerIndex() - start);
        return start;
    }
}
