package org.fjm2.norm.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The charge model against the kernel itself: a reader that stays behind (it always has datagrams waiting, as a slow
 * receiver does, so Linux frees what it read in batches rather than at once) while a sender keeps exactly the paced
 * share of its buffer in flight, counted with {@link DatagramCapacity#charge}, plus small datagrams nobody paces
 * (probes, other receivers' feedback): the kernel must drop nothing. Fails if the charges come out below the
 * kernel's or the share leaves no room for the unpaced datagrams.
 */
class DatagramCapacityKernelTest {

    /** Asked for; Linux grants twice (128 KiB), within the stock rmem_max. */
    static final int ASKED = 64 * 1024;
    /** A NORM data message of a 1,400-byte segment with its headers. */
    static final int DATA_LENGTH = 1_492;
    /** Unpaced datagrams (probe-sized) waiting at any time besides the window. */
    static final int UNPACED_WAITING = 8;
    static final int UNPACED_LENGTH = 100;
    static final int ROUNDS = 5_000;

    @Test
    void aReaderThatStaysBehindDropsNothingWhileThePacedShareIsInFlight() throws IOException {
        Assumptions.assumeTrue(System.getProperty("os.name").toLowerCase().contains("linux"),
                "the charges are Linux's");
        try (DatagramChannel rx = DatagramChannel.open(); DatagramChannel tx = DatagramChannel.open()) {
            rx.setOption(StandardSocketOptions.SO_RCVBUF, ASKED);
            rx.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            rx.configureBlocking(false);
            int granted = rx.getOption(StandardSocketOptions.SO_RCVBUF);
            Assumptions.assumeTrue(granted >= ASKED, "the kernel granted " + granted + " bytes");
            tx.connect(rx.getLocalAddress());
            long share = DatagramCapacity.pacedShare(granted);
            int dataCharge = DatagramCapacity.charge(DATA_LENGTH);
            ByteBuffer data = ByteBuffer.allocate(DATA_LENGTH);
            ByteBuffer small = ByteBuffer.allocate(UNPACED_LENGTH);
            ByteBuffer in = ByteBuffer.allocate(65_536);

            long inFlight = 0;
            int sent = 0;
            int received = 0;
            int unpacedWaiting = 0;
            int expected = 0;
            int unpacedSent = 0;
            for (int round = 0; round < ROUNDS; round++) {
                while (inFlight + dataCharge <= share) {
                    data.clear().putInt(0, sent++);
                    tx.write(data);
                    inFlight += dataCharge;
                }
                while (unpacedWaiting < UNPACED_WAITING) {
                    small.clear().putInt(0, -1);
                    tx.write(small);
                    unpacedWaiting++;
                    unpacedSent++;
                }
                // Read one datagram: the reader stays behind, so the kernel keeps deferring the release.
                in.clear();
                assertThat(rx.receive(in)).as("a datagram waiting in round %d", round).isNotNull();
                int number = in.getInt(0);
                if (number < 0) {
                    unpacedWaiting--;
                } else {
                    assertThat(number).as("data in order, none dropped (share %d of %d bytes granted)", share, granted)
                            .isEqualTo(expected);
                    expected++;
                    received++;
                    inFlight -= dataCharge;
                }
            }
            assertThat(received).isPositive();
            int port = ((InetSocketAddress) rx.getLocalAddress()).getPort();
            assertThat(kernelDrops(port)).as("datagrams the kernel dropped at the reader's socket (share %d of %d)",
                    share, granted).isZero();
        }
    }

    /** The drops column of /proc/net/udp for the socket bound to {@code port} on loopback. */
    static long kernelDrops(int port) throws IOException {
        String local = String.format("0100007F:%04X", port);
        for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/net/udp"))) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 12 && f[1].equals(local)) {
                return Long.parseLong(f[12]);
            }
        }
        throw new AssertionError("no socket on port " + port + " in /proc/net/udp");
    }
}
