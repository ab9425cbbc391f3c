package org.fjm2.tunnel;

import java.util.Map;

/**
 * FJM2D's counters over JMX ({@code org.fjm2.tunnel:type=Tunnel,node=<node id>}): the daemon's totals by name
 * (see {@link org.fjm2.tunnel.relay.RelayCounters.Counter}) and one line per peer.
 */
public interface TunnelMXBean {

    String getNodeId();

    /** Every daemon counter, lower-case name to value. */
    Map<String, Long> getCounters();

    /** One line per peer: name, address, packets and bytes in and out, queue drops, repairs served. */
    String[] getPeers();

    long getRepairCacheBytes();

    int getRepairCacheEntries();

    /** The status line the daemon logs periodically. */
    String getStatusLine();
}
