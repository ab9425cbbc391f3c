package org.fjm2.tunnel.admin;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where a daemon never streams the group's traffic, whatever the admin's list says: FJM2-Admin refuses such
 * addresses as literals, but a host name may resolve to one at any time, and a list may come from an older or
 * compromised admin. Loopback is allowed only when the admin itself is reached over loopback (admin and daemons on
 * one machine, a lab): from a remote admin it would aim every daemon at a port of its own host.
 */
final class PeerDestinations {

    private PeerDestinations() {
    }

    /** Why {@code address} must not be a peer, or {@code null} when it may. */
    static String refusal(InetAddress address, boolean loopbackAllowed) {
        InetAddress a = unwrapIpv4(address);
        byte[] b = a.getAddress();
        if (a.isAnyLocalAddress() || a instanceof Inet4Address && b[0] == 0) {
            return "the unspecified address";
        }
        if (a.isMulticastAddress()) {
            return "a multicast address";
        }
        if (a instanceof Inet4Address && (b[0] & b[1] & b[2] & b[3]) == (byte) 0xff) {
            return "the broadcast address";
        }
        if (a.isLoopbackAddress() && !loopbackAllowed) {
            return "a loopback address (allowed only when FJM2-Admin itself is on loopback)";
        }
        return null;
    }

    /** The IPv4 address an IPv4-mapped ({@code ::ffff:a.b.c.d}) or -compatible ({@code ::a.b.c.d}) address carries. */
    private static InetAddress unwrapIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return address;
        }
        byte[] b = address.getAddress();
        long high = 0;
        for (int i = 0; i < 10; i++) {
            high |= b[i];
        }
        int marker = (b[10] & 0xff) << 8 | b[11] & 0xff;
        boolean carriesIpv4 = high == 0 && (marker == 0xffff || marker == 0 && (b[12] | b[13]) != 0);
        if (!carriesIpv4) {
            return address;
        }
        try {
            return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }
}
