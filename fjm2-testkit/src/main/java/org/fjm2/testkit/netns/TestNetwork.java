package org.fjm2.testkit.netns;

import java.io.File;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A test network of Linux network namespaces: hosts (one namespace each), LANs (a bridge in a namespace of its
 * own), veth pairs between them, IPv4 addresses and routes. Every namespace is named with this network's unique
 * prefix {@code f2t<pid>n<k>-}, and {@link #close()} (also run by a JVM shutdown hook) deletes them all;
 * namespaces left by a JVM that died are swept on the next {@link #create()}.
 *
 * <pre>{@code
 * NetNs.assumeAvailable();
 * try (TestNetwork net = TestNetwork.twoLansWithRouter()) {
 *     assertThat(net.host("a1").canReach(net.host("b1").address())).isTrue();
 *     JavaProcess receiver = net.host("b1").startJava(UdpProbe.class, "receive", "--port", "7001");
 *     ...
 * }
 * }</pre>
 */
public final class TestNetwork implements AutoCloseable {

    /** First two octets of every LAN's subnet: LAN {@code i} is {@code 10.77.i.0/24}. */
    public static final String SUBNET_BASE = "10.77";
    /** Last octet of a router's address on each LAN. */
    public static final int ROUTER_OCTET = 254;
    /** Heap of JVMs started in a namespace: set explicitly, a JVM there cannot read its cgroup limits. */
    public static final String DEFAULT_JAVA_HEAP = "-Xmx128m";
    /** Prefix of every namespace this class creates. */
    public static final String PREFIX_BASE = "f2t";

    private static final Logger log = LoggerFactory.getLogger(TestNetwork.class);
    private static final Pattern OUR_NAMESPACE = Pattern.compile("^" + PREFIX_BASE + "(\\d+)n\\d+-");
    private static final Pattern HOST_NAME = Pattern.compile("[a-z][a-z0-9]{0,7}");
    private static final AtomicInteger NETWORKS = new AtomicInteger();
    private static final Set<TestNetwork> OPEN = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean HOOK_INSTALLED = new AtomicBoolean();

    private final String prefix;
    private final List<String> namespaces = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    private final Map<String, Lan> lans = new LinkedHashMap<>();
    private final List<JavaProcess> processes = Collections.synchronizedList(new ArrayList<>());
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicInteger switchPorts = new AtomicInteger();

    private TestNetwork(String prefix) {
        this.prefix = prefix;
    }

    /** An empty network with a fresh prefix; add hosts and LANs to it. */
    public static TestNetwork create() {
        if (HOOK_INSTALLED.compareAndSet(false, true)) {
            sweepNamespacesOfDeadJvms();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> OPEN.forEach(TestNetwork::close), "test-network-teardown"));
        }
        TestNetwork network = new TestNetwork(PREFIX_BASE + ProcessHandle.current().pid() + "n" + NETWORKS.incrementAndGet() + "-");
        OPEN.add(network);
        return network;
    }

    /** {@code n} hosts h1..hn on one LAN (10.77.1.0/24), each with a multicast route on its interface. */
    public static TestNetwork lan(int n) {
        TestNetwork net = create();
        try {
            Lan lan = net.addLan("a", 1);
            for (int i = 1; i <= n; i++) {
                Host h = net.addHost("h" + i);
                net.connect(h, lan, i);
                net.multicastRoute(h, "eth0");
            }
            return net;
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /**
     * Two LANs joined by router "r": a1, a2 on 10.77.1.0/24 and b1, b2 on 10.77.2.0/24, the router at .254 on
     * each with IPv4 forwarding on; unicast routing only, so multicast stays in its LAN.
     */
    public static TestNetwork twoLansWithRouter() {
        return lansWithRouter(2, 2);
    }

    /** Like {@link #twoLansWithRouter()} with a third LAN: c1, c2 on 10.77.3.0/24. */
    public static TestNetwork threeLansWithRouter() {
        return lansWithRouter(3, 2);
    }

    /**
     * {@code lanCount} LANs named a, b, c... on 10.77.1.0/24, 10.77.2.0/24..., each with hosts {@code <lan>1}
     * to {@code <lan><hostsPerLan>} routed by default through router "r" (.254 on each LAN, forwarding on).
     */
    public static TestNetwork lansWithRouter(int lanCount, int hostsPerLan) {
        if (lanCount < 1 || lanCount > 26 || hostsPerLan < 1 || hostsPerLan >= ROUTER_OCTET) {
            throw new IllegalArgumentException("1-26 LANs of 1-253 hosts, not " + lanCount + " x " + hostsPerLan);
        }
        TestNetwork net = create();
        try {
            Host router = net.addHost("r");
            for (int l = 1; l <= lanCount; l++) {
                String lanName = String.valueOf((char) ('a' + l - 1));
                Lan lan = net.addLan(lanName, l);
                net.connect(router, lan, ROUTER_OCTET);
                for (int i = 1; i <= hostsPerLan; i++) {
                    Host h = net.addHost(lanName + i);
                    net.connect(h, lan, i);
                    net.defaultRoute(h, lan.address(ROUTER_OCTET));
                }
            }
            net.enableForwarding(router);
            return net;
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /** The prefix of this network's namespace names. */
    public String prefix() {
        return prefix;
    }

    /** Every namespace this network created and has not deleted yet. */
    public List<String> namespaces() {
        synchronized (namespaces) {
            return List.copyOf(namespaces);
        }
    }

    public Host host(String name) {
        Host h = hosts.get(name);
        if (h == null) {
            throw new IllegalArgumentException("no host " + name + " in this network; hosts are " + hosts.keySet());
        }
        return h;
    }

    public List<Host> hosts() {
        return List.copyOf(hosts.values());
    }

    /** The router of a {@link #lansWithRouter} topology. */
    public Host router() {
        return host("r");
    }

    public Lan lan(String name) {
        Lan lan = lans.get(name);
        if (lan == null) {
            throw new IllegalArgumentException("no LAN " + name + " in this network; LANs are " + lans.keySet());
        }
        return lan;
    }

    /** A new host: a namespace with its loopback up. Names are short: a lower-case letter and up to 7 more. */
    public Host addHost(String name) {
        if (!HOST_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("host name '" + name + "' must be a lower-case letter and up to 7 letters or digits");
        }
        if (hosts.containsKey(name)) {
            throw new IllegalArgumentException("host " + name + " exists already");
        }
        String ns = newNamespace(name);
        ip("-n", ns, "link", "set", "lo", "up");
        Host h = new Host(this, name, ns);
        hosts.put(name, h);
        return h;
    }

    /** A new LAN: a bridge with multicast snooping off in a namespace of its own, subnet 10.77.{@code index}.0/24. */
    public Lan addLan(String name, int index) {
        if (index < 1 || index > 254) {
            throw new IllegalArgumentException("LAN index must be 1-254, got " + index);
        }
        String ns = newNamespace("sw" + name);
        ip("-n", ns, "link", "set", "lo", "up");
        ip("-n", ns, "link", "add", "br0", "type", "bridge", "mcast_snooping", "0");
        ip("-n", ns, "link", "set", "br0", "up");
        Lan lan = new Lan(name, ns, index);
        lans.put(name, lan);
        return lan;
    }

    /**
     * Connects {@code host} to {@code lan} by a veth pair: {@code eth<k>} in the host, with address
     * 10.77.{@code index}.{@code octet}/24, and a port of the LAN's bridge. Returns the address.
     */
    public String connect(Host host, Lan lan, int octet) {
        String iface = host.nextInterfaceName();
        String port = "p" + switchPorts.incrementAndGet();
        String address = lan.address(octet);
        ip("link", "add", iface, "netns", host.namespace(), "type", "veth", "peer", "name", port, "netns", lan.namespace());
        ip("-n", lan.namespace(), "link", "set", port, "master", "br0", "up");
        ip("-n", host.namespace(), "addr", "add", address + "/24", "dev", iface);
        ip("-n", host.namespace(), "link", "set", iface, "up");
        host.addAddress(iface, address);
        return address;
    }

    public void defaultRoute(Host host, String via) {
        ip("-n", host.namespace(), "route", "add", "default", "via", via);
    }

    /** A route to {@code destination} (CIDR) through {@code via}. */
    public void route(Host host, String destination, String via) {
        ip("-n", host.namespace(), "route", "add", destination, "via", via);
    }

    /** A route for all multicast (224.0.0.0/4) out of {@code iface}, for hosts without a default route. */
    public void multicastRoute(Host host, String iface) {
        ip("-n", host.namespace(), "route", "add", "224.0.0.0/4", "dev", iface);
    }

    /** Turns IPv4 forwarding on in {@code host} (unicast only: nothing here routes multicast). */
    public void enableForwarding(Host host) {
        NetNs.exec(host.namespace(), Exec.DEFAULT_TIMEOUT, "sh", "-c", "echo 1 > /proc/sys/net/ipv4/ip_forward").orThrow();
    }

    /** Whether {@code address} answers from {@code from}; see {@link NetNs#canReach}. */
    public boolean canReach(Host from, String address) {
        return NetNs.canReach(from.namespace(), address);
    }

    /**
     * Starts {@code main} from the current test classpath in a JVM inside {@code host}
     * ({@code ip netns exec NS java -Xmx128m -cp <classpath> main args}); {@link #close()} ends it if the test
     * does not.
     */
    public JavaProcess startJava(Host host, Class<?> main, List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>(List.of("ip", "netns", "exec", host.namespace(), javaExecutable(),
                DEFAULT_JAVA_HEAP, "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true",
                org.fjm2.testkit.ChildJvm.QUIET_LOGBACK));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath(), main.getName()));
        command.addAll(List.of(args));
        try {
            Process p = new ProcessBuilder(command).start();
            p.getOutputStream().close();
            JavaProcess process = new JavaProcess(main.getSimpleName() + "@" + host.name(), p);
            processes.add(process);
            return process;
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + main.getName() + " in " + host.namespace() + ": " + e.getMessage(), e);
        }
    }

    /** Ends every process started here, then deletes every namespace. Idempotent; also run at JVM exit. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        synchronized (processes) {
            processes.forEach(JavaProcess::close);
        }
        List<String> toDelete = namespaces();
        for (int i = toDelete.size() - 1; i >= 0; i--) {
            String ns = toDelete.get(i);
            ExecResult del = Exec.run("ip", "netns", "del", ns);
            if (!del.ok()) {
                log.warn("cannot delete network namespace {}: {}", ns, del.stderr().strip());
            }
            namespaces.remove(ns);
        }
        OPEN.remove(this);
    }

    private String newNamespace(String name) {
        if (closed.get()) {
            throw new IllegalStateException("test network " + prefix + " is closed");
        }
        String ns = prefix + name;
        ip("netns", "add", ns);
        namespaces.add(ns);
        return ns;
    }

    private static void ip(String... args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Exec.run(Exec.DEFAULT_TIMEOUT, command).orThrow();
    }

    private static String javaExecutable() {
        return System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
    }

    /** The test classpath: surefire's own property where set (java.class.path may be a manifest-only jar). */
    static String classpath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    /** Deletes namespaces named by this class for a JVM that no longer runs (killed before its teardown). */
    private static void sweepNamespacesOfDeadJvms() {
        if (!NetNs.isAvailable()) {
            return;
        }
        for (String ns : NetNs.list()) {
            Matcher m = OUR_NAMESPACE.matcher(ns);
            if (m.find() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                log.info("deleting network namespace {} left by a JVM that is gone", ns);
                Exec.run("ip", "netns", "del", ns);
            }
        }
    }

    @Override
    public String toString() {
        return "TestNetwork " + prefix + " hosts " + hosts.values();
    }
}
