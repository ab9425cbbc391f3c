package org.fjm2.testkit.linkem;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.concurrent.Future;
import org.fjm2.util.Quantities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A userspace link emulator: a relay between two sides that impairs each direction by its own
 * {@link LinkProfile} (rate, delay, jitter, loss, burst loss, reordering, duplication, up/down schedule). It
 * exists because the kernel here has no netem.
 *
 * <pre>{@code
 * try (LinkEmulator wan = LinkEmulator.udpRelay(listen, target)
 *         .both(LinkProfile.builder().rate(100_000_000).delay(Duration.ofMillis(25)).loss(0.01).build())
 *         .seed(42)
 *         .start()) {
 *     ... send to wan.localAddress() ...
 *     System.out.println(wan.stats().statusLine());
 * }
 * }</pre>
 *
 * <p>Three modes: {@link #udpRelay UDP relay}, {@link #multicastBridge multicast bridge} and {@link #tcpRelay TCP
 * relay}. Each instance runs on one event-loop thread that owns all its state; departures wait in a timer-driven
 * delay line (no thread or sleep per packet), and payloads are pooled Netty buffers released explicitly.
 */
public abstract class LinkEmulator implements AutoCloseable {

    /** Departures are served in batches no closer together than this, bounding timer wake-ups per second. */
    public static final Duration DEFAULT_TIMER_RESOLUTION = Duration.ofNanos(100_000);
    /** Payload bytes the delay line may hold in all directions; beyond it datagrams are dropped as QUEUE. */
    public static final long DEFAULT_MAX_IN_FLIGHT_BYTES = 64L << 20;
    /** Socket send and receive buffers requested (the kernel caps them at net.core.[rw]mem_max). */
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 4 << 20;
    /** Largest datagram relayed whole; every UDP payload fits. */
    public static final int MAX_DATAGRAM_BYTES = 65_535;

    static final String FORWARD = "forward";
    static final String REVERSE = "reverse";
    /** The reverse direction's seed differs from the forward one by this, so the two directions draw apart. */
    static final long REVERSE_SEED_SALT = 0x5DEECE66DL;
    private static final long HOUSEKEEPING_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    final Logger log = LoggerFactory.getLogger(getClass());
    final String name;
    final LinkProfile forwardProfile;
    final LinkProfile reverseProfile;
    final long seed;
    private final Duration statusInterval;
    private final long timerResolutionNanos;
    private final long maxInFlightBytes;

    EventLoopGroup group;
    EventLoop loop;
    LinkDirection forward;
    LinkDirection reverse;
    private final DepartureQueue departures = new DepartureQueue();
    private final List<PacketSink> pendingFlush = new ArrayList<>();
    private final Runnable wakeTask = this::onWake;
    private long armedWakeNanos = Long.MAX_VALUE;
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile long ignored;
    private volatile long sendErrors;
    private volatile long kernelDrops = -1;
    private boolean inFlightBoundWarned;

    LinkEmulator(Builder<?, ?> b) {
        this.name = b.name;
        this.forwardProfile = b.forward;
        this.reverseProfile = b.reverse;
        this.seed = b.seed != null ? b.seed : ThreadLocalRandom.current().nextLong();
        this.statusInterval = b.statusInterval;
        this.timerResolutionNanos = b.timerResolution.toNanos();
        this.maxInFlightBytes = b.maxInFlightBytes;
    }

    /** A UDP relay: datagrams to {@code listen} go to {@code target}, replies come back to their sender. */
    public static UdpRelay.Builder udpRelay(InetSocketAddress listen, InetSocketAddress target) {
        return new UdpRelay.Builder(listen, target);
    }

    /** A multicast bridge: what arrives on side A is re-emitted on side B (forward) and vice versa (reverse). */
    public static MulticastBridge.Builder multicastBridge(MulticastSide a, MulticastSide b) {
        return new MulticastBridge.Builder(a, b);
    }

    /** A TCP relay: connections to {@code listen} are relayed to {@code target}, bytes delayed but never lost. */
    public static TcpRelay.Builder tcpRelay(InetSocketAddress listen, InetSocketAddress target) {
        return new TcpRelay.Builder(listen, target);
    }

    /**
     * Binds the sockets and starts relaying; the up/down schedules count from now.
     *
     * @throws IOException when a socket cannot be opened (the message names the address and the reason)
     */
    public final LinkEmulator start() throws IOException {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("linkem " + name + " already started");
        }
        group = NettyTransport.newSingleThreadGroup("linkem-" + name);
        loop = group.next();
        long epoch = System.nanoTime();
        forward = new LinkDirection(FORWARD, forwardProfile, seed, epoch, retransmitTimeoutNanos());
        reverse = new LinkDirection(REVERSE, reverseProfile, seed ^ REVERSE_SEED_SALT, epoch, retransmitTimeoutNanos());
        try {
            open();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        loop.scheduleAtFixedRate(this::everySecond, HOUSEKEEPING_INTERVAL_NANOS, HOUSEKEEPING_INTERVAL_NANOS,
                TimeUnit.NANOSECONDS);
        if (!statusInterval.isZero()) {
            long every = statusInterval.toNanos();
            loop.scheduleAtFixedRate(new StatusReporter(), every, every, TimeUnit.NANOSECONDS);
        }
        log.info("linkem {} started: {} {} ({}), seed {}", name, mode(), endpoints(), NettyTransport.name(), seed);
        log.info("linkem {} forward: {}", name, forwardProfile.describe());
        log.info("linkem {} reverse: {}", name, reverseProfile.describe());
        return this;
    }

    /** Stops relaying, closes every socket and releases what is still in the delay line. Idempotent. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true) || group == null) {
            return;
        }
        if (!loop.isShuttingDown()) {
            loop.submit(() -> {
                watchKernelDrops();
                closeChannels();
                releaseDelayLine();
            }).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        if (forward != null) {
            log.info("linkem {} closed: {}", name, statusLine());
        }
    }

    /** A consistent-enough snapshot of both directions' counters; callable from any thread. */
    public LinkStats stats() {
        if (forward == null) {
            throw new IllegalStateException("linkem " + name + " not started");
        }
        return new LinkStats(mode(), forward.counters().snapshot(FORWARD), reverse.counters().snapshot(REVERSE),
                ignored, sendErrors, kernelDrops, flowCount());
    }

    /** One line: mode, per-direction counters, link state. */
    public String statusLine() {
        String line = "linkem " + (name.equals(mode()) ? "" : name + " ") + stats().statusLine();
        long now = System.nanoTime();
        line += forward.isDown(now) ? " [forward DOWN]" : "";
        line += reverse.isDown(now) ? " [reverse DOWN]" : "";
        return line;
    }

    /** The seed every random impairment draws from (the reverse direction's is derived from it). */
    public long seed() {
        return seed;
    }

    public LinkProfile forwardProfile() {
        return forwardProfile;
    }

    public LinkProfile reverseProfile() {
        return reverseProfile;
    }

    /** "udp", "mcast" or "tcp". */
    public abstract String mode();

    /** What the emulator connects, for logs, e.g. {@code 127.0.0.1:9000 -> 127.0.0.1:9001}. */
    abstract String endpoints();

    /** Binds the mode's sockets; called once from {@link #start()}, off the event loop. */
    abstract void open() throws IOException;

    /** Closes the mode's sockets; runs on the event loop. */
    abstract void closeChannels();

    /** Client flows (UDP) or connections (TCP) open now. */
    int flowCount() {
        return 0;
    }

    /** Retransmission timeout that a loss draw adds to a TCP chunk; other modes never use it. */
    long retransmitTimeoutNanos() {
        return 0;
    }

    /** Runs on the event loop once a second: subclasses expire idle state here. */
    void housekeeping() {
    }

    /** The mode's UDP sockets that receive, whose kernel drops are watched; none by default. */
    List<Channel> receivingSockets() {
        return List.of();
    }

    private void everySecond() {
        housekeeping();
        watchKernelDrops();
    }

    private void watchKernelDrops() {
        long drops = SocketDrops.of(receivingSockets());
        if (drops > Math.max(0, kernelDrops)) {
            log.warn("linkem {}: the kernel dropped {} datagrams at linkem's sockets so far (receive buffers full:"
                    + " linkem was too slow or not scheduled; raising net.core.rmem_max helps)", name, drops);
        }
        kernelDrops = Math.max(kernelDrops, drops);
    }

    /** Logs the status line with each direction's delivered rate since the previous report. */
    private final class StatusReporter implements Runnable {
        private long lastNanos = System.nanoTime();
        private long lastForwardBytes;
        private long lastReverseBytes;

        @Override
        public void run() {
            long now = System.nanoTime();
            long forwardBytes = forward.counters().get(DirectionCounters.Counter.BYTES_OUT);
            long reverseBytes = reverse.counters().get(DirectionCounters.Counter.BYTES_OUT);
            double seconds = (now - lastNanos) / 1e9;
            log.info("{} | now {}/s forward, {}/s reverse", statusLine(),
                    Quantities.formatRate((long) ((forwardBytes - lastForwardBytes) * 8 / seconds)),
                    Quantities.formatRate((long) ((reverseBytes - lastReverseBytes) * 8 / seconds)));
            lastNanos = now;
            lastForwardBytes = forwardBytes;
            lastReverseBytes = reverseBytes;
        }
    }

    // ---- the delay line, run by the event loop ----

    /**
     * Runs a received datagram through {@code direction} and schedules it (and its copy, if duplicated) for
     * {@code sink}. Takes ownership of {@code payload}.
     */
    final void relayDatagram(LinkDirection direction, ByteBuf payload, PacketSink sink, InetSocketAddress recipient) {
        int bytes = payload.readableBytes();
        if (departures.payloadBytes() + bytes > maxInFlightBytes) {
            direction.counters().countIn(bytes);
            direction.counters().countDrop(DropReason.QUEUE);
            payload.release();
            if (!inFlightBoundWarned) {
                inFlightBoundWarned = true;
                log.warn("linkem {}: delay line full ({} bytes in flight); dropping datagrams, counted as queue drops",
                        name, departures.payloadBytes());
            }
            return;
        }
        long departure = direction.admitDatagram(System.nanoTime(), bytes);
        if (departure < 0) {
            payload.release();
            return;
        }
        long copyDeparture = direction.duplicateDeparture();
        if (copyDeparture >= 0) {
            schedule(departure, payload.retainedDuplicate(), sink, recipient, direction);
            schedule(copyDeparture, payload, sink, recipient, direction);
        } else {
            schedule(departure, payload, sink, recipient, direction);
        }
    }

    /** Puts a packet (or, with a null payload, a stream's end) in the delay line. */
    final void schedule(long due, ByteBuf payload, PacketSink sink, InetSocketAddress recipient, LinkDirection direction) {
        Departure d = departures.acquire();
        d.due = due;
        d.payload = payload;
        d.sink = sink;
        d.recipient = recipient;
        d.counters = direction.counters();
        departures.add(d);
        wakeFor(due, System.nanoTime());
    }

    /** Sends every packet whose time has come; call after a batch of reads so zero-delay packets leave at once. */
    final void drainDue() {
        long now = System.nanoTime();
        Departure d;
        while ((d = departures.peek()) != null && d.due <= now) {
            departures.poll();
            fire(d);
            departures.recycle(d);
        }
        for (int i = 0; i < pendingFlush.size(); i++) {
            PacketSink sink = pendingFlush.get(i);
            sink.flushPending = false;
            sink.flush();
        }
        pendingFlush.clear();
        Departure head = departures.peek();
        if (head != null) {
            wakeFor(head.due, now);
        }
    }

    /**
     * Makes sure a wake-up comes by {@code due}, no sooner than one timer resolution from {@code now}, keeping at
     * most one wake-up armed (a new one only when it must come earlier than the armed one).
     */
    private void wakeFor(long due, long now) {
        long wake = Math.max(due, now + timerResolutionNanos);
        if (wake < armedWakeNanos) {
            armedWakeNanos = wake;
            loop.schedule(wakeTask, wake - now, TimeUnit.NANOSECONDS);
        }
    }

    private void fire(Departure d) {
        if (d.payload == null) {
            d.sink.endOfStream();
            return;
        }
        d.counters.countOut(d.payload.readableBytes());
        d.sink.send(d.payload, d.recipient);
        if (!d.sink.flushPending) {
            d.sink.flushPending = true;
            pendingFlush.add(d.sink);
        }
    }

    private void onWake() {
        armedWakeNanos = Long.MAX_VALUE;
        drainDue();
    }

    private void releaseDelayLine() {
        Departure d;
        while ((d = departures.poll()) != null) {
            if (d.payload != null) {
                d.payload.release();
            }
            departures.recycle(d);
        }
    }

    /** Payload bytes waiting in the delay line now. */
    final long delayLineBytes() {
        return departures.payloadBytes();
    }

    // ---- shared helpers for the modes ----

    /** Copies a datagram out of the large receive buffer into one of its own size, so the delay line holds no slack. */
    static ByteBuf compactCopy(ByteBufAllocator alloc, ByteBuf content) {
        int length = content.readableBytes();
        ByteBuf copy = alloc.directBuffer(length, length);
        copy.writeBytes(content, content.readerIndex(), length);
        return copy;
    }

    /**
     * Reads datagrams for a mode: hands each to {@link #onDatagram} and releases it, sends what fell due after each
     * batch of reads, and counts socket errors (an ICMP port unreachable surfaces here) without closing anything.
     */
    @ChannelHandler.Sharable
    abstract class DatagramHandler extends ChannelInboundHandlerAdapter {

        /** One received datagram; {@code content} is released after the call, so copy what is kept. */
        abstract void onDatagram(ChannelHandlerContext ctx, InetSocketAddress sender, ByteBuf content);

        @Override
        public final void channelRead(ChannelHandlerContext ctx, Object msg) {
            DatagramPacket packet = (DatagramPacket) msg;
            try {
                onDatagram(ctx, packet.sender(), packet.content());
            } finally {
                packet.release();
            }
        }

        @Override
        public final void channelReadComplete(ChannelHandlerContext ctx) {
            drainDue();
        }

        @Override
        public final void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            countSendError(cause);
        }
    }

    /** Counts a datagram that was not relayed on purpose: an own re-emission, or one from an unexpected sender. */
    final void countIgnored() {
        ignored = ignored + 1;
    }

    /** Counts a failed socket write and logs the first one of each burst. */
    final void countSendError(Throwable cause) {
        long n = sendErrors + 1;
        sendErrors = n;
        if (n == 1 || Long.bitCount(n) == 1) {
            log.warn("linkem {}: send failed ({} so far): {}", name, n, cause.toString());
        }
    }

    final boolean isClosed() {
        return closed.get();
    }

    /** Waits for a bind, connect or join, turning its failure into an IOException that names what failed. */
    static void await(Future<?> future, String what) throws IOException {
        if (!future.awaitUninterruptibly(10, TimeUnit.SECONDS)) {
            throw new IOException(what + ": timed out");
        }
        if (!future.isSuccess()) {
            Throwable cause = future.cause();
            throw new IOException(what + ": " + (cause.getMessage() != null ? cause.getMessage() : cause), cause);
        }
    }

    /** Waits for a channel's bind or connect and returns the channel. */
    static Channel awaitChannel(ChannelFuture future, String what) throws IOException {
        await(future, what);
        return future.channel();
    }

    /**
     * Settings every mode shares: the profile of each direction (same both ways unless set apart), the seed,
     * the status interval.
     */
    public abstract static class Builder<B extends Builder<B, E>, E extends LinkEmulator> {
        String name = "link";
        LinkProfile forward = LinkProfile.PERFECT;
        LinkProfile reverse = LinkProfile.PERFECT;
        Long seed;
        Duration statusInterval = Duration.ZERO;
        Duration timerResolution = DEFAULT_TIMER_RESOLUTION;
        long maxInFlightBytes = DEFAULT_MAX_IN_FLIGHT_BYTES;

        Builder() {
        }

        @SuppressWarnings("unchecked")
        final B self() {
            return (B) this;
        }

        /** The name used in logs and the event-loop thread's name; default "link". */
        public B name(String name) {
            this.name = name;
            return self();
        }

        /** Impairments from the client (UDP/TCP) or side A (multicast) towards the target or side B. */
        public B forward(LinkProfile profile) {
            this.forward = profile;
            return self();
        }

        /** Impairments of replies (UDP/TCP) or from side B towards side A (multicast). */
        public B reverse(LinkProfile profile) {
            this.reverse = profile;
            return self();
        }

        /** The same impairments both ways (each direction still draws its own random numbers). */
        public B both(LinkProfile profile) {
            return forward(profile).reverse(profile);
        }

        /** Seeds every random impairment; default: a random seed, logged at start. */
        public B seed(long seed) {
            this.seed = seed;
            return self();
        }

        /** Logs the status line at this interval; default zero, off. */
        public B statusInterval(Duration interval) {
            this.statusInterval = interval;
            return self();
        }

        /** Minimum gap between timer wake-ups; default {@link #DEFAULT_TIMER_RESOLUTION}. */
        public B timerResolution(Duration resolution) {
            this.timerResolution = resolution;
            return self();
        }

        /** Bound on payload bytes in the delay line; default {@link #DEFAULT_MAX_IN_FLIGHT_BYTES}. */
        public B maxInFlightBytes(long bytes) {
            this.maxInFlightBytes = bytes;
            return self();
        }

        /** The configured emulator, not yet started. */
        public abstract E build();

        /** Builds and {@linkplain LinkEmulator#start() starts} the emulator. */
        public E start() throws IOException {
            E emulator = build();
            emulator.start();
            return emulator;
        }
    }
}
