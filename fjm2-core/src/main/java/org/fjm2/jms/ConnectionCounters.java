package org.fjm2.jms;

import java.util.concurrent.atomic.LongAdder;

/** The JMS layer's counters of one connection (the transport keeps its own); monotonic, thread-safe. */
final class ConnectionCounters {
    /** Messages accepted by send() (transacted: at commit). */
    final LongAdder messagesSent = new LongAdder();
    /** Encoded record bytes of those messages. */
    final LongAdder messageBytesSent = new LongAdder();
    /** Transport objects (batches) handed to the transport. */
    final LongAdder batchesSent = new LongAdder();
    /** Messages whose batch the transport refused (send timeout) after send() had returned. */
    final LongAdder messagesDroppedAtSend = new LongAdder();
    /** Messages decoded from the network for at least one local consumer. */
    final LongAdder messagesReceived = new LongAdder();
    /** Messages handed to the application (receive or onMessage), redeliveries included. */
    final LongAdder messagesDelivered = new LongAdder();
    /** Messages missing from producers' sequences (exact count from gaps). */
    final LongAdder messagesLost = new LongAdder();
    /** Duplicates discarded (sequence already seen). */
    final LongAdder duplicatesDiscarded = new LongAdder();
    /** Objects that did not parse as a batch. */
    final LongAdder malformedBatches = new LongAdder();
    /** Records inside a batch that did not parse as a message. */
    final LongAdder malformedMessages = new LongAdder();
    /**
     * Records dropped because their sequence number jumped further than the plausible bound from the last one
     * (forged or corrupted, or the first after an enormous loss: see ProducerStream).
     */
    final LongAdder implausibleSequences = new LongAdder();
    /** Senders and producer streams forgotten to keep the receive path's state within its caps (not expiry). */
    final LongAdder stateEvictions = new LongAdder();
    /** Messages not delivered because they expired. */
    final LongAdder messagesExpired = new LongAdder();
    /** Messages dropped by full consumer queues. */
    final LongAdder consumerOverflowDrops = new LongAdder();
    /** Messages dropped after maxRedeliveries listener failures. */
    final LongAdder redeliveryDrops = new LongAdder();
}
