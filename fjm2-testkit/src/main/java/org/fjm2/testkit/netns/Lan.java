package org.fjm2.testkit.netns;

/**
 * A LAN of a {@link TestNetwork}: a Linux bridge ({@code br0}) in a namespace of its own, IPv4 subnet
 * {@code 10.77.<index>.0/24}. Multicast snooping is off, so the bridge floods multicast like a plain hub.
 *
 * @param name      short name, e.g. "a"
 * @param namespace the namespace holding the bridge
 * @param index     third octet of the subnet
 */
public record Lan(String name, String namespace, int index) {

    /** The subnet, e.g. {@code 10.77.1.0/24}. */
    public String subnet() {
        return TestNetwork.SUBNET_BASE + "." + index + ".0/24";
    }

    /** The address of host number {@code octet} on this LAN, e.g. {@code 10.77.1.2}. */
    public String address(int octet) {
        return TestNetwork.SUBNET_BASE + "." + index + "." + octet;
    }
}
