package org.fjm2.jms;

import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidDestinationException;

import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The temporary topics a connection created. Their names ({@code fjm2.temp.<node>.<epoch>.<random>.<n>}) are unique
 * across the network without asking anyone; a received message that names one of them (JMSReplyTo) gets the
 * connection's own instance back, any other temporary topic a stand-in owned by someone else. Only the creator may
 * consume from one, and it cannot be deleted while it has consumers.
 */
final class TemporaryTopics {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String namePrefix;
    private final SubscriptionTable subscriptions;
    private final Map<String, Fjm2TemporaryTopic> byName = new ConcurrentHashMap<>();
    private final AtomicLong created = new AtomicLong();

    /**
     * @param node  the connection's node id as users see it
     * @param epoch the connection's epoch (different for every connection of the node)
     */
    TemporaryTopics(String node, long epoch, SubscriptionTable subscriptions) {
        this.namePrefix = Fjm2TemporaryTopic.PREFIX + node + "." + Long.toHexString(epoch) + ".";
        this.subscriptions = subscriptions;
    }

    Fjm2TemporaryTopic create(Fjm2Connection owner) {
        String name = namePrefix + Long.toHexString(RANDOM.nextLong()) + "." + created.incrementAndGet();
        Fjm2TemporaryTopic topic = new Fjm2TemporaryTopic(name, owner);
        byName.put(name, topic);
        return topic;
    }

    /** The connection's own topic of this name, or a stand-in for another connection's. */
    Fjm2Topic resolve(String name) {
        Fjm2TemporaryTopic own = byName.get(name);
        return own != null ? own : Fjm2TemporaryTopic.remote(name);
    }

    void delete(Fjm2TemporaryTopic topic) throws IllegalStateException {
        if (subscriptions.hasConsumers(topic.name())) {
            throw new IllegalStateException("temporary topic " + topic.name() + " still has consumers");
        }
        byName.remove(topic.name());
        topic.markDeleted();
    }

    /** The connection closed: every topic it created is gone. */
    void deleteAll() {
        for (Fjm2TemporaryTopic t : byName.values()) {
            t.markDeleted();
        }
        byName.clear();
    }

    /** The specification: only the connection that created a temporary topic may consume from it. */
    static void checkConsumable(Fjm2Topic topic, Fjm2Connection consumer) throws InvalidDestinationException {
        if (topic instanceof Fjm2TemporaryTopic temp) {
            if (temp.owner() != consumer) {
                throw new InvalidDestinationException("temporary topic " + temp.name()
                        + " belongs to another connection; only its creator may consume from it");
            }
            if (temp.isDeleted()) {
                throw new InvalidDestinationException("temporary topic " + temp.name() + " was deleted");
            }
        }
    }
}
