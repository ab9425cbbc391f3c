package org.fjm2.testkit.linkem;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import org.fjm2.util.Quantities;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * Measures what the UDP relay sustains on this machine: a paced sender offers datagrams through a relay with a
 * delay to a receiver, all on loopback, and the receiver's rate and the losses are reported. Not a test: a
 * measurement for the benchmarks and for choosing link settings.
 */
@Command(name = "linkem-throughput", mixinStandardHelpOptions = true,
        description = "Measure the UDP relay's sustained throughput on loopback (sender -> linkem with delay -> receiver).")
public final class LinkemThroughput implements Callable<Integer> {

    /** What one run measured. */
    public record Result(long offeredBitsPerSecond, double receivedBitsPerSecond, long sent, long received,
                         LinkStats stats) {
        public double lossFraction() {
            return sent == 0 ? 0 : 1 - (double) received / sent;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "offered %s, received %.1f Mbit/s, %d of %d datagrams (%.3f%% lost); %s",
                    Quantities.formatRate(offeredBitsPerSecond), receivedBitsPerSecond / 1e6, received, sent,
                    lossFraction() * 100, stats.statusLine());
        }
    }

    @Option(names = "--rate", defaultValue = "100mbit", description = "Offered rate (default: ${DEFAULT-VALUE}).")
    String rate;

    @Option(names = "--size", defaultValue = "1400", description = "Datagram payload bytes (default: ${DEFAULT-VALUE}).")
    int size;

    @Option(names = "--delay", defaultValue = "20ms", description = "Delay of the relay (default: ${DEFAULT-VALUE}).")
    String delay;

    @Option(names = "--duration", defaultValue = "5s", description = "How long to send (default: ${DEFAULT-VALUE}).")
    String duration;

    public static void main(String[] args) {
        System.exit(new CommandLine(new LinkemThroughput()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        Result r = measure(Quantities.rate("rate", rate), size, LinkProfile.builder().delay(Quantities.duration("duration", delay)).build(),
                Quantities.duration("duration", duration));
        System.out.println(r);
        return 0;
    }

    /** Offers {@code size}-byte datagrams at {@code bitsPerSecond} for {@code duration} through a relay with {@code profile}. */
    @SuppressWarnings("try") // the receiver is closed early on purpose, to end the reading thread
    public static Result measure(long bitsPerSecond, int size, LinkProfile profile, Duration duration)
            throws IOException, InterruptedException {
        InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (DatagramChannel receiver = DatagramChannel.open(java.net.StandardProtocolFamily.INET);
             DatagramChannel sender = DatagramChannel.open(java.net.StandardProtocolFamily.INET)) {
            receiver.setOption(StandardSocketOptions.SO_RCVBUF, LinkEmulator.DEFAULT_SOCKET_BUFFER_BYTES);
            receiver.bind(loopback);
            AtomicLong receivedPackets = new AtomicLong();
            AtomicLong firstNanos = new AtomicLong();
            AtomicLong lastNanos = new AtomicLong();
            Thread reading = new Thread(() -> receive(receiver, receivedPackets, firstNanos, lastNanos), "throughput-receiver");
            reading.setDaemon(true);
            reading.start();
            try (UdpRelay relay = LinkEmulator.udpRelay(loopback, (InetSocketAddress) receiver.getLocalAddress())
                    .forward(profile).seed(1).name("throughput").start()) {
                sender.setOption(StandardSocketOptions.SO_SNDBUF, LinkEmulator.DEFAULT_SOCKET_BUFFER_BYTES);
                sender.connect(relay.localAddress());
                long sent = sendPaced(sender, bitsPerSecond, size, duration);
                long quietSince = System.nanoTime();
                long seen = -1;
                while (System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(300) + profile.delay().toNanos()) {
                    long now = receivedPackets.get();
                    if (now != seen) {
                        seen = now;
                        quietSince = System.nanoTime();
                    }
                    TimeUnit.MILLISECONDS.sleep(20);
                }
                long received = receivedPackets.get();
                long span = lastNanos.get() - firstNanos.get();
                double receivedRate = span <= 0 ? 0 : (received - 1) * (double) size * 8 * 1e9 / span;
                return new Result(bitsPerSecond, receivedRate, sent, received, relay.stats());
            } finally {
                receiver.close();
                reading.join(1000);
            }
        }
    }

    private static long sendPaced(DatagramChannel sender, long bitsPerSecond, int size, Duration duration) throws IOException {
        ByteBuffer datagram = ByteBuffer.allocateDirect(size);
        long interval = (long) size * 8 * 1_000_000_000L / bitsPerSecond;
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        long sent = 0;
        while (true) {
            long due = start + sent * interval;
            if (due >= end) {
                return sent;
            }
            long wait = due - System.nanoTime();
            if (wait > 50_000) {
                LockSupport.parkNanos(wait);
            }
            datagram.clear();
            datagram.putLong(0, sent);
            sender.write(datagram);
            sent++;
        }
    }

    private static void receive(DatagramChannel channel, AtomicLong count, AtomicLong first, AtomicLong last) {
        ByteBuffer buffer = ByteBuffer.allocateDirect(65_536);
        try {
            while (true) {
                buffer.clear();
                channel.receive(buffer);
                long now = System.nanoTime();
                if (count.getAndIncrement() == 0) {
                    first.set(now);
                }
                last.set(now);
            }
        } catch (IOException closed) {
            // the measurement is over
        }
    }
}
