package org.fjm2.testkit.linkem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The TCP relay over loopback: a byte stream crosses intact despite delay, jitter, "loss" and a down period. */
class TcpRelayTest {

    private static final long SEED = Long.getLong("linkem.test.seed", 99L);
    private static final InetSocketAddress ANY_LOOPBACK_PORT = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);

    @Test
    void carriesAByteStreamIntactThroughDelayLossAndADownPeriod() throws Exception {
        long rate = 20_000_000;
        int size = 3 << 20;
        LinkProfile profile = LinkProfile.builder().rate(rate).delay(Duration.ofMillis(20)).jitter(Duration.ofMillis(5))
                .loss(0.05).upDown(new UpDownSchedule(Duration.ofMillis(500), Duration.ofMillis(300), Duration.ofMillis(200)))
                .build();
        byte[] data = new byte[size];
        new SplittableRandom(SEED).nextBytes(data);
        byte[] expectedDigest = MessageDigest.getInstance("SHA-256").digest(data);

        try (ServerSocket server = new ServerSocket()) {
            server.bind(ANY_LOOPBACK_PORT);
            CompletableFuture<Void> digestServer = CompletableFuture.runAsync(() -> answerWithDigest(server));
            try (TcpRelay relay = LinkEmulator.tcpRelay(ANY_LOOPBACK_PORT, (InetSocketAddress) server.getLocalSocketAddress())
                    .both(profile).retransmitTimeout(Duration.ofMillis(50)).seed(SEED).start();
                 Socket client = new Socket()) {
                long start = System.nanoTime();
                client.connect(relay.localAddress(), 5000);
                client.setSoTimeout(30_000);
                CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> writeAll(client, data));
                byte[] digest = new byte[32];
                new DataInputStream(client.getInputStream()).readFully(digest);
                long elapsed = System.nanoTime() - start;
                writer.get(10, TimeUnit.SECONDS);
                digestServer.get(10, TimeUnit.SECONDS);
                assertThat(client.getInputStream().read()).as("the target's close reaches the client").isEqualTo(-1);

                DirectionStats forward = relay.stats().forward();
                System.out.printf("tcp: %d bytes in %.2f s, %s%n", size, elapsed / 1e9, forward.statusLine());
                assertThat(digest).as("seed %d: the target saw exactly the bytes sent", SEED).isEqualTo(expectedDigest);
                assertThat(forward.bytesIn()).isEqualTo(size);
                assertThat(forward.bytesOut()).isEqualTo(size);
                assertThat(forward.dropped()).isZero();
                assertThat(forward.heldWhileDown()).as("bytes arrived during the down period and were held").isPositive();
                assertThat(forward.delayedByLoss()).as("seed %d: loss draws delay chunks", SEED).isPositive();
                assertThat(elapsed).as("the rate limit bounds the transfer time from below")
                        .isGreaterThanOrEqualTo((long) (size * 8 * 1e9 / rate));
                awaitNoConnections(relay);
            }
        }
    }

    @Test
    void requestAndResponseAreDelayedEachWay() throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(ANY_LOOPBACK_PORT);
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> echoOnce(server));
            try (TcpRelay relay = LinkEmulator.tcpRelay(ANY_LOOPBACK_PORT, (InetSocketAddress) server.getLocalSocketAddress())
                    .forward(LinkProfile.builder().delay(Duration.ofMillis(30)).build())
                    .reverse(LinkProfile.builder().delay(Duration.ofMillis(20)).build()).seed(SEED).start();
                 Socket client = new Socket()) {
                client.connect(relay.localAddress(), 5000);
                client.setSoTimeout(10_000);
                long start = System.nanoTime();
                client.getOutputStream().write(new byte[] {1, 2, 3});
                byte[] answer = new DataInputStream(client.getInputStream()).readNBytes(3);
                long rtt = System.nanoTime() - start;
                assertThat(answer).containsExactly(1, 2, 3);
                assertThat(rtt).as("round trip >= 30 ms + 20 ms").isGreaterThanOrEqualTo(50_000_000L);
                echo.get(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void closesTheClientWhenTheTargetRefuses() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket()) {
            s.bind(ANY_LOOPBACK_PORT);
            closedPort = s.getLocalPort();
        }
        try (TcpRelay relay = LinkEmulator.tcpRelay(ANY_LOOPBACK_PORT,
                new InetSocketAddress(InetAddress.getLoopbackAddress(), closedPort)).seed(SEED).start();
             Socket client = new Socket()) {
            client.connect(relay.localAddress(), 5000);
            client.setSoTimeout(10_000);
            int read;
            try {
                read = client.getInputStream().read();
            } catch (IOException reset) {
                read = -1;
            }
            assertThat(read).as("the client sees its connection end").isEqualTo(-1);
            awaitNoConnections(relay);
        }
    }

    private static void awaitNoConnections(TcpRelay relay) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (relay.stats().flows() > 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(10);
        }
        assertThat(relay.stats().flows()).as("connections closed on both sides").isZero();
    }

    private static void writeAll(Socket socket, byte[] data) {
        try {
            OutputStream out = socket.getOutputStream();
            for (int off = 0; off < data.length; off += 8192) {
                out.write(data, off, Math.min(8192, data.length - off));
            }
            socket.shutdownOutput();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads one connection to its end, answers with the SHA-256 of what it read, and closes. */
    private static void answerWithDigest(ServerSocket server) {
        try (Socket s = server.accept()) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            InputStream in = s.getInputStream();
            byte[] buffer = new byte[16384];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                sha.update(buffer, 0, n);
            }
            s.getOutputStream().write(sha.digest());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void echoOnce(ServerSocket server) {
        try (Socket s = server.accept()) {
            byte[] request = new DataInputStream(s.getInputStream()).readNBytes(3);
            s.getOutputStream().write(request);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
