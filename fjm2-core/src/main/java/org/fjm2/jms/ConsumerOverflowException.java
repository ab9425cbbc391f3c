package org.fjm2.jms;

import jakarta.jms.JMSException;

/**
 * A consumer fell behind and its bounded queue dropped messages ({@code consumerQueueMessages},
 * {@code consumerQueueBytes}, {@code consumerOverflow}). Reported to the ExceptionListener at most once per
 * second per consumer, with the number dropped since the last report; the consumer keeps working.
 */
public final class ConsumerOverflowException extends JMSException {
    private static final long serialVersionUID = 1L;
    public static final String ERROR_CODE = "FJM2_CONSUMER_OVERFLOW";

    private final String topic;
    private final long droppedMessages;

    public ConsumerOverflowException(String topic, String consumer, long droppedMessages, OverflowPolicy policy) {
        super(droppedMessages + " message(s) dropped by slow consumer " + consumer + " on topic '" + topic
                + "' (queue full, consumerOverflow=" + policy.parameterValue() + ")", ERROR_CODE);
        this.topic = topic;
        this.droppedMessages = droppedMessages;
    }

    public String topic() {
        return topic;
    }

    public long droppedMessages() {
        return droppedMessages;
    }
}
