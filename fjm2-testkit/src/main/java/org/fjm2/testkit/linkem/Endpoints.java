package org.fjm2.testkit.linkem;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/** Parses the addresses users type: {@code HOST:PORT}, {@code :PORT}, interface names or addresses. */
public final class Endpoints {

    private Endpoints() {
    }

    /** {@code HOST:PORT} or {@code :PORT} (all addresses); the host may be a name or an IPv4 address. */
    public static InetSocketAddress parse(String hostAndPort) {
        if (hostAndPort == null) {
            throw new IllegalArgumentException("address missing: write HOST:PORT");
        }
        int colon = hostAndPort.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("'" + hostAndPort + "' is not HOST:PORT");
        }
        String host = hostAndPort.substring(0, colon);
        int port;
        try {
            port = Integer.parseInt(hostAndPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + hostAndPort + "': the port is not a number");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("'" + hostAndPort + "': the port must be 0-65535");
        }
        if (host.isEmpty() || host.equals("*")) {
            return new InetSocketAddress(port);
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + hostAndPort + "': unknown host " + host);
        }
    }

    /** A network interface by name ({@code lo}, {@code eth0}) or by one of its addresses. */
    public static NetworkInterface networkInterface(String nameOrAddress) {
        try {
            NetworkInterface byName = NetworkInterface.getByName(nameOrAddress);
            if (byName != null) {
                return byName;
            }
            NetworkInterface byAddress = NetworkInterface.getByInetAddress(InetAddress.getByName(nameOrAddress));
            if (byAddress != null) {
                return byAddress;
            }
        } catch (SocketException | UnknownHostException e) {
            // reported below
        }
        throw new IllegalArgumentException("no network interface named or addressed '" + nameOrAddress + "'");
    }

    /** {@code 127.0.0.1:9000}: the address without a host name lookup. */
    public static String format(InetSocketAddress address) {
        return address.getAddress() == null ? address.getHostString() + ":" + address.getPort()
                : address.getAddress().getHostAddress() + ":" + address.getPort();
    }
}
