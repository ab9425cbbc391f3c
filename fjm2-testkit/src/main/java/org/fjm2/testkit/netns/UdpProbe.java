package org.fjm2.testkit.netns;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import org.fjm2.testkit.linkem.Endpoints;
import org.fjm2.util.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * A tiny UDP sender and receiver for multi-host tests, run in a namespace with
 * {@link TestNetwork#startJava}. Its output is one line per event, made to be awaited:
 * {@code READY <local>}, {@code RECEIVED <text> FROM <address>}, {@code SENT <n>}, {@code DONE <n>}.
 */
@Command(name = "udp-probe", mixinStandardHelpOptions = true,
        description = "Send or receive test datagrams (unicast or multicast), printing one line per event.",
        subcommands = {UdpProbe.Receive.class, UdpProbe.Send.class})
public final class UdpProbe implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new UdpProbe()).execute(args));
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "say 'receive' or 'send'");
    }

    /** {@code receive}: prints READY, then RECEIVED for each datagram, then DONE when the count or time is up. */
    @Command(name = "receive", mixinStandardHelpOptions = true, description = "Receive datagrams on a port (and a group).")
    static final class Receive implements Callable<Integer> {
        @Option(names = "--port", required = true, description = "UDP port to listen on (all addresses).")
        int port;

        @Option(names = "--group", description = "Multicast group to join as well.")
        String group;

        @Option(names = "--interface", defaultValue = "eth0", description = "Interface to join on (default: ${DEFAULT-VALUE}).")
        String networkInterface;

        @Option(names = "--count", defaultValue = "2147483647", description = "Stop after this many datagrams.")
        int count;

        @Option(names = "--timeout", defaultValue = "30s", description = "Stop after this long (default: ${DEFAULT-VALUE}).")
        String timeout;

        @Override
        public Integer call() throws IOException {
            long deadline = System.nanoTime() + Quantities.duration("duration", timeout).toNanos();
            try (MulticastSocket socket = new MulticastSocket(port)) {
                if (group != null) {
                    NetworkInterface nif = Endpoints.networkInterface(networkInterface);
                    socket.joinGroup(new InetSocketAddress(InetAddress.getByName(group), port), nif);
                }
                System.out.println("READY " + socket.getLocalSocketAddress());
                byte[] buffer = new byte[65_536];
                int received = 0;
                while (received < count) {
                    long left = (deadline - System.nanoTime()) / 1_000_000;
                    if (left <= 0) {
                        break;
                    }
                    socket.setSoTimeout((int) Math.min(left, Integer.MAX_VALUE));
                    DatagramPacket p = new DatagramPacket(buffer, buffer.length);
                    try {
                        socket.receive(p);
                    } catch (SocketTimeoutException e) {
                        break;
                    }
                    received++;
                    String text = new String(p.getData(), 0, p.getLength(), StandardCharsets.UTF_8);
                    System.out.println("RECEIVED " + text + " FROM " + Endpoints.format((InetSocketAddress) p.getSocketAddress()));
                }
                System.out.println("DONE " + received);
                return 0;
            }
        }
    }

    /** {@code send}: sends {@code count} datagrams to each destination, then prints SENT. */
    @Command(name = "send", mixinStandardHelpOptions = true, description = "Send numbered datagrams to one or more destinations.")
    static final class Send implements Callable<Integer> {
        @Option(names = "--to", required = true, description = "HOST:PORT or GROUP:PORT; repeat for several, sent in turn.")
        List<String> destinations;

        @Option(names = "--interface", description = "Interface for multicast (default: by the routing table).")
        String networkInterface;

        @Option(names = "--ttl", defaultValue = "8", description = "Multicast TTL (default: ${DEFAULT-VALUE}).")
        int ttl;

        @Option(names = "--count", defaultValue = "10", description = "Datagrams per destination (default: ${DEFAULT-VALUE}).")
        int count;

        @Option(names = "--interval", defaultValue = "20ms", description = "Gap between datagrams (default: ${DEFAULT-VALUE}).")
        String interval;

        @Override
        public Integer call() throws IOException, InterruptedException {
            Duration gap = Quantities.duration("duration", interval);
            int sent = 0;
            try (MulticastSocket socket = new MulticastSocket()) {
                socket.setTimeToLive(ttl);
                if (networkInterface != null) {
                    socket.setNetworkInterface(Endpoints.networkInterface(networkInterface));
                }
                for (String destination : destinations) {
                    InetSocketAddress to = Endpoints.parse(destination);
                    for (int i = 0; i < count; i++) {
                        byte[] text = ("to=" + Endpoints.format(to) + " seq=" + i).getBytes(StandardCharsets.UTF_8);
                        socket.send(new DatagramPacket(text, text.length, to));
                        sent++;
                        Thread.sleep(gap.toMillis());
                    }
                }
            }
            System.out.println("SENT " + sent);
            return 0;
        }
    }
}
