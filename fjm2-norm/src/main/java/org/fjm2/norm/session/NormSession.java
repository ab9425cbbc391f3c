package org.fjm2.norm.session;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormPacketValidator;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.PacketError;
import org.fjm2.norm.receiver.BlockDecoder;
import org.fjm2.norm.receiver.RemoteSender;
import org.fjm2.norm.receiver.RemoteSenderTable;
import org.fjm2.norm.security.PacketProtection;
import org.fjm2.norm.util.LogLimiter;
import org.fjm2.norm.sender.NormSender;
import org.fjm2.norm.sender.ParityEncoder;
import org.fjm2.norm.session.NormCounters.Counter;
import org.fjm2.norm.transport.DatagramTransport;
import org.fjm2.norm.transport.SocketBufferLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NORM session: a node on group:port that can send objects and receives the objects of every other sender in
 * the group. All protocol state (the sender, one {@link RemoteSender} per remote sender, timers) is owned by the
 * session's single event-loop thread; application threads only enqueue objects, which the sender hands over
 * through a queue. Open with {@link #open}, stop with {@link #close()}.
 */
public final class NormSession implements NormContext, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NormSession.class);

    private static final BooleanSupplier NEVER = () -> false;
    private volatile BooleanSupplier acknowledgementHold = NEVER;
    private final NormConfig config;
    private final NormListener listener;
    private final DatagramTransport transport;
    private final EventLoop loop;
    private final TimerQueue timers = new TimerQueue();
    private final NormCounters counters = new NormCounters();
    private final SplittableRandom random;
    private final long seed;
    private final long baseNanos = System.nanoTime();
    private final NormSender sender;
    private final BlockDecoder decoder;
    private final RemoteSenderTable remoteSenders;
    private final LogLimiter refusedLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);
    private final org.fjm2.norm.util.LogLimiters<RemoteEvent> remoteEvents =
            new org.fjm2.norm.util.LogLimiters<>(RemoteEvent.class);
    private final ObjectMessageFlyweight objectMessage = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    private final FeedbackFlyweight feedback = new FeedbackFlyweight();
    private final AtomicBoolean wakeScheduled = new AtomicBoolean();
    private final Runnable wakeTask = this::onWake;
    private final Runnable timerTask = this::onTimerWake;
    private final PacketOutput output = new Output();
    private final org.fjm2.norm.security.PacketProtection protection;
    private final int protectionOverhead;
    private long now;
    private boolean inPass;
    private boolean transmitRequested;
    private ScheduledFuture<?> wakeFuture;
    private long wakeDeadline = Long.MAX_VALUE;
    private volatile boolean closed;
    private int sequence;

    private NormSession(NormConfig config, NormListener listener, long seed, ParityEncoder encoder,
                        BlockDecoder decoder, DatagramTransport.Factory transports) {
        this.config = config;
        this.listener = listener;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        this.decoder = decoder;
        this.protection = config.protection() == null ? null
                : new org.fjm2.norm.security.PacketProtection(config.protection(), config.groupKey(), config.nodeId(),
                        config.group(), config.port());
        this.protectionOverhead = protection == null ? 0 : protection.overhead();
        this.transport = transports.create(config, new TransportHandler(),
                "norm-" + Integer.toUnsignedString(config.nodeId()));
        this.loop = transport.eventLoop();
        this.now = System.nanoTime();
        this.sender = new NormSender(this, encoder);
        this.remoteSenders = new RemoteSenderTable(this, decoder);
    }

    /** Opens a session with a random back-off seed and the default FEC codec. */
    public static NormSession open(NormConfig config, NormListener listener) throws IOException {
        return open(config, listener, ThreadLocalRandom.current().nextLong());
    }

    /** Opens a session whose NACK back-off randomness comes from {@code seed} (tests). */
    public static NormSession open(NormConfig config, NormListener listener, long seed) throws IOException {
        return open(config, listener, seed, FecSupport.encoder(config), FecSupport.decoder());
    }

    /** Opens a session with explicit FEC plug-ins (null encoder: parity must be 0; null decoder: no FEC receive). */
    public static NormSession open(NormConfig config, NormListener listener, long seed, ParityEncoder encoder,
                                   BlockDecoder decoder) throws IOException {
        return open(config, listener, seed, encoder, decoder, DatagramTransport.Factory.SOCKETS);
    }

    /** Opens a session over the transport {@code transports} makes (tests: in-memory transports, fuzzing). */
    public static NormSession open(NormConfig config, NormListener listener, long seed,
                                   DatagramTransport.Factory transports) throws IOException {
        return open(config, listener, seed, FecSupport.encoder(config), FecSupport.decoder(), transports);
    }

    private static NormSession open(NormConfig config, NormListener listener, long seed, ParityEncoder encoder,
                                    BlockDecoder decoder, DatagramTransport.Factory transports) throws IOException {
        NormSession session = new NormSession(config, listener == null ? new NormListener() { } : listener, seed,
                encoder, decoder, transports);
        SocketBufferLimits.warnIfCapped(config.receiveBuffer(), config.sendBuffer());
        try {
            session.transport.start();
        } catch (IOException | RuntimeException e) {
            session.transport.close();
            throw e;
        }
        session.call(() -> {
            session.now = System.nanoTime();
            session.sender.start();
            session.armWake();
            return null;
        });
        LOG.info("NORM session node {} on {}:{} (seed {}, {})", Integer.toUnsignedString(config.nodeId()),
                config.group().getHostAddress(), config.port(), seed, config);
        return session;
    }

    // ---- public API ------------------------------------------------------------------------------------------------

    /** The sender (enqueue objects here). */
    public NormSender sender() {
        return sender;
    }

    @Override
    public NormConfig config() {
        return config;
    }

    @Override
    public int nodeId() {
        return config.nodeId();
    }

    @Override
    public NormCounters counters() {
        return counters;
    }

    /** The seed of the NACK back-off randomness (print it when a test fails). */
    public long seed() {
        return seed;
    }

    /** The UDP source port of this session's datagrams. */
    public int sourcePort() {
        return transport.transmitPort();
    }

    /** The transport in use: "epoll", "nio" or "jdk". */
    public String transportKind() {
        return transport.kind();
    }

    /** Runs {@code task} on the event loop and waits for its result (for tools and tests). */
    public <T> T call(Supplier<T> task) {
        if (loop.inEventLoop()) {
            return task.get();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                result.complete(task.get());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        try {
            return result.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("event loop did not answer within 30 s", e);
        }
    }

    /** Bytes the receivers hold now for incomplete objects (at most {@code receiveBufferBytes}). */
    public long receiveBufferBytesHeld() {
        return call(() -> remoteSenders.budget().used());
    }

    /** Remote senders the session keeps state for now (at most {@code maxRemoteSenders}). */
    public int remoteSenderCount() {
        return call(remoteSenders::size);
    }

    /** Node ids of the remote senders currently known. */
    public List<Integer> remoteSenderIds() {
        return call(remoteSenders::nodeIds);
    }

    /**
     * Waits until everything enqueued has been sent and the end-of-transmission FLUSH repetitions are done (receivers
     * had their chance to NACK); false on timeout.
     */
    public boolean awaitFlushed(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (closed) {
                return false;
            }
            if (call(sender::flushed)) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    /**
     * Closes the session: sends NORM_CMD(EOT), stops the event loop, reports every incomplete object of remote
     * senders as lost (SESSION_CLOSED) and releases every buffer. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (!loop.isShuttingDown()) {
                call(() -> {
                    // Remote senders first: their "leaving" acknowledgements go out with our EOT in one flush.
                    remoteSenders.closeAll(LossReason.SESSION_CLOSED);
                    sender.endOfTransmission();
                    transmitNow();
                    sender.close();
                    if (wakeFuture != null) {
                        wakeFuture.cancel(false);
                    }
                    return null;
                });
            }
        } catch (RuntimeException e) {
            LOG.warn("error while closing session {}", Integer.toUnsignedString(nodeId()), e);
        } finally {
            transport.close();
        }
        LOG.info("NORM session node {} closed (grtt {} ms): {}", Integer.toUnsignedString(nodeId()),
                String.format("%.3f", sender.grttSeconds() * 1000), counters);
    }

    /**
     * Receive-side back-pressure: while {@code condition} holds (read on the event loop whenever a watermark
     * acknowledgement is due), this node's receivers answer no NORM_CMD(FLUSH) acknowledgement request. Senders that
     * track this node (ack-based flow control) then keep their cached objects and, once their cache is full, block
     * their publishers, for up to their maximum hold time; NACKs and repairs go on as usual. The JMS layer holds
     * while a consumer's queue is backed up, so that a fast publisher slows down instead of overflowing it.
     */
    public void holdAcknowledgementsWhile(BooleanSupplier condition) {
        this.acknowledgementHold = condition == null ? NEVER : condition;
    }

    @Override
    public org.fjm2.norm.util.LogLimiters<RemoteEvent> remoteEvents() {
        return remoteEvents;
    }

    @Override
    public boolean acknowledgementsHeld() {
        return acknowledgementHold.getAsBoolean();
    }

    public boolean isClosed() {
        return closed;
    }

    // ---- NormContext ----------------------------------------------------------------------------------------------

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public long micros() {
        return (System.nanoTime() - baseNanos) / 1000 + 1_000_000L;
    }

    @Override
    public TimerQueue timers() {
        return timers;
    }

    @Override
    public PacketOutput output() {
        return output;
    }

    @Override
    public NormListener listener() {
        return listener;
    }

    @Override
    public SplittableRandom random() {
        return random;
    }

    @Override
    public int nextSequence() {
        int s = sequence;
        sequence = (sequence + 1) & 0xFFFF;
        return s;
    }

    @Override
    public void wakeTransmitter() {
        if (loop.inEventLoop()) {
            transmitRequested = true;
            if (!inPass && wakeScheduled.compareAndSet(false, true)) {
                loop.execute(wakeTask);
            }
        } else if (wakeScheduled.compareAndSet(false, true)) {
            loop.execute(wakeTask);
        }
    }

    // ---- the event loop pass -------------------------------------------------------------------------------------

    private void onWake() {
        wakeScheduled.set(false);
        pass();
    }

    private void onTimerWake() {
        wakeFuture = null;
        wakeDeadline = Long.MAX_VALUE;
        pass();
    }

    /** One pass: fire due timers, transmit what pacing allows, flush writes, arm the next wake-up. */
    private void pass() {
        if (closed && loop.isShuttingDown()) {
            return;
        }
        inPass = true;
        try {
            now = System.nanoTime();
            timers.runExpired(now);
            transmitNow();
        } catch (RuntimeException e) {
            counters.increment(Counter.INTERNAL_ERRORS);
            logFailure("event loop pass", e);
        } finally {
            inPass = false;
        }
        armWake();
    }

    private long nextTransmit = Long.MAX_VALUE;

    private void transmitNow() {
        transmitRequested = false;
        if (transport.isWritable()) {
            nextTransmit = sender.transmit(now);
        } else {
            nextTransmit = Long.MAX_VALUE;      // resumes on onWritable
        }
        transport.flush();
    }

    private void armWake() {
        if (closed) {
            return;
        }
        if (transmitRequested) {
            transmitRequested = false;
            if (wakeScheduled.compareAndSet(false, true)) {
                loop.execute(wakeTask);
            }
        }
        long deadline = Math.min(timers.nextDeadline(), nextTransmit);
        if (deadline == Long.MAX_VALUE) {
            return;
        }
        if (wakeFuture != null) {
            if (wakeDeadline - deadline <= 0) {
                return;     // an earlier or equal wake-up is already armed
            }
            wakeFuture.cancel(false);
        }
        long delay = Math.max(0, deadline - System.nanoTime());
        wakeDeadline = deadline;
        wakeFuture = loop.schedule(timerTask, delay, TimeUnit.NANOSECONDS);
    }

    // ---- receive dispatch ----------------------------------------------------------------------------------------

    private void onDatagram(ByteBuf datagram, InetSocketAddress from) {
        now = System.nanoTime();
        counters.increment(Counter.PACKETS_RECEIVED);
        counters.add(Counter.BYTES_RECEIVED, datagram.readableBytes());
        if (protection != null && !protection.unprotect(datagram)) {
            refused(protection.lastRefusal(), from);
            return;
        }
        PacketError error = NormPacketValidator.validate(datagram);
        if (error != null) {
            counters.increment(Counter.MALFORMED_DROPPED);
            if (LOG.isDebugEnabled()) {
                LOG.debug("dropped datagram of {} bytes from {}: {}", datagram.readableBytes(), from, error);
            }
            return;
        }
        int sourceId = datagram.getInt(datagram.readerIndex() + 4);
        if (sourceId == config.nodeId()) {
            counters.increment(Counter.OWN_PACKETS_IGNORED);
            return;
        }
        if (config.rxLoss().drop(datagram)) {
            counters.increment(Counter.RX_LOSS_INJECTED);
            return;
        }
        int type = datagram.getUnsignedByte(datagram.readerIndex()) & 0x0F;
        switch (type) {
            case NormWire.TYPE_DATA:
            case NormWire.TYPE_INFO: {
                objectMessage.wrap(datagram);
                RemoteSender rs = remoteSenders.heard(sourceId, objectMessage.instanceId(), from);
                rs.onObjectMessage(objectMessage, from);
                break;
            }
            case NormWire.TYPE_CMD: {
                command.wrap(datagram);
                RemoteSender rs = remoteSenders.heard(sourceId, command.instanceId(), from);
                rs.onCommand(command, from);
                break;
            }
            case NormWire.TYPE_NACK: {
                feedback.wrap(datagram);
                if (feedback.serverId() == config.nodeId()) {
                    sender.onNack(feedback);
                } else {
                    RemoteSender rs = remoteSenders.get(feedback.serverId());
                    if (rs != null && rs.instanceId() == feedback.instanceId()) {
                        rs.onOtherNack(feedback);
                    }
                }
                break;
            }
            case NormWire.TYPE_ACK: {
                feedback.wrap(datagram);
                if (feedback.serverId() == config.nodeId()) {
                    sender.onAck(feedback);
                }
                break;
            }
            default:
                break;
        }
    }

    /** A datagram group security refused: counted by reason, logged once a second at most. */
    private void refused(PacketProtection.Refusal why, InetSocketAddress from) {
        switch (why) {
            case REPLAYED:
                counters.increment(Counter.REPLAYS_DROPPED);
                break;
            case TOO_OLD:
                counters.increment(Counter.STALE_DROPPED);
                break;
            default:
                counters.increment(Counter.UNAUTHENTIC_DROPPED);
                break;
        }
        if (refusedLog.allow()) {
            String reason = why == PacketProtection.Refusal.TOO_OLD
                    ? "authentic but dated more than " + PacketProtection.DEFAULT_MAX_AGE.toMinutes()
                    + " min ago (a replayed capture, or the sender's clock lags ours)"
                    : why == PacketProtection.Refusal.REPLAYED ? "a replay" : "not authentic under the group key ("
                    + why.name().toLowerCase().replace('_', ' ') + ")";
            LOG.warn("dropped a datagram from {}: {} ({} more refused since the last line)", from, reason,
                    refusedLog.takeSuppressed());
        }
    }

    /** An unexpected exception while handling network input: counted, and logged once a second at most. */
    private void logFailure(String what, RuntimeException e) {
        if (failureLog.allow()) {
            LOG.error("session {}: {} failed ({} more failures since the last line)",
                    Integer.toUnsignedString(nodeId()), what, failureLog.takeSuppressed(), e);
        }
    }

    private final class TransportHandler implements DatagramTransport.Handler {
        @Override
        public void onDatagram(ByteBuf datagram, InetSocketAddress sender) {
            if (!closed) {
                inPass = true;
                try {
                    NormSession.this.onDatagram(datagram, sender);
                } catch (RuntimeException e) {
                    counters.increment(Counter.INTERNAL_ERRORS);
                    logFailure("a datagram from " + sender, e);
                } finally {
                    inPass = false;
                }
            }
        }

        @Override
        public void onReadComplete() {
            if (!closed) {
                pass();
            }
        }

        @Override
        public void onWritable() {
            if (!closed) {
                pass();
            }
        }
    }

    private final class Output implements PacketOutput {
        @Override
        public ByteBuf allocate(int capacity) {
            return transport.allocate(capacity + protectionOverhead);
        }

        @Override
        public ByteBuf allocateHeap(int capacity) {
            return transport.allocator().heapBuffer(capacity);
        }

        @Override
        public io.netty.buffer.ByteBufAllocator allocator() {
            return transport.allocator();
        }

        @Override
        public boolean gathersWrites() {
            // Protection seals the datagram in place.
            return protection == null && transport.gathersWrites();
        }

        @Override
        public ByteBuf gather(ByteBuf header, ByteBuf payload) {
            return transport.allocator().compositeDirectBuffer(2).addComponents(true, header, payload);
        }

        @Override
        public void sendToGroup(ByteBuf datagram) {
            if (config.txLoss().drop(datagram)) {
                counters.increment(Counter.TX_LOSS_INJECTED);
                datagram.release();
                return;
            }
            counters.increment(Counter.PACKETS_SENT);
            counters.add(Counter.BYTES_SENT, datagram.readableBytes());
            if (protection != null) {
                protection.protect(datagram);
            }
            transport.writeToGroup(datagram);
        }

        @Override
        public void sendTo(ByteBuf datagram, InetSocketAddress destination) {
            if (config.txLoss().drop(datagram)) {
                counters.increment(Counter.TX_LOSS_INJECTED);
                datagram.release();
                return;
            }
            counters.increment(Counter.PACKETS_SENT);
            counters.add(Counter.BYTES_SENT, datagram.readableBytes());
            if (protection != null) {
                protection.protect(datagram);
            }
            transport.writeTo(datagram, destination);
        }
    }
}
