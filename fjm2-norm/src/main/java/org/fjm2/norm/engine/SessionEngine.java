package org.fjm2.norm.engine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoop;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.fec.ParityEncoder;
import org.fjm2.norm.protocol.PacketOutput;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.RemoteEvent;
import org.fjm2.norm.protocol.TimerQueue;
import org.fjm2.norm.receiver.RemoteSenderTable;
import org.fjm2.norm.security.PacketProtection;
import org.fjm2.norm.sender.NormSender;
import org.fjm2.norm.transport.DatagramTransport;
import org.fjm2.norm.transport.SocketBufferLimits;
import org.fjm2.norm.util.LogLimiter;
import org.fjm2.norm.util.LogLimiters;
import org.fjm2.norm.util.LoopWake;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine of one NORM session: the event-loop agent that owns all protocol state — the sender, the receiver
 * state of every remote sender, the timers — and runs it in passes: datagrams in through a chain of
 * {@link InboundStep}s (authenticate, validate, drop our own echo, dispatch), then due timers, then what pacing
 * allows of the transmit loop, then one flush of the writes. Application threads only hand objects to the sender
 * (through a queue) and ask for results with {@link #call}. Behind {@link org.fjm2.norm.NormSession}.
 */
public final class SessionEngine implements ProtocolContext, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionEngine.class);

    private static final BooleanSupplier NEVER = () -> false;
    private volatile BooleanSupplier acknowledgementHold = NEVER;
    private final NormConfig config;
    /** When the session opened: see {@link ProtocolContext#openedNanos}. */
    private final long openedNanos = System.nanoTime();
    private final NormListener listener;
    private final DatagramTransport transport;
    private final EventLoop loop;
    private final LoopWake wake;
    private final TimerQueue timers = new TimerQueue();
    private final NormCounters counters = new NormCounters();
    private final SplittableRandom random;
    private final long seed;
    private final long baseNanos = System.nanoTime();
    private final NormSender sender;
    private final RemoteSenderTable remoteSenders;
    private final InboundStep[] inbound;
    private final PacketOutput output;
    private final LogLimiter failureLog = new LogLimiter(LogLimiter.DEFAULT_INTERVAL_NANOS);
    private final LogLimiters<RemoteEvent> remoteEvents = new LogLimiters<>(RemoteEvent.class);
    private long now;
    private boolean inPass;
    private boolean transmitRequested;
    private long nextTransmit = Long.MAX_VALUE;
    private volatile boolean closed;
    private int sequence;

    private SessionEngine(NormConfig config, NormListener listener, long seed, ParityEncoder encoder,
                          BlockDecoder decoder, DatagramTransport.Factory transports) {
        this.config = config;
        this.listener = listener;
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        PacketProtection protection = config.protection() == null ? null
                : new PacketProtection(config.protection(), config.groupKey(), config.nodeId(), config.group(),
                        config.port());
        this.transport = transports.create(config, new TransportEvents(),
                "norm-" + Integer.toUnsignedString(config.nodeId()));
        this.loop = transport.eventLoop();
        this.wake = new LoopWake(loop, this::pass);
        this.output = new OutboundPath(transport, protection, counters);
        this.now = System.nanoTime();
        this.sender = new NormSender(this, encoder);
        this.remoteSenders = new RemoteSenderTable(this, decoder, transport::receiveBufferBytes);
        InboundStep validate = new ValidateStep(counters);
        InboundStep ownEcho = new OwnEchoStep(config.nodeId(), counters);
        InboundStep dispatch = new Dispatcher(config.nodeId(), sender, remoteSenders);
        this.inbound = protection == null ? new InboundStep[] {validate, ownEcho, dispatch}
                : new InboundStep[] {new AuthenticateStep(protection, counters), validate, ownEcho, dispatch};
    }

    /**
     * Opens a session over the transports {@code transports} makes, with explicit FEC plug-ins (null encoder: parity
     * must be 0; null decoder: no FEC receive).
     */
    public static SessionEngine open(NormConfig config, NormListener listener, long seed, ParityEncoder encoder,
                                     BlockDecoder decoder, DatagramTransport.Factory transports) throws IOException {
        SessionEngine session = new SessionEngine(config, listener == null ? new NormListener() { } : listener, seed,
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

    /** Opens a session with the default FEC plug-ins. */
    public static SessionEngine open(NormConfig config, NormListener listener, long seed,
                                     DatagramTransport.Factory transports) throws IOException {
        return open(config, listener, seed, FecSupport.encoder(config), FecSupport.decoder(), transports);
    }

    // ---- what the facade asks ----------------------------------------------------------------------------------------

    public NormSender sender() {
        return sender;
    }

    public RemoteSenderTable remoteSenders() {
        return remoteSenders;
    }

    public long seed() {
        return seed;
    }

    public int sourcePort() {
        return transport.transmitPort();
    }

    public String transportKind() {
        return transport.kind();
    }

    public boolean isClosed() {
        return closed;
    }

    /** Runs {@code task} on the event loop and waits for its result (at most 30 s). */
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

    public void holdAcknowledgementsWhile(BooleanSupplier condition) {
        this.acknowledgementHold = condition == null ? NEVER : condition;
    }

    /** Node ids of the remote senders known now. */
    public List<Integer> remoteSenderIds() {
        return call(remoteSenders::nodeIds);
    }

    /**
     * Sends NORM_CMD(EOT), reports every incomplete object of remote senders as lost (SESSION_CLOSED), releases every
     * buffer and stops the event loop. Idempotent.
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
                    wake.cancel();
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

    // ---- ProtocolContext --------------------------------------------------------------------------------------------

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

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public long openedNanos() {
        return openedNanos;
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
    public int currentSequence() {
        return sequence;
    }

    @Override
    public void wakeTransmitter() {
        if (loop.inEventLoop()) {
            transmitRequested = true;
            if (!inPass) {
                wake.now();
            }
        } else {
            wake.now();
        }
    }

    @Override
    public boolean acknowledgementsHeld() {
        return acknowledgementHold.getAsBoolean();
    }

    @Override
    public LogLimiters<RemoteEvent> remoteEvents() {
        return remoteEvents;
    }

    // ---- the event loop pass -------------------------------------------------------------------------------------

    /** One pass: fire due timers, transmit what pacing allows, flush writes, arm the next wake-up. */
    private void pass() {
        if (closed && loop.isShuttingDown()) {
            return;
        }
        inPass = true;
        try {
            now = System.nanoTime();
            remoteSenders.reportFlow(now);
            timers.runExpired(now);
            transmitNow();
        } catch (RuntimeException e) {
            failed("event loop pass", e);
        } finally {
            inPass = false;
        }
        armWake();
    }

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
            wake.now();
        }
        wake.at(Math.min(timers.nextDeadline(), nextTransmit));
    }

    /** One datagram through the inbound steps; a step that drops it has counted why. */
    private void onDatagram(ByteBuf datagram, InetSocketAddress from) {
        now = System.nanoTime();
        counters.increment(Counter.PACKETS_RECEIVED);
        counters.add(Counter.BYTES_RECEIVED, datagram.readableBytes());
        for (InboundStep step : inbound) {
            if (!step.pass(datagram, from)) {
                return;
            }
        }
    }

    /** An unexpected exception while handling network input or timers: counted, logged once a second at most. */
    private void failed(String what, RuntimeException e) {
        counters.increment(Counter.INTERNAL_ERRORS);
        if (failureLog.allow()) {
            LOG.error("session {}: {} failed ({} more failures since the last line)",
                    Integer.toUnsignedString(nodeId()), what, failureLog.takeSuppressed(), e);
        }
    }

    private final class TransportEvents implements DatagramTransport.Handler {
        @Override
        public void onDatagram(ByteBuf datagram, InetSocketAddress sender) {
            if (!closed) {
                inPass = true;
                try {
                    SessionEngine.this.onDatagram(datagram, sender);
                } catch (RuntimeException e) {
                    failed("a datagram from " + sender, e);
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

        @Override
        public void onInjectedLoss(boolean receiving) {
            counters.increment(receiving ? Counter.RX_LOSS_INJECTED : Counter.TX_LOSS_INJECTED);
        }
    }
}
