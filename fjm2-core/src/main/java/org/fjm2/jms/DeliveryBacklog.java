package org.fjm2.jms;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Whether any consumer of a connection is backed up: its queue passed a quarter of its bound and has not yet drained
 * to an eighth. While one is, the connection's transport holds back its watermark acknowledgements, so that senders
 * tracking it keep their data and block their publishers once their cache is full (for up to their maximum hold
 * time) instead of overflowing the consumer. The queue bound and its overflow policy stay the last resort.
 */
final class DeliveryBacklog {

    private final AtomicInteger backedUpQueues = new AtomicInteger();

    /** A queue passed its high-water mark. */
    void enter() {
        backedUpQueues.incrementAndGet();
    }

    /** A queue drained to its low-water mark, or closed while backed up. */
    void leave() {
        backedUpQueues.decrementAndGet();
    }

    /** Read by the transport whenever an acknowledgement is due. */
    boolean isBackedUp() {
        return backedUpQueues.get() > 0;
    }
}
