package org.fjm2.jms;

import jakarta.jms.IllegalStateException;
import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.InvalidDestinationRuntimeException;
import jakarta.jms.InvalidSelectorException;
import jakarta.jms.InvalidSelectorRuntimeException;
import jakarta.jms.JMSException;
import jakarta.jms.JMSRuntimeException;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.JMSSecurityRuntimeException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.MessageNotWriteableException;
import jakarta.jms.MessageNotWriteableRuntimeException;
import jakarta.jms.ResourceAllocationException;
import jakarta.jms.ResourceAllocationRuntimeException;
import jakarta.jms.TransactionInProgressException;
import jakarta.jms.TransactionInProgressRuntimeException;
import jakarta.jms.TransactionRolledBackException;
import jakarta.jms.TransactionRolledBackRuntimeException;

/** The simplified API's unchecked twins of the checked JMS exceptions, as the specification pairs them. */
final class RuntimeExceptions {

    private RuntimeExceptions() {
    }

    /** A JMS call that may throw the checked exception. */
    @FunctionalInterface
    interface JmsCall<T> {
        T call() throws JMSException;
    }

    /** A JMS action without a result. */
    @FunctionalInterface
    interface JmsAction {
        void run() throws JMSException;
    }

    /** Runs the call, converting a JMSException into its unchecked twin. */
    static <T> T unchecked(JmsCall<T> call) {
        try {
            return call.call();
        } catch (JMSException e) {
            throw convert(e);
        }
    }

    static void unchecked(JmsAction action) {
        try {
            action.run();
        } catch (JMSException e) {
            throw convert(e);
        }
    }

    static JMSRuntimeException convert(JMSException e) {
        String m = e.getMessage();
        String code = e.getErrorCode();
        if (e instanceof IllegalStateException) {
            return new IllegalStateRuntimeException(m, code, e);
        } else if (e instanceof InvalidDestinationException) {
            return new InvalidDestinationRuntimeException(m, code, e);
        } else if (e instanceof InvalidSelectorException) {
            return new InvalidSelectorRuntimeException(m, code, e);
        } else if (e instanceof InvalidClientIDException) {
            return new InvalidClientIDRuntimeException(m, code, e);
        } else if (e instanceof MessageFormatException) {
            return new MessageFormatRuntimeException(m, code, e);
        } else if (e instanceof MessageNotWriteableException) {
            return new MessageNotWriteableRuntimeException(m, code, e);
        } else if (e instanceof JMSSecurityException) {
            return new JMSSecurityRuntimeException(m, code, e);
        } else if (e instanceof ResourceAllocationException) {
            return new ResourceAllocationRuntimeException(m, code, e);
        } else if (e instanceof TransactionInProgressException) {
            return new TransactionInProgressRuntimeException(m, code, e);
        } else if (e instanceof TransactionRolledBackException) {
            return new TransactionRolledBackRuntimeException(m, code, e);
        }
        return new JMSRuntimeException(m, code, e);
    }
}
