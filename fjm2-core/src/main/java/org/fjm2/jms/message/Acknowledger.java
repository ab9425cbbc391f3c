package org.fjm2.jms.message;

import jakarta.jms.JMSException;

/** What {@code Message.acknowledge()} calls: the receiving session, which knows its acknowledgement mode. */
@FunctionalInterface
public interface Acknowledger {
    void acknowledge() throws JMSException;
}
