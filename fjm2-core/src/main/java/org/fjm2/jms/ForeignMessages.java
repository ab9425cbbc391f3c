package org.fjm2.jms;

import jakarta.jms.BytesMessage;
import jakarta.jms.JMSException;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import org.fjm2.jms.message.Fjm2BytesMessage;
import org.fjm2.jms.message.Fjm2MapMessage;
import org.fjm2.jms.message.Fjm2Message;
import org.fjm2.jms.message.Fjm2ObjectMessage;
import org.fjm2.jms.message.Fjm2StreamMessage;
import org.fjm2.jms.message.Fjm2TextMessage;

import java.util.Enumeration;

/**
 * Sends messages of other providers, as the specification requires: copies one into the matching FJM2 type
 * before encoding, and copies the header fields set by send() back into it afterwards.
 */
final class ForeignMessages {

    private ForeignMessages() {
    }

    static Fjm2Message convert(Message foreign) throws JMSException {
        Fjm2Message m;
        if (foreign instanceof TextMessage text) {
            m = new Fjm2TextMessage(text.getText());
        } else if (foreign instanceof BytesMessage bytes) {
            Fjm2BytesMessage copy = new Fjm2BytesMessage();
            bytes.reset();
            byte[] chunk = new byte[4096];
            for (int n; (n = bytes.readBytes(chunk)) > 0; ) {
                copy.writeBytes(chunk, 0, n);
            }
            m = copy;
        } else if (foreign instanceof MapMessage map) {
            Fjm2MapMessage copy = new Fjm2MapMessage();
            for (Enumeration<?> names = map.getMapNames(); names.hasMoreElements(); ) {
                String name = (String) names.nextElement();
                copy.setObject(name, map.getObject(name));
            }
            m = copy;
        } else if (foreign instanceof StreamMessage stream) {
            Fjm2StreamMessage copy = new Fjm2StreamMessage();
            stream.reset();
            try {
                while (true) {
                    copy.writeObject(stream.readObject());
                }
            } catch (MessageEOFException end) {
                // all copied
            }
            m = copy;
        } else if (foreign instanceof ObjectMessage object) {
            Fjm2ObjectMessage copy = new Fjm2ObjectMessage();
            copy.setObject(object.getObject());
            m = copy;
        } else {
            m = new Fjm2Message();
        }
        m.setJMSCorrelationID(foreign.getJMSCorrelationID());
        m.setJMSReplyTo(foreign.getJMSReplyTo());
        m.setJMSType(foreign.getJMSType());
        for (Enumeration<?> names = foreign.getPropertyNames(); names.hasMoreElements(); ) {
            String name = (String) names.nextElement();
            if (!name.startsWith("JMSX") || name.equals("JMSXGroupID") || name.equals("JMSXGroupSeq")) {
                m.setObjectProperty(name, foreign.getObjectProperty(name));
            }
        }
        return m;
    }

    /** After send(): the header fields the provider set, copied back into the application's message. */
    static void copySendHeaders(Fjm2Message sent, Message foreign) throws JMSException {
        foreign.setJMSDestination(sent.getJMSDestination());
        foreign.setJMSDeliveryMode(sent.getJMSDeliveryMode());
        foreign.setJMSPriority(sent.getJMSPriority());
        foreign.setJMSExpiration(sent.getJMSExpiration());
        foreign.setJMSTimestamp(sent.getJMSTimestamp());
        foreign.setJMSDeliveryTime(sent.getJMSDeliveryTime());
        foreign.setJMSMessageID(sent.getJMSMessageID());
    }
}
