package org.fjm2.admin;

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
