package org.fjm2.norm;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters;
import org.fjm2.norm.api.NormListener;
import org.fjm2.norm.engine.SessionEngine;
import org.fjm2.norm.sender.NormSender;
import org.fjm2.norm.transport.DatagramTransport;

/**
 * A NORM session (RFC 5740): a node on group:port that sends objects and receives the objects of every other sender
 * in the group, complete, in order per sender, or reported lost. This is the engine's whole public face: open and
 * close, {@link #enqueue} objects, ask receivers to {@link #requestAcknowledgement acknowledge}, hear events through
 * the {@link NormListener}, read the {@link NormCounters}. Settings are a {@link NormConfig}.
 *
 * <p>All protocol work runs on the session's own event-loop thread; the methods here may be called from any thread.
 */
public final class NormSession implements AutoCloseable {

    /** How long {@link #awaitFlushed} waits after the FLUSHes when the sender heard no receiver at all. */
    public static final Duration UNHEARD_LINGER = Duration.ofNanos(NormSender.UNHEARD_LINGER_NANOS);

    private final SessionEngine engine;

    private NormSession(SessionEngine engine) {
        this.engine = engine;
    }

    /** Opens a session with a random back-off seed. */
    public static NormSession open(NormConfig config, NormListener listener) throws IOException {
        return open(config, listener, ThreadLocalRandom.current().nextLong());
    }

    /** Opens a session whose NACK back-off randomness comes from {@code seed} (print it when a test fails). */
    public static NormSession open(NormConfig config, NormListener listener, long seed) throws IOException {
        return open(config, listener, seed, DatagramTransport.Factory.SOCKETS);
    }

    /**
     * Opens a session over the transports {@code transports} makes: sockets by default; a test layer such as
     * {@link org.fjm2.norm.transport.LossyTransport}, or an in-memory transport, in tests and tools.
     */
    public static NormSession open(NormConfig config, NormListener listener, long seed,
                                   DatagramTransport.Factory transports) throws IOException {
        return new NormSession(SessionEngine.open(config, listener, seed, transports));
    }

    // ---- sending ---------------------------------------------------------------------------------------------------

    /**
     * Queues an object for transmission, blocking while the repair cache is full (back-pressure). Takes ownership of
     * {@code data} and {@code info} (info may be null: no NORM_INFO), releasing them also on failure.
     *
     * @param priority 0..9, higher first
     * @return a ticket identifying the object in later events, or -1 when the timeout expired first
     */
    public long enqueue(ByteBuf data, ByteBuf info, int priority, long timeout, TimeUnit unit)
            throws InterruptedException {
        return engine.sender().enqueue(data, info, priority, timeout, unit);
    }

    /**
     * Asks the given receivers to acknowledge everything up to the last object enqueued so far. The result arrives
     * through {@link NormListener#onAcknowledgementComplete} once every node answered or the FLUSH repetitions ran
     * out.
     */
    public void requestAcknowledgement(int... nodeIds) {
        engine.sender().requestAcknowledgement(nodeIds);
    }

    /**
     * Opens a stream (NORM_OBJECT_STREAM) with a buffer of about {@code bufferBytes} (whole FEC blocks, at least two):
     * what the sender can still repair, and what receivers are told to keep. A session sends objects or one stream
     * at a time: nothing may be queued or cached when it opens, and {@link #enqueue} refuses objects until the stream
     * was closed and its end went out.
     *
     * @throws IllegalStateException when objects are still queued or cached, or a stream is open
     */
    public NormStream openStream(long bufferBytes) {
        return openStream(bufferBytes, null);
    }

    /**
     * As {@link #openStream(long)}, the stream carrying a NORM_INFO (at most a segment: a name, a content type; NRL's
     * NormStreamOpen with info): sent before the stream's first data and again to receivers that ask for it; fjm2
     * receivers get it through {@link org.fjm2.norm.api.NormListener#onStreamInfo}, NRL's as NORM_RX_OBJECT_INFO.
     *
     * @param info null: none
     * @throws IllegalArgumentException when the info is longer than a segment
     */
    public NormStream openStream(long bufferBytes, byte[] info) {
        if (bufferBytes <= 0) {
            throw new IllegalArgumentException("stream buffer must be positive: " + bufferBytes);
        }
        byte[] copy = info == null ? null : info.clone();
        try {
            return new NormStream(engine.call(() -> engine.sender().openStream(bufferBytes, copy)));
        } catch (IllegalStateException e) {
            if (e.getCause() instanceof RuntimeException refused) {
                throw refused;      // why the event loop refused, as it said it
            }
            throw e;
        }
    }

    /** Objects enqueued whose transmission has not started yet. */
    public int pendingObjects() {
        return engine.sender().pendingObjects();
    }

    /** Whether an application thread waits in {@link #enqueue} for room in the cache. */
    public boolean hasWaitingProducers() {
        return engine.sender().hasWaitingProducers();
    }

    /** Bytes the sender holds (queued and cached). */
    public long cachedBytesHeld() {
        return engine.sender().cachedBytesHeld();
    }

    /** Receivers whose acknowledgements flow control waits for. */
    public int trackedReceivers() {
        return engine.call(() -> engine.sender().trackedReceivers());
    }

    /** The rate the sender's rate controller allows now, bit/s (the configured rate unless it adapts). */
    public long txRateBitsPerSecond() {
        return engine.call(() -> engine.sender().txRateBitsPerSecond());
    }

    /** The group round-trip time this sender advertises, seconds. */
    public double grttSeconds() {
        return engine.sender().grttSeconds();
    }

    /**
     * Waits until everything enqueued has been sent and the end-of-transmission FLUSH repetitions are done (receivers
     * had their chance to NACK), and, when the sender never heard any receiver, {@link #UNHEARD_LINGER} more while it
     * still answers repairs; false on timeout.
     */
    public boolean awaitFlushed(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (engine.isClosed()) {
                return false;
            }
            if (engine.call(() -> engine.sender().flushed())) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    // ---- receiving ---------------------------------------------------------------------------------------------------

    /**
     * Receive-side back-pressure: while {@code condition} holds (read on the event loop whenever a watermark
     * acknowledgement is due), this node's receivers answer no NORM_CMD(FLUSH) acknowledgement request, and tell
     * senders that offer receiver-paced flow control that they read nothing further: such a sender stops after one
     * receive window until the condition clears (a keep-alive report every 50 ms tells it we live). Senders without
     * flow control keep their cached objects and, once their cache is full, block their publishers, for up to their
     * maximum hold time; NACKs and repairs go on as usual.
     */
    public void holdAcknowledgementsWhile(BooleanSupplier condition) {
        engine.holdAcknowledgementsWhile(condition);
    }

    /** Node ids of the remote senders known now. */
    public List<Integer> remoteSenderIds() {
        return engine.remoteSenderIds();
    }

    /** Remote senders the session keeps state for now (at most {@code maxRemoteSenders}). */
    public int remoteSenderCount() {
        return engine.call(() -> engine.remoteSenders().size());
    }

    /** Bytes the receivers hold now for incomplete objects (at most {@code receiveBufferBytes}). */
    public long receiveBufferBytesHeld() {
        return engine.call(() -> engine.remoteSenders().budget().used());
    }

    // ---- the session -------------------------------------------------------------------------------------------------

    public NormConfig config() {
        return engine.config();
    }

    public int nodeId() {
        return engine.nodeId();
    }

    /** The session's counters (any thread). */
    public NormCounters counters() {
        return engine.counters();
    }

    /** The seed of the NACK back-off randomness. */
    public long seed() {
        return engine.seed();
    }

    /** The NORM instance_id of this session's sender (a restarted node has a new one). */
    public int instanceId() {
        return engine.sender().instanceId();
    }

    /** The UDP source port of this session's datagrams. */
    public int sourcePort() {
        return engine.sourcePort();
    }

    /** The transport in use: "epoll", "nio" or "jdk". */
    public String transportKind() {
        return engine.transportKind();
    }

    /** Runs {@code task} on the session's event loop and waits for its result (tools and tests). */
    public <T> T call(Supplier<T> task) {
        return engine.call(task);
    }

    public boolean isClosed() {
        return engine.isClosed();
    }

    /**
     * Closes the session: sends NORM_CMD(EOT), reports every incomplete object of remote senders as lost
     * (SESSION_CLOSED), releases every buffer and stops the event loop. Idempotent.
     */
    @Override
    public void close() {
        engine.close();
    }
}
