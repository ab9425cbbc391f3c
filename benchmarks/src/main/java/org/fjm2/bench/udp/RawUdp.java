package org.fjm2.bench.udp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Raw Java UDP (JDK {@link DatagramChannel}, IPv4, no protocol on top) between a sender thread and a receiver
 * thread: the physical ceiling of this machine for datagram traffic, measured by the {@code udp} scenario and used
 * as the baseline of the others in the same run.
 */
public final class RawUdp {

    /** Largest UDP payload over IPv4 (65,535 - 20 IP - 8 UDP header bytes). */
    public static final int MAX_DATAGRAM = 65_507;
    /** Receive buffer asked for: bursts of 64 KB datagrams must not overflow it while the reader is descheduled. */
    public static final int RECEIVE_BUFFER = 8 << 20;
    /** Send buffer asked for. */
    public static final int SEND_BUFFER = 2 << 20;

    private RawUdp() {
    }

    /** One throughput measurement: what the receiver got in the window, what the sender wrote. */
    public record Throughput(double datagramsPerSecond, double megabytesPerSecond, double sentPerSecond,
                             int receiveBuffer) {

        /** Percentage of written datagrams that the receiver did not get (socket buffer overflow). */
        public double lossPercent() {
            return sentPerSecond == 0 ? 0 : Math.max(0, 100 * (1 - datagramsPerSecond / sentPerSecond));
        }
    }

    /**
     * Sends {@code size}-byte datagrams as fast as one thread can write them, to {@code group}:port on interface
     * {@code interfaceName} (multicast) or to 127.0.0.1:port (unicast), for {@code warmupSeconds} and then
     * {@code measureSeconds}, counting in the second period only.
     */
    public static Throughput throughput(boolean multicast, String group, String interfaceName, int port, int size,
                                        double warmupSeconds, double measureSeconds) throws Exception {
        if (size < 1 || size > MAX_DATAGRAM) {
            throw new IllegalArgumentException("datagram size must be 1.." + MAX_DATAGRAM + ": " + size);
        }
        AtomicLong received = new AtomicLong();
        AtomicLong receivedBytes = new AtomicLong();
        AtomicLong sent = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        try (DatagramChannel rx = receiver(multicast, group, interfaceName, port);
             DatagramChannel tx = sender(multicast, group, interfaceName, port)) {
            Thread reader = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(MAX_DATAGRAM);
                try {
                    while (running.get()) {
                        buf.clear();
                        rx.receive(buf);
                        received.incrementAndGet();
                        receivedBytes.addAndGet(buf.position());
                    }
                } catch (IOException e) {
                    // closed: the measurement is over
                }
            }, "udp-reader");
            Thread writer = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(size);
                try {
                    while (running.get()) {
                        buf.clear();
                        tx.write(buf);
                        sent.incrementAndGet();
                    }
                } catch (IOException e) {
                    // closed: the measurement is over
                }
            }, "udp-writer");
            reader.start();
            writer.start();
            Thread.sleep((long) (warmupSeconds * 1000));
            long r0 = received.get();
            long b0 = receivedBytes.get();
            long s0 = sent.get();
            long t0 = System.nanoTime();
            Thread.sleep((long) (measureSeconds * 1000));
            double seconds = (System.nanoTime() - t0) / 1e9;
            Throughput result = new Throughput((received.get() - r0) / seconds,
                    (receivedBytes.get() - b0) / seconds / 1e6, (sent.get() - s0) / seconds,
                    rx.getOption(StandardSocketOptions.SO_RCVBUF));
            running.set(false);
            rx.close();
            tx.close();
            writer.join(2000);
            reader.join(2000);
            return result;
        }
    }

    /** A receiving socket: bound to {@code port}, joined to {@code group} on the interface when multicast. */
    public static DatagramChannel receiver(boolean multicast, String group, String interfaceName, int port)
            throws IOException {
        DatagramChannel rx = DatagramChannel.open(StandardProtocolFamily.INET);
        rx.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        rx.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER);
        if (multicast) {
            rx.bind(new InetSocketAddress(port));
            rx.join(InetAddress.getByName(group), networkInterface(interfaceName));
        } else {
            rx.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        }
        return rx;
    }

    /** A sending socket connected to {@code group}:port (multicast, out of the interface) or 127.0.0.1:port. */
    public static DatagramChannel sender(boolean multicast, String group, String interfaceName, int port)
            throws IOException {
        DatagramChannel tx = DatagramChannel.open(StandardProtocolFamily.INET);
        tx.setOption(StandardSocketOptions.SO_SNDBUF, SEND_BUFFER);
        if (multicast) {
            tx.setOption(StandardSocketOptions.IP_MULTICAST_IF, networkInterface(interfaceName));
            tx.setOption(StandardSocketOptions.IP_MULTICAST_LOOP, true);
            tx.connect(new InetSocketAddress(InetAddress.getByName(group), port));
        } else {
            tx.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        }
        return tx;
    }

    private static NetworkInterface networkInterface(String name) throws IOException {
        NetworkInterface nif = NetworkInterface.getByName(name);
        if (nif == null) {
            throw new IllegalArgumentException("no network interface " + name);
        }
        return nif;
    }
}
