package org.fjm2.norm.sender;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.fec.ParityEncoder;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.sender.TxQueues.Submission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NORM sender of a session (RFC 5740 section 5.1/5.3): segments objects into FEC blocks, paces NORM_DATA
 * onto the wire in priority and object order, keeps a bounded repair cache, aggregates NACKs and answers them
 * (parity first when FEC is configured), flushes at the end of transmission, squelches what it no longer holds,
 * probes the group round-trip time, and runs positive-acknowledgement (watermark) rounds.
 *
 * <p>This class is the sender's API (admission of objects and acknowledgement requests, from any thread) and puts
 * its parts together, each with one job: {@link TransmitLoop} (what goes out, when), {@link WatermarkRounds}
 * (FLUSHes: acknowledgement rounds, end of stream, idle announcements), {@link FeedbackHandler} (NACKs and ACKs),
 * {@link SenderState} (the phase and what is due), {@link TxQueues} (objects waiting by priority),
 * {@link TxWindow} (the repair cache ring), {@link SenderPackets} (building datagrams), {@link RepairScheduler}
 * (NACKs into repairs), {@link CacheEviction} (making room), {@link ProbeSchedule} (when to probe GRTT) and
 * {@link Acknowledgements} (receivers' progress); beside them {@link StreamSender} sends the session's stream
 * (NORM_OBJECT_STREAM), if one is open.
 *
 * <p>{@link #enqueue} and {@link #requestAcknowledgement} are thread-safe; everything else runs on the session's
 * event loop.
 */
public final class NormSender {

    /**
     * How long a sender that heard no receiver at all stays flushing after its FLUSHes: they spanned a GRTT it could
     * not measure, and a receiver behind a tunnel lost the tail of a publisher's messages in the three-LAN mesh
     * because its NACKs came after the publisher had closed 2 s into its life, never having heard anyone.
     */
    public static final long UNHEARD_LINGER_NANOS = 1_000_000_000L;
    private static final long NOT_FLUSHED = Long.MIN_VALUE;

    /** When {@link #flushed} first found the end of transmission done without any receiver heard (event loop). */
    private long unheardFlushedAt = NOT_FLUSHED;

    private static final Logger LOG = LoggerFactory.getLogger(NormSender.class);

    /** JMS priorities 0..9 map to ten transmit queues; higher is sent first. */
    public static final int PRIORITIES = 10;
    /** SQUELCH repetitions announcing the first object id of a new sender instance. */
    static final int START_SQUELCHES = 5;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final int instanceId;
    private final TxAdmission admission;
    private final TxQueues queues = new TxQueues(PRIORITIES);
    private final AtomicLong nextTicket = new AtomicLong();
    private final GrttEstimator grtt;
    private final TxWindow window;
    private final Acknowledgements acks;
    private final SenderState state = new SenderState(START_SQUELCHES);
    private final WatermarkRounds rounds;
    private final TransmitLoop loop;
    private final FeedbackHandler feedback;
    private final StreamSender streams;
    private final RateController rate;

    public NormSender(ProtocolContext ctx, ParityEncoder parityEncoder) {
        this.ctx = ctx;
        this.config = ctx.config();
        if (config.parity() > 0 && parityEncoder == null) {
            throw new IllegalArgumentException("parity: no FEC encoder available");
        }
        this.instanceId = ThreadLocalRandom.current().nextInt(1, 0x10000);
        this.admission = new TxAdmission(config.txCacheBytes(), config.txCacheObjects(), () -> {
            ctx.counters().incrementFromAnyThread(Counter.PRODUCER_WAITS);
            ctx.wakeTransmitter();
        });
        this.rate = switch (config.rateControl()) {
            case ADAPTIVE -> new AdaptiveRateController(config.txRate());
            case AUTO -> new AutoRateController(config.txRate());
            case FIXED -> new FixedRateController(config.txRate());
            case CC -> new CcRateController(config.txRate(), config.segmentSize());
        };
        this.grtt = new GrttEstimator(seconds(config.grttInitial()), seconds(config.grttMin()), seconds(config.grttMax()));
        grtt.packetInterval((config.segmentSize() + SenderPackets.HEADER_ROOM) * 8.0 / config.txRate());
        this.window = new TxWindow(config.txCacheObjects(), ThreadLocalRandom.current().nextInt(0x10000));
        this.acks = new Acknowledgements(true, config.maxReceivers(),
                Acknowledgements.NO_PROGRESS_HOLDS * config.maxHold().toNanos(), ctx);
        AdvertisedBackoff backoff = new AdvertisedBackoff(config, acks::trackedCount);
        SenderPackets packets = new SenderPackets(ctx, instanceId, grtt, parityEncoder, backoff);
        RepairScheduler repairs = new RepairScheduler(ctx, window, grtt, backoff);
        CacheEviction eviction = new CacheEviction(ctx, window, queues, admission, acks, grtt);
        // Probing goes on while a round waits for acknowledgements: a GRTT inflated at the end of a burst must come down
        // for the repairs that round may need (their timers scale with it), and only answered probes bring it down.
        ProbeSchedule probes = new ProbeSchedule(ctx, () -> state.isIdle() && !acks.roundActive(), rate, grtt);
        this.streams = new StreamSender(ctx, instanceId, grtt, backoff, rate, probes, parityEncoder,
                () -> window.count() == 0);
        repairs.ignore(id -> streams.handles(id, window.count() == 0));
        this.rounds = new WatermarkRounds(ctx, state, acks, window, queues, admission, grtt, rate, packets, eviction,
                this::hasWork);
        FlowWindow flow = new FlowWindow(ctx, acks, grtt, () -> {
            probes.now();
            ctx.wakeTransmitter();
        });
        PathCache pathCache = new PathCache(admission, config.txCacheBytes(), config.txCacheBytesMax(),
                acks::longestLeastRttNanos);
        this.loop = new TransmitLoop(ctx, state, queues, window, packets, rate, probes, eviction, acks, rounds, flow,
                pathCache);
        this.feedback = new FeedbackHandler(ctx, instanceId, state, acks, repairs, grtt, probes, rate, eviction,
                rounds, flow);
    }

    private static double seconds(java.time.Duration d) {
        return d.toNanos() / 1e9;
    }

    private boolean hasWork() {
        return loop.hasWork();
    }

    /** The rate the controller lets the sender send at now, bit/s (event loop only). */
    public long txRateBitsPerSecond() {
        return rate.rateBitsPerSecond();
    }

    // ---- application side (any thread) ----------------------------------------------------------------------------

    /**
     * Queues an object for transmission, blocking while the repair cache is full. Takes ownership of
     * {@code data} and {@code info} (info may be null), releasing them also on failure.
     *
     * @param priority 0..9, higher first
     * @return a ticket identifying the object in later events, or -1 when the timeout expired first
     */
    public long enqueue(ByteBuf data, ByteBuf info, int priority, long timeout, TimeUnit unit)
            throws InterruptedException {
        boolean admitted = false;
        try {
            int size = data.readableBytes();
            if (size == 0) {
                throw new IllegalArgumentException("an object must have at least one byte");
            }
            if (size > config.maxObjectSize()) {
                throw new IllegalArgumentException("object of " + size + " bytes exceeds maxObjectSize "
                        + config.maxObjectSize());
            }
            if (info != null && info.readableBytes() > config.segmentSize()) {
                throw new IllegalArgumentException("NORM_INFO of " + info.readableBytes()
                        + " bytes exceeds the segment size " + config.segmentSize());
            }
            if (priority < 0 || priority >= PRIORITIES) {
                throw new IllegalArgumentException("priority must be 0..9, got " + priority);
            }
            if (streams.isOpen()) {
                throw new IllegalStateException("a stream is open: end it before sending objects");
            }
            if (!admission.reserve(size, timeout, unit)) {
                return -1;
            }
            admitted = true;
            long ticket = nextTicket.getAndIncrement();
            queues.offer(new Submission(ticket, data, info, priority, size));
            ctx.wakeTransmitter();
            return ticket;
        } finally {
            if (!admitted) {
                data.release();
                if (info != null) {
                    info.release();
                }
            }
        }
    }

    /**
     * Opens a stream (NORM_OBJECT_STREAM) with a buffer of {@code bufferBytes} (event loop). A session sends either
     * objects or one stream at a time: nothing may be queued or cached, and objects are refused until the stream is
     * finished.
     */
    public StreamWriter openStream(long bufferBytes, byte[] info) {
        if (queues.size() > 0 || window.count() > 0) {
            throw new IllegalStateException("objects are queued or cached (" + queues.size() + " queued, "
                    + window.count() + " cached): a stream opens once they are gone");
        }
        return streams.open(window.reserveId(), bufferBytes, info);
    }

    /** Objects enqueued whose transmission has not started yet. */
    public int pendingObjects() {
        return queues.size();
    }

    /** Whether an application thread waits in {@link #enqueue} for cache room (batching producers keep batching). */
    public boolean hasWaitingProducers() {
        return admission.hasWaiters();
    }

    /** Ticket the next enqueued object will get. */
    public long nextTicket() {
        return nextTicket.get();
    }

    /**
     * Asks the given receivers to acknowledge everything up to the last object enqueued so far (its last segment
     * is the watermark). The result arrives through {@link org.fjm2.norm.api.NormListener#onAcknowledgementComplete}
     * once every node answered or the FLUSH repetitions (robust factor) ran out.
     */
    public void requestAcknowledgement(int... nodeIds) {
        long last = nextTicket.get() - 1;
        if (last < 0) {
            throw new IllegalStateException("nothing was enqueued");
        }
        rounds.request(new WatermarkRounds.UserRequest(last, nodeIds.clone()));
        ctx.wakeTransmitter();
    }

    public int instanceId() {
        return instanceId;
    }

    /** The advertised GRTT in seconds. */
    public double grttSeconds() {
        return grtt.advertised();
    }

    // ---- event loop ------------------------------------------------------------------------------------------------

    /**
     * Runs the transmit loop: sends while the rate allows and there is something to send. Returns the time at which
     * it wants to run again for pacing, or Long.MAX_VALUE when only timers or new data can wake it.
     */
    public long transmit(long now) {
        long next = loop.transmit(now);
        return Math.min(next, streams.transmit(now));
    }

    /** Called when the session starts; probing begins with the first data sent. */
    public void start() {
    }

    /** A NORM_NACK addressed to this sender. */
    public void onNack(FeedbackFlyweight nack) {
        feedback.onNack(nack);
        if (nack.instanceId() == instanceId) {
            streams.onNack(nack);
        }
    }

    /** A NORM_ACK addressed to this sender. */
    public void onAck(FeedbackFlyweight ack) {
        feedback.onAck(ack);
    }

    // ---- state -------------------------------------------------------------------------------------------------

    /** Bytes the sender holds (queued and cached), as admission accounts them; any thread. */
    public long cachedBytesHeld() {
        return admission.bytesHeld();
    }

    /** Receivers whose acknowledgements flow control waits for (event loop). */
    public int trackedReceivers() {
        return acks.trackedCount();
    }

    /** Objects currently cached for repair. */
    public int cachedObjects() {
        return window.count();
    }

    public long cachedBytes() {
        return window.bytes();
    }

    /** Whether everything enqueued has been sent and no repair or flush is pending. */
    public boolean isIdle() {
        return state.isIdle() && queues.size() == 0 && !loop.hasWork();
    }

    /**
     * Whether what was sent is delivered as far as this sender can tell: nothing left to send, no round under way,
     * no receiver heard within the receiver timeout (tracked, or suspended for silence) still owing an
     * acknowledgement of the newest object, and the end-of-transmission FLUSH repetitions done unless every tracked
     * receiver acknowledged it. A closing sender waits for this up to its caller's linger: in a three-LAN mesh test a
     * subscriber behind two tunnels, starved of CPU while the last round waited, was suspended, the round completed
     * without it, and the publisher closed with that subscriber lacking its last 4 objects. Meanwhile the stream-end
     * FLUSHes go on naming the newest object, so that such a receiver NACKs what it lacks.
     */
    /**
     * Whether this sender holds objects it sent and has never heard any receiver: the FLUSHes of its end of
     * transmission span a GRTT it could not measure, and receivers it cannot know about (behind a tunnel, whose
     * feedback takes longer than those FLUSHes) may still ask for repairs.
     */
    private boolean sentUnheard() {
        return window.count() > 0 && !acks.everTracked();
    }

    /**
     * Whether everything sent is flushed (receivers had their chance to NACK): the end of transmission done, or
     * every receiver acknowledged; a sender that heard no receiver at all is flushed only
     * {@link #UNHEARD_LINGER_NANOS} later, answering repairs meanwhile.
     */
    public boolean flushed() {
        boolean flushed = flushedAsFarAsKnown();
        if (!flushed || !sentUnheard()) {
            unheardFlushedAt = NOT_FLUSHED;
            return flushed;
        }
        long now = ctx.nanoTime();
        if (unheardFlushedAt == NOT_FLUSHED) {
            unheardFlushedAt = now;
        }
        return now - unheardFlushedAt >= UNHEARD_LINGER_NANOS;
    }

    private boolean flushedAsFarAsKnown() {
        if (!isIdle() || rounds.busy()) {
            return false;
        }
        if (window.count() == 0) {
            return state.endingDone(config.robustFactor());
        }
        int newest = window.newestId();
        if (acks.owedByReceiverHeardSince(newest, ctx.nanoTime() - config.receiverTimeout().toNanos())) {
            return false;
        }
        return (acks.hasReceivers() && acks.acknowledged(newest)) || state.endingDone(config.robustFactor());
    }

    /**
     * Sends NORM_CMD(EOT) at the next opportunity (graceful shutdown), if this node ever sent an object: a node that
     * only received stays silent, or every other node (NRL NORM ones too) would take it for a new sender.
     */
    public void endOfTransmission() {
        if (!state.hasSent() && !streams.hasSent()) {
            return;
        }
        state.due(SenderState.DUE_EOT);
        ctx.wakeTransmitter();
    }

    /** Releases every buffer (event loop, at session close). Waiting enqueuers get an IllegalStateException. */
    public void close() {
        admission.close();
        streams.close();
        queues.releaseAll();
        window.clear();
        if (acks.userRequested()) {
            rounds.completeUserRequest();
        }
        LOG.debug("sender {} closed", Integer.toUnsignedString(ctx.nodeId()));
    }

    /** Used by tests: ids the window holds. */
    List<Integer> cachedObjectIds() {
        return window.ids();
    }
}
