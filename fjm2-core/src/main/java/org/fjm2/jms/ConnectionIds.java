package org.fjm2.jms;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Numbers unique within a connection: session numbers (for thread names), producer ids (part of every message's
 * header and id) and the message ids of transacted sends, which get their sequence numbers only at commit and so
 * need an id of their own at send().
 */
final class ConnectionIds {

    private final long epoch;
    private final AtomicInteger nextSession = new AtomicInteger();
    private final AtomicInteger nextProducer = new AtomicInteger();
    private final AtomicLong nextTransactedMessage = new AtomicLong();

    /** @param epoch the connection's epoch, part of the transacted message ids (unique across the network) */
    ConnectionIds(long epoch) {
        this.epoch = epoch;
    }

    int nextSessionId() {
        return nextSession.incrementAndGet();
    }

    ProducerState newProducerState() {
        return new ProducerState(nextProducer.incrementAndGet());
    }

    String newTransactedMessageId(ProducerState producer) {
        return "ID:" + Long.toHexString(epoch) + ":" + Integer.toHexString(producer.id) + ":t"
                + nextTransactedMessage.incrementAndGet();
    }
}
