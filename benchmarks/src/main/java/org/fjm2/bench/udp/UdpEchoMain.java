package org.fjm2.bench.udp;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * The far end of the raw UDP ping-pong, in its own JVM: {@code PORT}. Returns every datagram received on
 * 127.0.0.1:PORT to its sender. Prints READY once bound; exits when its standard input ends.
 */
public final class UdpEchoMain {

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        try (DatagramChannel channel = RawUdp.receiver(false, null, null, port)) {
            Thread echo = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocateDirect(RawUdp.MAX_DATAGRAM);
                try {
                    while (true) {
                        buf.clear();
                        SocketAddress from = channel.receive(buf);
                        buf.flip();
                        channel.send(buf, from);
                    }
                } catch (IOException e) {
                    // closed: done
                }
            }, "udp-echo");
            echo.setDaemon(true);
            echo.start();
            System.out.println("READY " + ((InetSocketAddress) channel.getLocalAddress()).getPort());
            while (System.in.read() >= 0) {
                // wait for the end of the input
            }
        }
    }
}
