package org.fjm2.jms;

/**
 * The identity and sequence numbers of one producer (a MessageProducer or JMSProducer). Sequences are kept per
 * priority because a higher-priority batch may overtake lower ones at the sender: within one (producer,
 * priority) stream receivers see numbers 1, 2, 3... without gaps unless messages were lost. Sequence numbers
 * are only touched under the lock of that priority's batch.
 */
final class ProducerState {

    final int id;
    private final long[] lastSequence = new long[10];

    ProducerState(int id) {
        this.id = id;
    }

    long nextSequence(int priority) {
        return ++lastSequence[priority];
    }

    /** Gives back a number taken for a message that could not be encoded, so no false gap appears. */
    void undoSequence(int priority) {
        lastSequence[priority]--;
    }
}
