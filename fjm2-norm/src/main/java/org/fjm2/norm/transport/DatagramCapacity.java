package org.fjm2.norm.transport;

/**
 * How a socket's receive buffer fills: the kernel charges each datagram its own bookkeeping besides the bytes, in
 * power-of-two allocations, and only a share of the buffer is given to paced traffic: the rest absorbs what nobody
 * paces (commands, other receivers' feedback).
 */
public final class DatagramCapacity {

    /** Share of the socket buffer the windows advertise together (3/4): the rest absorbs unpaced traffic. */
    static final int SHARE_NUMERATOR = 3;
    static final int SHARE_DENOMINATOR = 4;
    /**
     * Bytes the kernel allocates with a datagram's data (Linux: IP/UDP and link headers, the skb_shared_info): the
     * sum is rounded up to a power of two for small datagrams.
     */
    static final int DATA_ALLOCATION_OVERHEAD = 384;
    /** The sk_buff itself, charged to the socket beside the data. */
    static final int SKB_OVERHEAD = 320;

    private DatagramCapacity() {
    }

    /** The bytes of a receive buffer of {@code grantedBytes} (as the kernel reports it) that paced traffic may fill. */
    public static long pacedShare(long grantedBytes) {
        return grantedBytes * SHARE_NUMERATOR / SHARE_DENOMINATOR;
    }

    /**
     * What the kernel charges a receive buffer for a UDP datagram of {@code length} bytes: the data, headers and
     * shared info in a power-of-two allocation, plus the sk_buff (measured on Linux 6 loopback: 100 bytes cost 832,
     * 1,492 bytes 2,304, 8,092 bytes 16,640, 65,000 bytes 65,832; this estimate is at or slightly above each).
     */
    public static int charge(int length) {
        return Integer.highestOneBit(length + DATA_ALLOCATION_OVERHEAD - 1) * 2 + SKB_OVERHEAD;
    }
}
