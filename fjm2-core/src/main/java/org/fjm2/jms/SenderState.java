package org.fjm2.jms;

/**
 * What the receive path remembers of one sending connection, keyed by its node id: the connection's epoch, whether
 * this receiver heard its streams from their start, transport losses not yet accounted for by a sequence gap, and
 * its producer streams. Owned by the receive thread; kept within bounds by {@link SenderStates}.
 */
final class SenderState extends LruTable.Entry {

    /** The sender's producer streams, keyed by {@link SenderStates#streamKey}. */
    final LruTable<ProducerStream> streams = new LruTable<>();
    /** Whether a batch arrived (else only losses reported by the transport are known). */
    boolean hasEpoch;
    long epoch;
    /** The sending connection's start (ms since 1970) from its epoch; -1 when it does not say. */
    long startMillis = -1;
    /**
     * Whether this receiver listened when each stream of the sender began, so that a stream's first number above 1
     * reveals lost messages; false for a late join, and from the moment a stream of the sender was forgotten (it
     * comes back with a number above 1 that reveals nothing).
     */
    boolean heardFromStart;
    /** Objects the transport reported lost whose messages no sequence gap has revealed yet. */
    long pendingLostObjects;
    String lossReason;

    int nodeId() {
        return (int) key();
    }
}
