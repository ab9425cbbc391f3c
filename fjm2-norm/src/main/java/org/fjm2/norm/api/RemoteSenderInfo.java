package org.fjm2.norm.api;

import java.net.InetSocketAddress;

/** What listeners learn about a remote sender. */
public interface RemoteSenderInfo {

    /** The sender's NORM source_id. */
    int nodeId();

    /** The instance_id of its current run (a restarted sender has a new one). */
    int instanceId();

    /** Where its packets come from (for logs, and unicast feedback). */
    InetSocketAddress address();
}
