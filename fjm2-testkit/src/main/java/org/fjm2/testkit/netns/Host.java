package org.fjm2.testkit.netns;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A host of a {@link TestNetwork}: a network namespace with a loopback and one veth interface per LAN it is on. */
public final class Host {

    private final TestNetwork network;
    private final String name;
    private final String namespace;
    private final Map<String, String> addresses = new LinkedHashMap<>();

    Host(TestNetwork network, String name, String namespace) {
        this.network = network;
        this.name = name;
        this.namespace = namespace;
    }

    public String name() {
        return name;
    }

    /** The namespace's name, for {@code ip netns exec}. */
    public String namespace() {
        return namespace;
    }

    /** The IPv4 address of its first interface. */
    public String address() {
        if (addresses.isEmpty()) {
            throw new IllegalStateException("host " + name + " is on no LAN");
        }
        return addresses.values().iterator().next();
    }

    /** The IPv4 address of interface {@code iface} (e.g. "eth1"). */
    public String address(String iface) {
        String a = addresses.get(iface);
        if (a == null) {
            throw new IllegalArgumentException("host " + name + " has no interface " + iface + "; it has " + addresses.keySet());
        }
        return a;
    }

    /** Interface name to IPv4 address, in the order they were added. */
    public Map<String, String> addresses() {
        return Collections.unmodifiableMap(addresses);
    }

    String nextInterfaceName() {
        return "eth" + addresses.size();
    }

    void addAddress(String iface, String address) {
        addresses.put(iface, address);
    }

    /** Runs a command inside this host's namespace. */
    public ExecResult exec(String... command) {
        return NetNs.exec(namespace, Exec.DEFAULT_TIMEOUT, command);
    }

    /** Whether {@code address} answers from this host (ICMP ping, or a TCP probe where ping is not installed). */
    public boolean canReach(String address) {
        return network.canReach(this, address);
    }

    /** Starts {@code main} of the current classpath in a JVM inside this host. */
    public JavaProcess startJava(Class<?> main, String... args) {
        return network.startJava(this, main, List.of(), args);
    }

    @Override
    public String toString() {
        return name + addresses.values();
    }
}
