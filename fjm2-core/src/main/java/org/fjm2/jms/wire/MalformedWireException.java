package org.fjm2.jms.wire;

/**
 * Input from the network that does not follow the FJM2-JMS wire format. Thrown inside the decoder only, caught
 * by the receive path which counts and drops the batch or message; never reaches an application. It carries no
 * stack trace because a hostile peer can make it frequent.
 */
public final class MalformedWireException extends Exception {
    private static final long serialVersionUID = 1L;

    public MalformedWireException(String reason) {
        super(reason, null, false, false);
    }
}
