package org.fjm2.tunnel;

import java.util.Map;

/**
 * FJM2D's counters over JMX ({@code org.fjm2.tunnel:type=Tunnel,node=<node id>}): the daemon's totals by name
 * (see {@link org.fjm2.tunnel.relay.RelayCounters.Counter}) and one line per peer.
 */
public interface TunnelMXBean {

    String getNodeId();

    /**
     * Every daemon counter, lower-case name to value, and the kernel's drops at the daemon's full socket buffers
     * ({@code kernel_drops_lan}, {@code kernel_drops_wan}; -1 where unknown).
     */
    Map<String, Long> getCounters();

    /** One line per peer: name, address, packets and bytes in and out, queue drops, repairs served. */
    String[] getPeers();

    long getRepairCacheBytes();

    int getRepairCacheEntries();

    /** The status line the daemon logs periodically. */
    String getStatusLine();

    /** Authentic frames that claimed this daemon's own node id: another daemon has the same id (0: none). */
    long getNodeIdClashes();

    /** The address of the last daemon that used this daemon's node id, or null. */
    String getNodeIdClashWith();

    /** Refused tunnel datagrams by reason (the non-zero ones), e.g. {@code wrong_destination 2, unknown_peer 1}. */
    String getRefusals();
}
