package org.fjm2.jms;

import jakarta.jms.JMSException;

/**
 * Messages that will never arrive: the transport could not repair them (the sender no longer had them, or it
 * vanished). Reported to the connection's ExceptionListener; the connection stays usable. The count is exact
 * when it comes from a gap in a producer's sequence numbers ({@link #lostMessages()} >= 1); it is -1 when only
 * whole transport objects are known lost and no later message from that sender revealed how many messages
 * they held.
 */
public final class MessagesLostException extends JMSException {
    private static final long serialVersionUID = 1L;
    /** The error code of every MessagesLostException. */
    public static final String ERROR_CODE = "FJM2_MESSAGES_LOST";

    private final String topic;
    private final int senderNodeId;
    private final int producerId;
    private final int priority;
    private final long lostMessages;

    public MessagesLostException(String topic, int senderNodeId, int producerId, int priority, long lostMessages,
                                 String reason) {
        super(describe(topic, senderNodeId, producerId, priority, lostMessages, reason), ERROR_CODE);
        this.topic = topic;
        this.senderNodeId = senderNodeId;
        this.producerId = producerId;
        this.priority = priority;
        this.lostMessages = lostMessages;
    }

    private static String describe(String topic, int node, int producer, int priority, long lost, String reason) {
        String count = lost < 0 ? "an unknown number of messages" : lost + (lost == 1 ? " message" : " messages");
        return count + " lost for good from sender node " + Integer.toUnsignedString(node)
                + (producer == 0 ? "" : ", producer " + Integer.toHexString(producer) + ", priority " + priority)
                + (topic == null ? "" : ", topic '" + topic + "'")
                + (reason == null ? "" : ": " + reason);
    }

    /** The topic of the message that revealed the gap (a producer without destination may mix topics). */
    public String topic() {
        return topic;
    }

    public int senderNodeId() {
        return senderNodeId;
    }

    /** The producer (within the sender's connection), 0 when unknown. */
    public int producerId() {
        return producerId;
    }

    public int priority() {
        return priority;
    }

    /** Messages lost, exact; -1 when unknown. */
    public long lostMessages() {
        return lostMessages;
    }
}
