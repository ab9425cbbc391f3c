package org.fjm2.norm.interop;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records every datagram sent to a multicast group:port on lo (IPv4, bound to the group, SO_REUSEADDR so that NORM
 * peers share the port), for tests that look at what another implementation put on the wire.
 */
public final class MulticastCapture implements AutoCloseable {

    /** Receive buffer asked for, default 16 MiB (the kernel caps it at net.core.rmem_max). */
    public static final int RECEIVE_BUFFER_BYTES = 16 << 20;
    /** Largest datagram kept whole. */
    public static final int MAX_DATAGRAM = 65536;

    private static final Logger LOG = LoggerFactory.getLogger(MulticastCapture.class);

    private final DatagramChannel channel;
    private final List<byte[]> packets = new ArrayList<>();
    private final Thread reader;
    private volatile long lastPacketNanos = System.nanoTime();

    private MulticastCapture(DatagramChannel channel) {
        this.channel = channel;
        this.reader = new Thread(this::readLoop, "multicast-capture");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts capturing datagrams sent to {@code group:port} on the loopback interface. */
    public static MulticastCapture open(String group, int port) throws IOException {
        InetAddress groupAddress = InetAddress.getByName(group);
        NetworkInterface lo = NetworkInterface.getByName("lo");
        if (lo == null) {
            throw new IOException("no loopback interface named lo");
        }
        DatagramChannel channel = DatagramChannel.open(StandardProtocolFamily.INET);
        try {
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            channel.setOption(StandardSocketOptions.SO_RCVBUF, RECEIVE_BUFFER_BYTES);
            channel.bind(new InetSocketAddress(groupAddress, port));
            channel.join(groupAddress, lo);
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return new MulticastCapture(channel);
    }

    /** A random administratively scoped IPv4 group, so that concurrent test runs on one host stay apart. */
    public static String freshGroup() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "239.255." + random.nextInt(1, 255) + "." + random.nextInt(1, 255);
    }

    /** A random UDP port in [20000, 60000). */
    public static int freshPort() {
        return ThreadLocalRandom.current().nextInt(20000, 60000);
    }

    private void readLoop() {
        ByteBuffer buffer = ByteBuffer.allocate(MAX_DATAGRAM);
        try {
            while (true) {
                buffer.clear();
                channel.receive(buffer);
                buffer.flip();
                byte[] copy = Arrays.copyOf(buffer.array(), buffer.limit());
                synchronized (packets) {
                    packets.add(copy);
                }
                lastPacketNanos = System.nanoTime();
            }
        } catch (ClosedChannelException e) {
            LOG.debug("capture closed");
        } catch (IOException e) {
            LOG.warn("capture stopped: {}", e.toString());
        }
    }

    /**
     * Waits until nothing has arrived for {@code quiet} (or {@code max} has passed), so that datagrams still in the
     * socket buffer are read.
     */
    public void awaitQuiet(Duration quiet, Duration max) throws InterruptedException {
        long end = System.nanoTime() + max.toNanos();
        while (System.nanoTime() < end && System.nanoTime() - lastPacketNanos < quiet.toNanos()) {
            Thread.sleep(Math.max(1, quiet.toMillis() / 5));
        }
    }

    /** The datagrams captured so far, in arrival order. */
    public List<byte[]> packets() {
        synchronized (packets) {
            return new ArrayList<>(packets);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
        try {
            reader.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
