/**
 * FJM2D, the WAN tunnel: {@link org.fjm2.tunnel.TunnelDaemon} (sockets, timers, status, JMX, admin client) configured
 * by {@link org.fjm2.tunnel.TunnelConfig}. The forwarding logic is in {@code relay}, hop-by-hop repair in
 * {@code repair}, the authenticated frames between daemons in {@code security}, the {@code fjm2 tunnel} command in
 * {@code tool}, the FJM2-Admin client in {@code admin}. See fjm2-tunnel/README.md.
 */
package org.fjm2.tunnel;
