package org.fjm2.store;

import java.util.concurrent.atomic.LongAdder;

/** What a store did, for its log lines and tests. Written by the thread that does each thing. */
public final class StoreCounters {

    /** PERSISTENT messages on disk (fsync'd) since start. */
    public final LongAdder messagesStored = new LongAdder();
    /** Bytes of those. */
    public final LongAdder bytesStored = new LongAdder();
    /** Messages seen that were NON_PERSISTENT, or of topics the store does not keep. */
    public final LongAdder messagesNotKept = new LongAdder();
    /** Messages seen twice (repairs, tunnels). */
    public final LongAdder duplicates = new LongAdder();
    /** Batches or records that were not FJM2 batches or records. */
    public final LongAdder malformed = new LongAdder();
    /** Objects the transport reported lost: their messages are not in the store and are never acknowledged. */
    public final LongAdder objectsLost = new LongAdder();
    /** Acknowledgement records multicast. */
    public final LongAdder acknowledgementsSent = new LongAdder();
    /** Journal writes that failed (disk full, I/O error): never acknowledged. */
    public final LongAdder writeFailures = new LongAdder();
    /** Messages dropped by retention. */
    public final LongAdder messagesExpired = new LongAdder();
    /** Messages this store missed (it was down) and took from a peer store's answer to its catch-up request. */
    public final LongAdder messagesCaughtUp = new LongAdder();
    /** Peer stores' catch-up requests not answered: they came within a second of the last one answered. */
    public final LongAdder catchUpRequestsRefused = new LongAdder();
}
