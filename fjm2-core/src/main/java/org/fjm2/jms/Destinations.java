package org.fjm2.jms;

import jakarta.jms.Destination;
import jakarta.jms.InvalidDestinationException;
import jakarta.jms.JMSException;
import jakarta.jms.Queue;
import jakarta.jms.Topic;

/** Destinations as FJM2 takes them: its own topics, other providers' topics by name; queues refused. */
final class Destinations {

    private Destinations() {
    }

    static Fjm2Topic toTopic(Destination destination) throws JMSException {
        if (destination instanceof Fjm2Topic topic) {
            return topic;
        }
        if (destination instanceof Topic topic) {
            return new Fjm2Topic(topic.getTopicName());
        }
        if (destination instanceof Queue) {
            throw Unsupported.queueDestination();
        }
        throw new InvalidDestinationException("not a Topic: " + destination);
    }
}
