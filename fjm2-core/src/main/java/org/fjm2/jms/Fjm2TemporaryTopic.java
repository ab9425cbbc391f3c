package org.fjm2.jms;

import jakarta.jms.JMSException;
import jakarta.jms.TemporaryTopic;

/**
 * A topic that lives as long as the connection that created it. Its name holds the creator's node id, epoch
 * and a random part, so it is unique across the network. Only the creating connection may consume from it;
 * anyone who learns it (usually through JMSReplyTo) may publish to it.
 */
public final class Fjm2TemporaryTopic extends Fjm2Topic implements TemporaryTopic {

    private static final long serialVersionUID = 1L;
    /** Every temporary topic name starts with this. */
    public static final String PREFIX = "fjm2.temp.";

    /** The creating connection, or null for one learned from a message (owned by another connection). */
    private final transient Fjm2Connection owner;

    Fjm2TemporaryTopic(String name, Fjm2Connection owner) {
        super(name);
        this.owner = owner;
    }

    /** A temporary topic named in a received message: owned by some other connection. */
    public static Fjm2TemporaryTopic remote(String name) {
        return new Fjm2TemporaryTopic(name, null);
    }

    private volatile boolean deleted;

    boolean isDeleted() {
        return deleted;
    }

    void markDeleted() {
        deleted = true;
    }

    Fjm2Connection owner() {
        return owner;
    }

    @Override
    public boolean isTemporary() {
        return true;
    }

    @Override
    public void delete() throws JMSException {
        if (owner == null) {
            throw new jakarta.jms.IllegalStateException("temporary topic " + name()
                    + " belongs to another connection; only its creator can delete it");
        }
        owner.deleteTemporaryTopic(this);
    }
}
