package org.fjm2.testkit.linkem;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Test traffic: datagrams carrying a sequence number and their send time ({@link System#nanoTime()}, comparable
 * because sender and receiver share the JVM), and a receiver that records, in arrival order, each one's
 * sequence number, send time and arrival time.
 */
final class ProbeReceiver implements AutoCloseable {

    static final int HEADER_BYTES = 12;

    final DatagramSocket socket;
    private final int capacity;
    private final int[] sequences;
    private final long[] sent;
    private final long[] arrived;
    private volatile int count;
    private final Thread thread;

    ProbeReceiver(int capacity) throws SocketException {
        this(new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)), capacity);
    }

    ProbeReceiver(DatagramSocket socket, int capacity) throws SocketException {
        this.socket = socket;
        this.capacity = capacity;
        this.sequences = new int[capacity];
        this.sent = new long[capacity];
        this.arrived = new long[capacity];
        socket.setReceiveBufferSize(4 << 20);
        thread = new Thread(this::run, "probe-receiver");
        thread.setDaemon(true);
        thread.start();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    private void run() {
        byte[] buffer = new byte[65_536];
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        try {
            while (count < capacity) {
                socket.receive(packet);
                long now = System.nanoTime();
                ByteBuffer b = ByteBuffer.wrap(buffer, 0, packet.getLength());
                int i = count;
                sequences[i] = b.getInt();
                sent[i] = b.getLong();
                arrived[i] = now;
                count = i + 1;
            }
        } catch (IOException closed) {
            // socket closed by close()
        }
    }

    int count() {
        return count;
    }

    int sequence(int i) {
        return sequences[i];
    }

    long sentAt(int i) {
        return sent[i];
    }

    long arrivedAt(int i) {
        return arrived[i];
    }

    /** Waits until {@code n} datagrams arrived or the timeout passed; returns the count then. */
    int awaitCount(int n, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count < n && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(5);
        }
        return count;
    }

    /** Waits until the count stays unchanged for {@code quiet}, at most {@code timeout}; returns the count. */
    int awaitQuiet(Duration quiet, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int last = -1;
        long stableSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            int now = count;
            if (now != last) {
                last = now;
                stableSince = System.nanoTime();
            } else if (System.nanoTime() - stableSince >= quiet.toNanos()) {
                break;
            }
            TimeUnit.MILLISECONDS.sleep(10);
        }
        return count;
    }

    /** Sends one probe datagram of {@code size} bytes (at least the header). */
    static void send(DatagramSocket from, InetSocketAddress to, int sequence, int size) throws IOException {
        byte[] data = new byte[Math.max(size, HEADER_BYTES)];
        ByteBuffer.wrap(data).putInt(sequence).putLong(System.nanoTime());
        from.send(new DatagramPacket(data, data.length, to));
    }

    /**
     * Sends {@code n} probes paced at {@code interval} (catching up after stalls rather than sleeping per packet
     * exactly), numbered from 0; returns each probe's send time.
     */
    static long[] sendPaced(DatagramSocket from, InetSocketAddress to, int n, int size, Duration interval)
            throws IOException {
        long[] sentAt = new long[n];
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            long due = start + i * interval.toNanos();
            long wait = due - System.nanoTime();
            if (wait > 200_000) {
                java.util.concurrent.locks.LockSupport.parkNanos(wait);
            }
            sentAt[i] = System.nanoTime();
            send(from, to, i, size);
        }
        return sentAt;
    }

    @Override
    public void close() {
        socket.close();
    }
}
