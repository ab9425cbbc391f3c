package org.fjm2.bench.aeron;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;

import io.aeron.ChannelUriStringBuilder;
import io.aeron.driver.Configuration;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.fjm2.norm.api.NormConfig;

/**
 * How the Aeron baseline of {@code fjm2 bench throughput} and {@code latency} is set up: UDP multicast on the
 * benchmark's interface, an embedded Java media driver per process (per subscriber in the throughput runs), and
 * every setting a constant here with the reason for its value. The sources are Aeron's own guidance: the Best
 * Practices Guide and Configuration Options pages of its wiki, and the throughput profile it ships in aeron-all
 * ({@code aeron-throughput.properties}: 8 KiB MTU, 2 MiB socket buffers and receiver window, no sparse log files).
 * Its low-latency profile ({@code low-latency.properties}: DEDICATED threads that busy-spin) needs a free core per
 * spinning thread, which a 2-core machine running a publisher, N subscribers and their drivers does not have.
 *
 * <p>Channel parameters carry the transport settings (so a child JVM gets them with the channel it is given, and the
 * benchmarks print them); the driver context carries threads and idling.
 */
public final class AeronBaseline {

    private AeronBaseline() {
    }

    /** Stream id of every benchmark publication: one stream per channel, any id does. */
    public static final int STREAM_ID = 1001;

    /**
     * Data and control share the driver's thread: {@link ThreadingMode#SHARED}. The guide's choice where cores are
     * scarce: DEDICATED (conductor, sender, receiver on three threads) would want three cores per driver, and this
     * machine has two for the publisher, every subscriber and every driver.
     */
    public static final ThreadingMode THREADING_MODE = ThreadingMode.SHARED;

    /**
     * Idling of the driver's thread, the subscribers' polling thread and a back-pressured publisher: Aeron's default
     * BackoffIdleStrategy (spin {@value #IDLE_MAX_SPINS} times, yield {@value #IDLE_MAX_YIELDS} times, then park
     * from 1 us doubling up to 1 ms), Aeron's default for every driver agent and the one its guidance keeps where
     * threads share cores: busy-spinning threads on shared cores take the CPU from the thread that has the work.
     */
    public static final long IDLE_MAX_SPINS = Configuration.IDLE_MAX_SPINS;
    public static final long IDLE_MAX_YIELDS = Configuration.IDLE_MAX_YIELDS;
    public static final long IDLE_MIN_PARK_NS = Configuration.IDLE_MIN_PARK_NS;
    public static final long IDLE_MAX_PARK_NS = Configuration.IDLE_MAX_PARK_NS;

    /**
     * MTU of the UDP channel: the throughput profile's 8 KiB. Aeron's default (1,408 bytes) fits an Ethernet frame,
     * which loopback (MTU 64 KiB) does not need; a message longer than the MTU's payload travels in fragments and is
     * reassembled by the subscriber (FragmentAssembler).
     */
    public static final int MTU = 8 * 1024;

    /**
     * Largest socket buffers asked for: the kernel's cap (net.core.rmem_max / wmem_max) when it is lower, else
     * FJM2's default receive buffer, so that neither side of the comparison holds more in flight than the other.
     */
    public static final int MAX_SOCKET_BUFFER = NormConfig.DEFAULT_RECEIVE_BUFFER;

    /** Socket buffers where the cap is unknown: the throughput profile's 2 MiB. */
    public static final int UNKNOWN_CAP_SOCKET_BUFFER = 2 << 20;

    /**
     * Smallest term length: Aeron's default 16 MiB. Under min flow control a publication runs at most one receiver
     * window ahead of its slowest subscriber, and Aeron lets at most {@code term-length / 2} be in flight, so 16 MiB
     * takes the largest window here (8 MiB) in full: a burst up to the window is written without waiting, and a slow
     * subscriber holds the publisher back instead of losing data. Messages larger than {@code term-length / 8} need
     * a larger term ({@link #termLength}).
     */
    public static final int MIN_TERM_LENGTH = 16 << 20;

    /** Largest message Aeron sends (its protocol limit, whatever the term length). */
    public static final int MAX_MESSAGE = 16 << 20;

    /**
     * Fragments one poll of one subscription hands over: a poll drains a batch of small messages (8 KiB MTU holds
     * about 60 of 100 bytes) without starving the other subscriptions of the same polling thread.
     */
    public static final int FRAGMENT_LIMIT = 256;

    /** TTL of the multicast datagrams: 0 keeps them on this host (looped back, never forwarded). */
    public static final int TTL = 0;

    /** Where embedded drivers keep their files: Aeron's default on Linux (memory, not disk), else the temp dir. */
    public static Path driverDirectoryBase() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** The driver context of one embedded media driver in {@code directory} (deleted at start and at shutdown). */
    public static MediaDriver.Context driverContext(Path directory) {
        return new MediaDriver.Context()
                .aeronDirectoryName(directory.toString())
                .dirDeleteOnStart(true)
                .dirDeleteOnShutdown(true)
                .warnIfDirectoryExists(false)
                .threadingMode(THREADING_MODE)
                .sharedIdleStrategy(idleStrategy())
                // the throughput profile: log files allocated up front, not page-faulted in while measuring
                .termBufferSparseFile(false);
    }

    /** A fresh idle strategy of the kind every Aeron thread here uses. */
    public static IdleStrategy idleStrategy() {
        return new BackoffIdleStrategy(IDLE_MAX_SPINS, IDLE_MAX_YIELDS, IDLE_MIN_PARK_NS, IDLE_MAX_PARK_NS);
    }

    /** The socket buffer asked for under a kernel cap (empty: unknown). */
    public static int socketBuffer(OptionalLong cap) {
        return (int) (cap.isPresent() ? Math.min(cap.getAsLong(), MAX_SOCKET_BUFFER) : UNKNOWN_CAP_SOCKET_BUFFER);
    }

    /** The term length for a receiver window and the largest message: a power of two, at least 16 MiB. */
    public static int termLength(int receiverWindow, int largestMessage) {
        long needed = Math.max(MIN_TERM_LENGTH, Math.max(2L * receiverWindow, 8L * largestMessage));
        long length = Long.highestOneBit(needed);
        return (int) Math.min(length == needed ? length : length << 1, 1 << 30);
    }

    /**
     * The publication's channel: {@code group:port} (the data address: its last byte must be odd, Aeron sends
     * control to the next address), the interface's IPv4 address, {@link #TTL}, {@link #MTU}, the term length and
     * send buffer, and min flow control over a group of {@code receivers}: the publication connects once that many
     * subscribers' drivers answer, and goes at the pace of the slowest (as a JMS publisher waits for every
     * subscriber: none is left behind to lose data).
     */
    public static String publicationChannel(String group, int port, String interfaceAddress, int receivers,
                                            OptionalLong rmemMax, OptionalLong wmemMax, int largestMessage) {
        return new ChannelUriStringBuilder().media("udp").endpoint(group + ":" + port)
                .networkInterface(interfaceAddress).ttl(TTL).mtu(MTU)
                .termLength(termLength(socketBuffer(rmemMax), largestMessage))
                .socketSndbufLength(socketBuffer(wmemMax))
                .flowControl("min,g:/" + receivers)
                .build();
    }

    /**
     * A subscription's channel: the same address and interface, a receive buffer as large as the kernel's cap allows
     * (up to {@link #MAX_SOCKET_BUFFER}) and a receiver window of the same size (Aeron's rule: never larger than the
     * receive buffer, which would overflow it; the throughput profile sets both alike).
     */
    public static String subscriptionChannel(String group, int port, String interfaceAddress, OptionalLong rmemMax) {
        int buffer = socketBuffer(rmemMax);
        return new ChannelUriStringBuilder().media("udp").endpoint(group + ":" + port)
                .networkInterface(interfaceAddress).socketRcvbufLength(buffer).receiverWindowLength(buffer)
                .build();
    }

    /** The largest payload Aeron sends in one frame at {@link #MTU} (larger messages are fragmented). */
    public static int maxPayload() {
        return MTU - io.aeron.protocol.DataHeaderFlyweight.HEADER_LENGTH;
    }

    /** Whether {@code group} can be an Aeron multicast data address: IPv4 multicast, last byte odd and below 255. */
    public static boolean isDataGroup(String group) {
        try {
            InetAddress a = InetAddress.getByName(group);
            int last = a.getAddress()[a.getAddress().length - 1] & 0xff;
            return a instanceof Inet4Address && a.isMulticastAddress() && (last & 1) == 1 && last < 255;
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** The IPv4 address of a network interface, as Aeron's {@code interface=} wants it (lo: 127.0.0.1). */
    public static String interfaceAddress(String interfaceName) throws SocketException {
        NetworkInterface ni = NetworkInterface.getByName(interfaceName);
        if (ni == null) {
            throw new IllegalArgumentException("no network interface " + interfaceName);
        }
        return ni.inetAddresses().filter(a -> a instanceof Inet4Address).findFirst()
                .map(InetAddress::getHostAddress)
                .orElseThrow(() -> new IllegalArgumentException("interface " + interfaceName + " has no IPv4 address"));
    }
}
