package org.fjm2.jms;

import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;

/** The clear refusals for features FJM2 does not offer (yet), so nothing degrades silently. */
final class Unsupported {

    private Unsupported() {
    }

    static JMSException queues(String method) {
        return new JMSException(method + ": FJM2 implements the publish/subscribe domain only; point-to-point"
                + " (queues) is out of scope. Use a Topic.", "FJM2_NO_QUEUES");
    }

    static InvalidDestinationException queueDestination() {
        return new InvalidDestinationException("FJM2 implements the publish/subscribe domain only; queues are not"
                + " supported. Use a Topic.", "FJM2_NO_QUEUES");
    }

    static JMSException applicationServerFacility(String method) {
        return new JMSException(method + " (an application server facility) is not supported by FJM2",
                "FJM2_NO_ASF");
    }
}
