package org.fjm2.admin;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * What a node may call itself and where it may say it is: a bounded safe id, a valid host name or IP literal,
 * a port in 1..65535. Checked before anything reaches the registry, so that bad input stores nothing.
 */
public final class NodeAddressRules {

    /** Longest node id. */
    public static final int MAX_ID_LENGTH = 64;
    /** Longest host name (RFC 1035). */
    public static final int MAX_HOST_LENGTH = 253;

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:-]{0," + (MAX_ID_LENGTH - 1) + "}");
    private static final Pattern HOST_LABEL = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
    private static final Pattern IPV4 = Pattern.compile(
            "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)(\\.(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)){3}");
    private static final Pattern DOTTED_NUMBERS = Pattern.compile("[0-9.]+");

    private NodeAddressRules() {
    }

    /** Why {@code id} is unacceptable, or {@code null} when it is fine. */
    public static String checkId(String id) {
        if (id == null || !ID.matcher(id).matches()) {
            return "id must be 1.." + MAX_ID_LENGTH
                    + " characters of letters, digits and . _ : - starting with a letter or digit";
        }
        return null;
    }

    /** Why {@code host} is unacceptable, or {@code null} when it is a host name, IPv4 or IPv6 literal. */
    public static String checkHost(String host) {
        if (host == null || host.isEmpty() || host.length() > MAX_HOST_LENGTH) {
            return "host must be a host name or IP literal of 1.." + MAX_HOST_LENGTH + " characters";
        }
        if (host.indexOf(':') >= 0) {
            return isIpv6Literal(host) ? null : "host is not a valid IPv6 literal";
        }
        if (DOTTED_NUMBERS.matcher(host).matches()) {
            return IPV4.matcher(host).matches() ? null : "host is not a valid IPv4 literal";
        }
        String name = host.endsWith(".") ? host.substring(0, host.length() - 1) : host;
        for (String label : name.split("\\.", -1)) {
            if (!HOST_LABEL.matcher(label).matches()) {
                return "host is not a valid host name";
            }
        }
        return null;
    }

    /**
     * Why peers must not be sent to {@code host} (already accepted by {@link #checkHost}), or {@code null}: a
     * registry entry is where every daemon streams the group's traffic, so an entry naming loopback (each daemon's
     * own host), a multicast group, the broadcast address or the unspecified address would turn the daemons into
     * a traffic cannon aimed at something that never asked for it. Host names are checked only for the names that
     * mean loopback by definition ({@code localhost}, {@code *.localhost}, RFC 6761); what a name resolves to is
     * checked by the advertiser and by the daemons, which resolve it.
     *
     * @param allowLoopback accept loopback (daemons and admin on one machine)
     */
    public static String checkDestination(String host, boolean allowLoopback) {
        if (host.indexOf(':') < 0 && !DOTTED_NUMBERS.matcher(host).matches()) {
            String name = host.toLowerCase(Locale.ROOT);
            name = name.endsWith(".") ? name.substring(0, name.length() - 1) : name;
            boolean loopbackName = name.equals("localhost") || name.endsWith(".localhost");
            return loopbackName && !allowLoopback ? refusal(host, "a loopback name") : null;
        }
        InetAddress address;
        try {
            address = InetAddress.getByName(host); // a literal: parsed, never looked up
        } catch (UnknownHostException e) {
            return "host is not a valid IP literal";
        }
        return checkDestination(address, host, allowLoopback);
    }

    /** As {@link #checkDestination(String, boolean)}, for a resolved address. */
    public static String checkDestination(InetAddress address, boolean allowLoopback) {
        return checkDestination(address, address.getHostAddress(), allowLoopback);
    }

    private static String checkDestination(InetAddress address, String shown, boolean allowLoopback) {
        InetAddress a = embeddedIpv4(address);
        if (a.isAnyLocalAddress() || a instanceof Inet4Address && (a.getAddress()[0] & 0xff) == 0) {
            return refusal(shown, "the unspecified address (\"this host\", 0.0.0.0/8 or ::)");
        }
        if (a.isMulticastAddress()) {
            return refusal(shown, "a multicast address");
        }
        if (a instanceof Inet4Address && isAllOnes(a.getAddress())) {
            return refusal(shown, "the broadcast address");
        }
        if (a.isLoopbackAddress() && !allowLoopback) {
            return refusal(shown, "a loopback address");
        }
        return null;
    }

    private static String refusal(String host, String what) {
        return "host " + host + " is " + what + ": peers are never sent there";
    }

    /** The IPv4 address inside an IPv4-mapped or IPv4-compatible IPv6 address, else the address itself. */
    private static InetAddress embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address v6)) {
            return address;
        }
        byte[] b = v6.getAddress();
        for (int i = 0; i < 10; i++) {
            if (b[i] != 0) {
                return address;
            }
        }
        boolean mapped = b[10] == (byte) 0xff && b[11] == (byte) 0xff;
        boolean compatible = b[10] == 0 && b[11] == 0 && (b[12] != 0 || b[13] != 0); // not :: nor ::1
        if (!mapped && !compatible) {
            return address;
        }
        try {
            return InetAddress.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean isAllOnes(byte[] bytes) {
        for (byte b : bytes) {
            if (b != (byte) 0xff) {
                return false;
            }
        }
        return true;
    }

    /** Why {@code port} is unacceptable, or {@code null} when it is 1..65535. */
    public static String checkPort(long port) {
        return port >= 1 && port <= 65535 ? null : "port must be 1..65535";
    }

    /** RFC 4291 text form: eight groups, one {@code ::}, or an embedded IPv4 tail; no zone id, no brackets. */
    static boolean isIpv6Literal(String s) {
        if (s.length() > 45) {
            return false;
        }
        int doubleColon = s.indexOf("::");
        if (doubleColon >= 0 && s.indexOf("::", doubleColon + 1) >= 0) {
            return false;
        }
        String body = s;
        int groupsNeeded = 8;
        int lastColon = s.lastIndexOf(':');
        String tail = s.substring(lastColon + 1);
        if (tail.indexOf('.') >= 0) {
            if (!IPV4.matcher(tail).matches()) {
                return false;
            }
            body = s.substring(0, lastColon + 1) + "0";
            groupsNeeded = 7;
        }
        String[] halves = doubleColon >= 0
                ? new String[] {body.substring(0, doubleColon), body.substring(doubleColon + 2)}
                : new String[] {body};
        int groups = 0;
        for (String half : halves) {
            if (half.isEmpty()) {
                continue;
            }
            for (String group : half.split(":", -1)) {
                if (group.isEmpty() || group.length() > 4 || !group.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
                    return false;
                }
                groups++;
            }
        }
        return doubleColon >= 0 ? groups < groupsNeeded : groups == groupsNeeded;
    }
}
