package org.fjm2.norm.receiver;

import static org.assertj.core.api.Assertions.assertThat;

import org.fjm2.norm.codec.FlowReport;
import org.fjm2.norm.transport.DatagramCapacity;
import org.junit.jupiter.api.Test;

/**
 * The window a receiver advertises: its socket buffer's paced share, in bytes as the kernel charges datagrams,
 * shared between flow-controlled senders, never below two of the largest datagrams nor above what a report carries.
 */
class ReceiveWindowTest {

    /** What Linux grants for SO_RCVBUF at the stock net.core.rmem_max (212992, doubled). */
    static final int STOCK_GRANTED = 2 * 212_992;

    @Test
    void theKernelsChargeIsEstimatedAtOrAboveWhatLinuxCharges() {
        // Measured on Linux 6 loopback (rx_queue of /proc/net/udp per datagram).
        assertThat(DatagramCapacity.charge(100)).isBetween(832, 900);
        assertThat(DatagramCapacity.charge(1_492)).isBetween(2_304, 2_400);
        assertThat(DatagramCapacity.charge(8_092)).isBetween(16_640, 16_800);
        assertThat(DatagramCapacity.charge(65_000)).isBetween(65_832, 66_000);
    }

    @Test
    void sendersShareTheCapacity() {
        ReceiveWindow w = new ReceiveWindow(() -> STOCK_GRANTED, 0, 1_500);
        long whole = w.perSender();
        assertThat(whole).isEqualTo(DatagramCapacity.pacedShare(STOCK_GRANTED));
        w.senderOffered();
        w.senderOffered();
        assertThat(w.perSender()).isEqualTo(whole / 2);
        w.senderLeft();
        assertThat(w.perSender()).isEqualTo(whole);
    }

    @Test
    void neverBelowTwoOfTheLargestDatagramsNorAboveWhatAReportCarries() {
        assertThat(new ReceiveWindow(() -> 64 * 1024, 0, 65_064).perSender())
                .isEqualTo(2L * DatagramCapacity.charge(65_064));
        assertThat(new ReceiveWindow(() -> Integer.MAX_VALUE, 0, 1_500).perSender())
                .isEqualTo((long) FlowReport.MAX_WINDOW_UNITS * FlowReport.WINDOW_UNIT);
    }

    @Test
    void anUnknownGrantFallsBackToWhatWasAskedFor() {
        ReceiveWindow w = new ReceiveWindow(() -> -1, STOCK_GRANTED, 1_500);
        assertThat(w.perSender()).isEqualTo(DatagramCapacity.pacedShare(STOCK_GRANTED));
    }
}
