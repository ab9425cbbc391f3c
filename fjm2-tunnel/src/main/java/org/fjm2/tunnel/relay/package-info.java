/**
 * Forwarding between the LAN and the peers, on one thread: {@link org.fjm2.tunnel.relay.Relay} (loop and duplicate
 * protection with {@link org.fjm2.tunnel.relay.RecentPacketFilter}, feedback routing towards each sender's side),
 * per-peer pacing ({@link org.fjm2.tunnel.relay.WanPacer}) and counters.
 */
package org.fjm2.tunnel.relay;
