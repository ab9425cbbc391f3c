package org.fjm2.testkit.linkem;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.util.Collections;

/**
 * One side of a {@linkplain LinkEmulator#multicastBridge multicast bridge}: an IPv4 group and port, joined on a
 * network interface.
 *
 * @param group            the multicast group and UDP port
 * @param networkInterface the interface to join on and send from; it needs an IPv4 address
 */
public record MulticastSide(InetSocketAddress group, NetworkInterface networkInterface) {

    public MulticastSide {
        if (group == null || group.isUnresolved() || !(group.getAddress() instanceof Inet4Address)
                || !group.getAddress().isMulticastAddress()) {
            throw new IllegalArgumentException("not an IPv4 multicast group: " + group);
        }
        if (networkInterface == null) {
            throw new IllegalArgumentException("a multicast side needs a network interface");
        }
    }

    /**
     * Parses {@code GROUP:PORT} and an interface name or IPv4 address, e.g. {@code of("239.1.1.1:7001", "lo")}.
     */
    public static MulticastSide of(String groupAndPort, String interfaceNameOrAddress) {
        InetSocketAddress group = Endpoints.parse(groupAndPort);
        return new MulticastSide(group, Endpoints.networkInterface(interfaceNameOrAddress));
    }

    /** The interface's first IPv4 address, from which the bridge sends into this side. */
    public InetAddress interfaceAddress() {
        for (InetAddress a : Collections.list(networkInterface.getInetAddresses())) {
            if (a instanceof Inet4Address) {
                return a;
            }
        }
        throw new IllegalArgumentException("interface " + networkInterface.getName() + " has no IPv4 address");
    }

    @Override
    public String toString() {
        return group.getAddress().getHostAddress() + ":" + group.getPort() + "@" + networkInterface.getName();
    }
}
