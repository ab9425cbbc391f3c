package org.fjm2.tunnel.admin;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A UDP socket of its own that feeds every datagram it receives to an {@link AdminClient}: for tools and tests,
 * and for a daemon that listens for advertisements apart from its tunnel port. Counts what it receives.
 */
public final class AdvertisementListener implements AutoCloseable {

    /** Receive buffer: room for an advertisement and then some, so longer datagrams are seen as such. */
    static final int BUFFER_BYTES = 2048;

    private static final Logger LOG = LoggerFactory.getLogger(AdvertisementListener.class);

    private final DatagramSocket socket;
    private Thread thread;
    private volatile AdminClient client;
    private volatile long received;
    private volatile long valid;

    /**
     * Binds {@code address} (port 0: any free port). Receiving starts with {@link #start}, once the client (which
     * needs {@link #localPort()} as its advertised port) exists.
     */
    public AdvertisementListener(InetSocketAddress address) throws SocketException {
        this.socket = new DatagramSocket(address);
    }

    /** Starts feeding received datagrams to {@code client}. */
    public synchronized void start(AdminClient client) {
        if (thread != null) {
            throw new IllegalStateException("already started");
        }
        this.client = client;
        thread = new Thread(this::receive, "fjm2-admin-advertisement-listener");
        thread.setDaemon(true);
        thread.start();
    }

    /** The bound port: advertise it as the node's port. */
    public int localPort() {
        return socket.getLocalPort();
    }

    /** Datagrams received, and those of them that were valid advertisements. */
    public long received() {
        return received;
    }

    public long valid() {
        return valid;
    }

    private void receive() {
        byte[] buffer = new byte[BUFFER_BYTES];
        DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
        while (!socket.isClosed()) {
            try {
                packet.setLength(buffer.length);
                socket.receive(packet);
                received++;
                if (client.offerAdvertisement(buffer, 0, packet.getLength())) {
                    valid++;
                }
            } catch (IOException e) {
                if (!socket.isClosed()) {
                    LOG.warn("advertisement listener on port {} failed: {}", socket.getLocalPort(), e.toString());
                }
                return;
            }
        }
    }

    @Override
    public synchronized void close() {
        socket.close();
        if (thread == null) {
            return;
        }
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
