package org.fjm2.jms;

import jakarta.jms.DeliveryMode;
import jakarta.jms.InvalidSelectorException;
import org.apache.activemq.artemis.api.core.SimpleString;
import org.apache.activemq.artemis.selector.filter.BooleanExpression;
import org.apache.activemq.artemis.selector.filter.FilterException;
import org.apache.activemq.artemis.selector.filter.Filterable;
import org.apache.activemq.artemis.selector.impl.SelectorParser;
import org.fjm2.jms.message.Fjm2Message;

/**
 * A JMS message selector, parsed and evaluated by Apache ActiveMQ Artemis's selector library. Header fields
 * a selector may name (JMSDeliveryMode, JMSPriority, JMSMessageID, JMSTimestamp, JMSCorrelationID, JMSType)
 * are read from the header, everything else from the properties.
 */
final class SelectorFilter {

    private final String text;
    private final BooleanExpression expression;

    private SelectorFilter(String text, BooleanExpression expression) {
        this.text = text;
        this.expression = expression;
    }

    /** Null for a null or blank selector (everything matches). */
    static SelectorFilter parse(String selector) throws InvalidSelectorException {
        if (selector == null || selector.isBlank()) {
            return null;
        }
        try {
            return new SelectorFilter(selector, SelectorParser.parse(selector));
        } catch (FilterException | RuntimeException e) {
            InvalidSelectorException invalid = new InvalidSelectorException("invalid message selector '" + selector
                    + "': " + e.getMessage());
            invalid.initCause(e);
            throw invalid;
        }
    }

    String text() {
        return text;
    }

    /** True when the message matches; an evaluation error (e.g. a type mismatch) is a non-match. */
    boolean matches(Fjm2Message message) {
        try {
            return expression.matches(new MessageView(message));
        } catch (FilterException | RuntimeException e) {
            return false;
        }
    }

    /** Shows a message to the selector library. */
    private record MessageView(Fjm2Message message) implements Filterable {
        @Override
        public <T> T getBodyAs(Class<T> type) {
            return null;
        }

        @Override
        public Object getProperty(SimpleString name) {
            String key = name.toString();
            return switch (key) {
                case "JMSDeliveryMode" -> message.getJMSDeliveryMode() == DeliveryMode.PERSISTENT
                        ? "PERSISTENT" : "NON_PERSISTENT";
                case "JMSPriority" -> message.getJMSPriority();
                case "JMSMessageID" -> message.getJMSMessageID();
                case "JMSTimestamp" -> message.getJMSTimestamp();
                case "JMSCorrelationID" -> message.getJMSCorrelationID();
                case "JMSType" -> message.getJMSType();
                default -> message.getObjectProperty(key);
            };
        }

        @Override
        public Object getLocalConnectionId() {
            return null;
        }
    }
}
