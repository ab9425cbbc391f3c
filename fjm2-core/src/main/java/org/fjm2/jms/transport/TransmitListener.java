package org.fjm2.jms.transport;

/**
 * The sending side's events of an {@link ObjectTransport}, apart from what it receives: a batcher needs to know when
 * the transmit queue drained, a receive path does not. Called on the transport's own thread (NORM: its event loop;
 * inmem: the transmit thread), which sends and receives nothing while the call runs.
 */
@FunctionalInterface
public interface TransmitListener {

    /**
     * The transmit queue just drained ({@code pendingObjects()} became 0): a batcher may send its open batch now.
     * Must return at once and never wait (no lock held by a sending thread, no {@code send}): hand real work to
     * another thread.
     */
    void onTransmitIdle();
}
