package org.fjm2.jms;

import java.util.Enumeration;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;

/**
 * Reads every header, property and body value of a delivered message through the JMS API, as an application would:
 * a decoder that accepted a record must have produced a message whose every getter works. The getters' documented
 * JMSExceptions (a value of the wrong type, the end of a stream, a class the allow list refuses) are expected.
 */
final class DeliveredMessageReader {

    private DeliveredMessageReader() {
    }

    /** Reads the message; returns a checksum of what it read (so nothing is optimised away). */
    static long readAll(Message m) {
        long sum = 0;
        try {
            sum += hash(m.getJMSMessageID()) + m.getJMSTimestamp() + hash(m.getJMSCorrelationID())
                    + m.getJMSDeliveryMode() + m.getJMSExpiration() + m.getJMSDeliveryTime() + m.getJMSPriority()
                    + hash(m.getJMSType()) + hash(String.valueOf(m.getJMSReplyTo()))
                    + hash(String.valueOf(m.getJMSDestination())) + (m.getJMSRedelivered() ? 1 : 0);
            byte[] correlation = m.getJMSCorrelationIDAsBytes();
            sum += correlation == null ? 0 : correlation.length;
            for (Enumeration<?> names = m.getPropertyNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                sum += hash(String.valueOf(m.getObjectProperty(name))) + hash(m.getStringProperty(name));
            }
            sum += body(m);
        } catch (JMSException expected) {
            sum++;
        }
        return sum;
    }

    private static long body(Message m) throws JMSException {
        long sum = 0;
        if (m instanceof TextMessage text) {
            sum += hash(text.getText());
        } else if (m instanceof BytesMessage bytes) {
            byte[] all = new byte[(int) bytes.getBodyLength()];
            sum += bytes.readBytes(all);
        } else if (m instanceof MapMessage map) {
            for (Enumeration<?> names = map.getMapNames(); names.hasMoreElements(); ) {
                sum += hash(String.valueOf(map.getObject((String) names.nextElement())));
            }
        } else if (m instanceof StreamMessage stream) {
            try {
                for (int i = 0; i < 1_000_000; i++) {
                    sum += hash(String.valueOf(stream.readObject()));
                }
            } catch (MessageEOFException end) {
                sum++;
            }
        } else if (m instanceof ObjectMessage object) {
            sum += hash(String.valueOf(object.getObject()));
        }
        return sum;
    }

    private static int hash(String s) {
        return s == null ? 0 : s.hashCode();
    }
}
