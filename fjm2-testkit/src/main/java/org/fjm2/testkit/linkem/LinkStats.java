package org.fjm2.testkit.linkem;

/**
 * A snapshot of an emulator's counters.
 *
 * @param mode       "udp", "mcast" or "tcp"
 * @param forward    client (or side A) towards target (or side B)
 * @param reverse    the other way
 * @param ignored    datagrams deliberately not relayed: the bridge's own re-emissions heard back through multicast
 *                   loopback, or datagrams from senders over the client limit
 * @param sendErrors socket writes that failed (e.g. ICMP port unreachable from a target that is not listening)
 * @param kernelDrops datagrams the kernel dropped at the emulator's receiving sockets because their buffers were
 *                   full (they never reached the counters above), as of the last once-a-second check; -1 where
 *                   this cannot be read (not Linux, or the NIO transport)
 * @param flows      client flows (UDP) or connections (TCP) open at the time
 */
public record LinkStats(String mode, DirectionStats forward, DirectionStats reverse, long ignored, long sendErrors,
                        long kernelDrops, int flows) {

    /** One line with both directions, e.g. for a periodic status log. */
    public String statusLine() {
        StringBuilder sb = new StringBuilder(mode).append(" | ").append(forward.statusLine())
                .append(" | ").append(reverse.statusLine());
        if (flows > 0) {
            sb.append(" | ").append(mode.equals("tcp") ? "connections " : "clients ").append(flows);
        }
        if (ignored > 0) {
            sb.append(" | ignored ").append(ignored);
        }
        if (kernelDrops > 0) {
            sb.append(" | kernel drops ").append(kernelDrops);
        }
        if (sendErrors > 0) {
            sb.append(" | send errors ").append(sendErrors);
        }
        return sb.toString();
    }
}
