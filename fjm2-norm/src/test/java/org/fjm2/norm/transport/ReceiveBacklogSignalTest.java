package org.fjm2.norm.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.net.MulticastSocket;
import java.net.NetworkInterface;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.TestGroups;
import org.fjm2.norm.api.NormConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The transports that can tell (epoll's recvmmsg, the JDK channels' read loop) tell the session when a read stopped
 * at its limit with datagrams still queued (the receiver then knows that what it reads next may have waited, and does
 * not echo a probe's hold from it), and do not say so for a read that emptied the socket. Netty's NIO channel reads
 * one datagram per read and cannot tell: it never says so.
 */
class ReceiveBacklogSignalTest {

    /** Datagrams queued while the event loop is held: several reads' worth for every transport. */
    static final int QUEUED = 200;

    @ParameterizedTest
    @ValueSource(strings = {"epoll", "jdk"})
    void aReadThatStopsAtItsLimitSaysSoAndOneThatEmptiesTheSocketDoesNot(String kind) throws Exception {
        if (kind.equals("epoll") && !io.netty.channel.epoll.Epoll.isAvailable()) {
            return;
        }
        NormConfig config = TestGroups.fresh().toBuilder().transport(kind).build();
        CountDownLatch firstRead = new CountDownLatch(1);
        CountDownLatch queued = new CountDownLatch(1);
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger backlogs = new AtomicInteger();
        AtomicInteger completes = new AtomicInteger();
        CountDownLatch allRead = new CountDownLatch(QUEUED + 1);
        CountDownLatch lastRead = new CountDownLatch(QUEUED + 2);
        AtomicInteger backlogsAtAllRead = new AtomicInteger(-1);
        AtomicInteger backlogsAtLast = new AtomicInteger(-1);
        DatagramTransport.Handler handler = new DatagramTransport.Handler() {
            @Override
            public void onDatagram(ByteBuf datagram, InetSocketAddress sender) {
                if (reads.incrementAndGet() == 1) {
                    firstRead.countDown();
                    await(queued);      // hold the event loop: the socket fills behind this read
                }
                allRead.countDown();
                lastRead.countDown();
            }

            @Override
            public void onReadComplete() {
                completes.incrementAndGet();
                if (allRead.getCount() == 0) {
                    backlogsAtAllRead.compareAndSet(-1, backlogs.get());
                }
                if (lastRead.getCount() == 0) {
                    backlogsAtLast.compareAndSet(-1, backlogs.get());
                }
            }

            @Override
            public void onReceiveBacklog() {
                backlogs.incrementAndGet();
            }

            @Override
            public void onWritable() {
            }
        };
        try (DatagramTransport transport = DatagramTransport.create(config, handler, "backlog-" + kind);
                MulticastSocket socket = new MulticastSocket(0)) {
            transport.start();
            socket.setNetworkInterface(NetworkInterface.getByName("lo"));
            byte[] payload = new byte[64];
            DatagramPacket packet = new DatagramPacket(payload, payload.length,
                    new InetSocketAddress(config.group(), config.port()));
            socket.send(packet);
            assertThat(firstRead.await(10, TimeUnit.SECONDS)).as("the first datagram was read").isTrue();
            for (int i = 0; i < QUEUED; i++) {
                socket.send(packet);
            }
            queued.countDown();
            assertThat(allRead.await(10, TimeUnit.SECONDS)).as("%d of %d read", reads.get(), QUEUED + 1).isTrue();
            awaitAtLeastZero(backlogsAtAllRead);
            int backlogsBefore = backlogsAtAllRead.get();
            assertThat(backlogsBefore).as("reads that stopped with datagrams queued (%d reads completed)",
                    completes.get()).isPositive();
            socket.send(packet);    // alone in an empty socket
            assertThat(lastRead.await(10, TimeUnit.SECONDS)).as("the lone datagram was read").isTrue();
            awaitAtLeastZero(backlogsAtLast);
            assertThat(backlogsAtLast.get()).as("the read of a lone datagram said nothing of a backlog")
                    .isEqualTo(backlogsBefore);
        }
    }

    /** The read that completed the count has completed too (its onReadComplete recorded the value). */
    private static void awaitAtLeastZero(AtomicInteger recorded) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (recorded.get() < 0 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(recorded.get()).as("the read completed").isNotNegative();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the datagrams were not queued in time");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
