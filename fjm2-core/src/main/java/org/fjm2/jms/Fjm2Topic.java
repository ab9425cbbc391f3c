package org.fjm2.jms;

import jakarta.jms.JMSException;
import jakarta.jms.Topic;

import javax.naming.NamingException;
import javax.naming.Reference;
import javax.naming.Referenceable;
import javax.naming.StringRefAddr;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A topic: just a name, matched exactly by receivers. All topics of a connection share its transport session;
 * receivers filter by name. The UTF-8 form of the name is computed once, because every send writes it.
 */
public class Fjm2Topic implements Topic, Serializable, Referenceable {

    private static final long serialVersionUID = 1L;
    /** Longest topic name in UTF-8 bytes (a uint16 on the wire). */
    public static final int MAX_NAME_BYTES = 0xFFFF;

    private final String name;
    private transient byte[] utf8;

    public Fjm2Topic(String name) {
        this.name = Objects.requireNonNull(name, "topic name");
        if (name.isEmpty()) {
            throw new IllegalArgumentException("topic name must not be empty");
        }
        if (utf8().length > MAX_NAME_BYTES) {
            throw new IllegalArgumentException("topic name longer than " + MAX_NAME_BYTES + " UTF-8 bytes");
        }
    }

    @Override
    public String getTopicName() throws JMSException {
        return name;
    }

    /** The name, without the checked exception of {@link #getTopicName()}. */
    public String name() {
        return name;
    }

    /** The name in UTF-8 (shared array: do not modify). */
    public byte[] utf8() {
        byte[] bytes = utf8;
        if (bytes == null) {
            bytes = name.getBytes(StandardCharsets.UTF_8);
            utf8 = bytes;
        }
        return bytes;
    }

    /** True for a {@link Fjm2TemporaryTopic}. */
    public boolean isTemporary() {
        return false;
    }

    @Override
    public Reference getReference() throws NamingException {
        Reference ref = new Reference(Fjm2Topic.class.getName(), "org.fjm2.jms.jndi.Fjm2ObjectFactory", null);
        ref.add(new StringRefAddr("name", name));
        return ref;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Fjm2Topic t && t.isTemporary() == isTemporary() && t.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
