package org.fjm2.norm.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 14, finding 7: a datagram that arrives while the transport starts must not reach the session before every
 * channel is open (the session answers a read by flushing the transmit channel: it threw a NullPointerException in
 * the three-LAN mesh). Datagrams flood the group while transports start, again and again.
 */
class TransportStartupTest {

    static final int STARTS = 30;
    /** Starts go on beyond {@link #STARTS} until a datagram was read, for at most this long. */
    static final long MAX_STARTING_NANOS = TimeUnit.SECONDS.toNanos(20);
    /** Datagrams the flood sends before the transports start. */
    static final int FLOOD_BEFORE_START = 1_000;

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "nio", "jdk"})
    void noDatagramIsHandedOverBeforeEveryChannelIsOpen(String kind) throws Exception {
        if (kind.equals("epoll") && !io.netty.channel.epoll.Epoll.isAvailable()) {
            return;
        }
        NormConfig config = TestGroups.fresh().toBuilder().transport(kind).build();
        AtomicBoolean flooding = new AtomicBoolean(true);
        CountDownLatch flowing = new CountDownLatch(FLOOD_BEFORE_START);
        Thread flood = new Thread(() -> {
            try (MulticastSocket socket = new MulticastSocket(0)) {
                socket.setNetworkInterface(NetworkInterface.getByName("lo"));
                byte[] garbage = new byte[64];
                DatagramPacket packet = new DatagramPacket(garbage, garbage.length,
                        new InetSocketAddress(config.group(), config.port()));
                while (flooding.get()) {
                    socket.send(packet);
                    flowing.countDown();
                }
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        }, "flood");
        flood.start();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger reads = new AtomicInteger();
        try {
            assertThat(flowing.await(20, TimeUnit.SECONDS)).as("the flood is flowing").isTrue();
            long started = System.nanoTime();
            // A loaded host may close every transport of the first STARTS before its first read: go on until one read.
            for (int i = 0; i < STARTS || reads.get() == 0 && System.nanoTime() - started < MAX_STARTING_NANOS; i++) {
                DatagramTransport[] self = new DatagramTransport[1];
                DatagramTransport.Handler handler = new DatagramTransport.Handler() {
                    @Override
                    public void onDatagram(ByteBuf datagram, InetSocketAddress sender) {
                        reads.incrementAndGet();
                    }

                    @Override
                    public void onReadComplete() {
                        // what the session does after every batch of reads
                        try {
                            self[0].isWritable();
                            self[0].flush();
                        } catch (RuntimeException e) {
                            failure.compareAndSet(null, e);
                        }
                    }

                    @Override
                    public void onWritable() {
                    }
                };
                self[0] = DatagramTransport.create(config, handler, "startup-" + i);
                try {
                    self[0].start();
                } finally {
                    self[0].close();
                }
            }
        } finally {
            flooding.set(false);
            flood.join();
        }
        assertThat(failure.get()).as("a read handed over while the transport started (%d reads)", reads.get())
                .isNull();
        assertThat(reads.get()).as("the flood reached the transports").isPositive();
    }
}
