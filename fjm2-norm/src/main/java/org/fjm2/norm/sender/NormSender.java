package org.fjm2.norm.sender;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.sender.TxQueues.Submission;
import org.fjm2.norm.session.AckResult;
import org.fjm2.norm.session.NormConfig;
import org.fjm2.norm.session.NormContext;
import org.fjm2.norm.session.NormCounters.Counter;
import org.fjm2.norm.session.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NORM sender of a session (RFC 5740 section 5.1/5.3): segments objects into FEC blocks, paces NORM_DATA
 * onto the wire in priority and object order, keeps a bounded repair cache, aggregates NACKs and answers them
 * (parity first when FEC is configured), flushes at the end of transmission, squelches what it no longer holds,
 * probes the group round-trip time, and runs positive-acknowledgement (watermark) rounds.
 *
 * <p>This class keeps the public API, admission, the transmit loop, idle and FLUSH timing, and watermark rounds. Its
 * parts: {@link TxQueues} (objects waiting by priority), {@link TxWindow} (the repair cache ring),
 * {@link SenderPackets} (building datagrams), {@link RepairScheduler} (NACKs into repairs), {@link CacheEviction}
 * (making room), {@link ProbeSchedule} (when to probe GRTT) and {@link Acknowledgements} (receivers' progress).
 *
 * <p>{@link #enqueue} and {@link #requestAcknowledgement} are thread-safe; everything else runs on the session's
 * event loop.
 */
public final class NormSender {

    private static final Logger LOG = LoggerFactory.getLogger(NormSender.class);

    /** JMS priorities 0..9 map to ten transmit queues; higher is sent first. */
    public static final int PRIORITIES = 10;
    /** SQUELCH repetitions announcing the first object id of a new sender instance. */
    static final int START_SQUELCHES = 5;
    /**
     * A watermark round starts, while data flows, once this fraction (1/n) of the cache bound (bytes or objects) has
     * been sent since the last round began: acknowledgements then come back while the rest of the cache is being
     * sent, so the cache makes room without stopping the publisher for a round trip.
     */
    static final int ROUND_EVERY_CACHE_FRACTION = 4;
    /**
     * Bytes one transmit pass may send before it gives the event loop back: at high rates the loop would otherwise
     * send a whole cache before reading the acknowledgements and NACKs that arrived meanwhile, which inflates the
     * measured GRTT and delays every acknowledgement round (about 0.5 ms of sending at 1 GB/s).
     */
    static final int TRANSMIT_BURST_BYTES = 512 * 1024;
    /**
     * While the sender is idle and holds objects, a FLUSH naming the newest goes out this often (after the robust
     * factor's end-of-transmission FLUSHes): receivers that missed the end of a stream learn of it and NACK, and an
     * idle sender is not taken for gone (receivers time senders out after 10 s of silence).
     */
    static final long IDLE_FLUSH_INTERVAL_NANOS = 1_000_000_000L;

    private final NormContext ctx;
    private final NormConfig config;
    private final int instanceId;
    private final TxAdmission admission;
    private final TxQueues queues = new TxQueues(PRIORITIES);
    private final AtomicLong nextTicket = new AtomicLong();
    private final Queue<int[]> ackRequests = PlatformDependent.newMpscQueue();
    private final RateController rate;
    private final GrttEstimator grtt;
    private final TxWindow window;
    private final SenderPackets packets;
    private final RepairScheduler repairs;
    private final CacheEviction eviction;
    private final ProbeSchedule probes;

    private final Timer flushTimer;
    private int flushCount;
    private boolean idle = true;
    private boolean idleReported = true;
    private boolean squelchDue;
    /**
     * SQUELCH messages still to send before the first data of this instance: they tell receivers that started
     * before us where our objects begin, so one that loses the whole first object still asks for it.
     */
    private int startSquelches = START_SQUELCHES;
    private boolean eotDue;
    /** Whether this sender has started transmitting an object (it then announces its end with EOT). */
    private boolean started;
    private long lastTransmitNanos;

    // Receiver progress: watermark rounds and tracked receivers (flow control, and user acknowledgement requests).
    private final Acknowledgements acks;
    private boolean flushDue;
    /** Data whose first pass ended since the last watermark round began: past a fraction of the cache, ask again. */
    private long sentSinceRoundBytes;
    private int sentSinceRoundObjects;
    private final long roundEveryBytes;
    private final int roundEveryObjects;
    /** Whether the current round has sent its first FLUSH. */
    private boolean roundAsked;

    public NormSender(NormContext ctx, ParityEncoder parityEncoder) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.acks = new Acknowledgements(true, config.maxReceivers(), config.maxHold().toNanos(), ctx);
        if (config.parity() > 0 && parityEncoder == null) {
            throw new IllegalArgumentException("parity: no FEC encoder available");
        }
        this.instanceId = ThreadLocalRandom.current().nextInt(1, 0x10000);
        this.admission = new TxAdmission(config.txCacheBytes(), config.txCacheObjects(), () -> {
            ctx.counters().incrementFromAnyThread(Counter.PRODUCER_WAITS);
            ctx.wakeTransmitter();
        });
        this.rate = config.rateControl() == NormConfig.RateControl.ADAPTIVE
                ? new AdaptiveRateController(config.txRate()) : new FixedRateController(config.txRate());
        this.grtt = new GrttEstimator(seconds(config.grttInitial()), seconds(config.grttMin()), seconds(config.grttMax()));
        grtt.packetInterval((config.segmentSize() + SenderPackets.HEADER_ROOM) * 8.0 / config.txRate());
        this.window = new TxWindow(config.txCacheObjects(), ThreadLocalRandom.current().nextInt(0x10000));
        this.packets = new SenderPackets(ctx, instanceId, grtt, parityEncoder);
        this.repairs = new RepairScheduler(ctx, window, grtt);
        this.eviction = new CacheEviction(ctx, window, queues, admission, acks, grtt);
        this.probes = new ProbeSchedule(ctx, () -> idle);
        this.flushTimer = new Timer("sender-flush", this::onFlushTimer);
        this.flushCount = config.robustFactor();
        this.roundEveryBytes = Math.max(1, config.txCacheBytes() / ROUND_EVERY_CACHE_FRACTION);
        this.roundEveryObjects = Math.max(1, config.txCacheObjects() / ROUND_EVERY_CACHE_FRACTION);
    }

    private static double seconds(java.time.Duration d) {
        return d.toNanos() / 1e9;
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
     * is the watermark). The result arrives through {@link org.fjm2.norm.session.NormListener#onAcknowledgementComplete}
     * once every node answered or the FLUSH repetitions (robust factor) ran out.
     */
    public void requestAcknowledgement(int... nodeIds) {
        long last = nextTicket.get() - 1;
        if (last < 0) {
            throw new IllegalStateException("nothing was enqueued");
        }
        int[] request = new int[nodeIds.length + 2];
        request[0] = (int) (last >>> 32);
        request[1] = (int) last;
        System.arraycopy(nodeIds, 0, request, 2, nodeIds.length);
        ackRequests.offer(request);
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
        drainInbox();
        maybeStartRound(now);
        if (eviction.needsRoom()) {
            eviction.evict(now);
        }
        long budget = TRANSMIT_BURST_BYTES;
        while (true) {
            if (!hasWork()) {
                onIdle(now);
                return Long.MAX_VALUE;
            }
            if (budget <= 0) {
                return now;     // more to send at once, after the event loop has read what arrived meanwhile
            }
            long delay = rate.delayNanos(config.segmentSize() + SenderPackets.HEADER_ROOM, now);
            if (delay > 0) {
                return now + delay;
            }
            int bytes = sendNext(now);
            if (bytes <= 0) {
                onIdle(now);
                return Long.MAX_VALUE;
            }
            budget -= bytes;
            rate.onSent(bytes, now);
            lastTransmitNanos = now;
        }
    }

    private boolean hasWork() {
        return probes.isDue() || squelchDue || eotDue || flushDue || window.firstPending() != null || queues.hasQueued();
    }

    private void drainInbox() {
        queues.drain();
        int[] request;
        while ((request = ackRequests.poll()) != null) {
            startUserRequest(request);
        }
    }

    /** Sends one datagram; returns its length, or 0 when there was nothing to send. */
    private int sendNext(long now) {
        if (probes.takeDue()) {
            return packets.sendProbe(rate.rateBitsPerSecond());
        }
        if (squelchDue) {
            squelchDue = false;
            return sendSquelch();
        }
        if (startSquelches > 0 && window.count() > 0) {
            startSquelches--;
            return sendSquelch();
        }
        if (eotDue) {
            eotDue = false;
            return packets.sendEot();
        }
        if (flushDue) {
            flushDue = false;
            int bytes = sendFlush();
            if (bytes > 0) {
                return bytes;
            }
        }
        TxObject object = window.firstPending();
        if (object == null) {
            object = startNextObject(now);
            if (object == null) {
                return 0;
            }
        }
        idle = false;
        idleReported = false;
        flushCount = 0;
        probes.onData(now);
        object.lastActivityNanos = now;
        if (object.infoPending) {
            object.infoPending = false;
            int length = packets.sendInfo(object);
            afterSend(object);
            return length;
        }
        int block = object.firstPendingBlock();
        int k = object.partition.blockLength(block);
        int symbol = object.pending.nextSet(block, 0, k + config.parity());
        object.pending.clear(block, symbol);
        if (object.pending.nextSet(block, 0, k + config.parity()) < 0) {
            object.clearBlockPending(block);
        }
        if (object.firstPassDone && acks.roundActive() && Acknowledgements.atOrAfter(acks.roundObject(), object.objectId)) {
            acks.restartFlushes(config.robustFactor());
        }
        int length = packets.sendData(object, block, symbol, object.firstPassDone);
        afterSend(object);
        return length;
    }

    private void afterSend(TxObject object) {
        if (!object.hasPending()) {
            window.clearPending(object.objectId);
            if (!object.firstPassDone) {
                object.firstPassDone = true;
                object.firstPassEndNanos = ctx.nanoTime();
                sentSinceRoundBytes += object.size;
                sentSinceRoundObjects++;
                ctx.counters().increment(Counter.OBJECTS_SENT);
            }
        }
    }

    /** The squelch point is the oldest object still held: receivers give up everything before it. */
    private int sendSquelch() {
        return packets.sendSquelch(window.count() > 0 ? window.oldestId() : window.nextObjectId());
    }

    /**
     * Sends a NORM_CMD(FLUSH): during a watermark round at the round's object with the receivers it waits for,
     * otherwise at the newest object (end of transmission). Returns the datagram length, 0 when nothing was sent.
     */
    private int sendFlush() {
        boolean round = acks.roundActive();
        int objectId;
        if (round) {
            objectId = acks.roundObject();
        } else if (window.count() > 0) {
            objectId = window.newestId();
        } else {
            return 0;
        }
        TxObject last = window.find(objectId);
        if (last == null) {
            return 0;
        }
        roundAsked |= round;
        return packets.sendFlush(last, round ? acks.pendingNodes() : List.of());
    }

    private TxObject startNextObject(long now) {
        if (window.isFull()) {
            return null;
        }
        Submission next = queues.pollHighest();
        if (next == null) {
            return null;
        }
        started = true;
        TxObject object = window.acquire();
        object.ticket = next.ticket();
        object.priority = next.priority();
        object.data = next.data();
        object.info = next.info();
        object.size = next.size();
        object.prepare(config.segmentSize(), config.blockSize(), config.parity(), config.autoParity());
        object.lastActivityNanos = now;
        window.add(object);
        window.markPending(object.objectId);
        ctx.counters().increment(Counter.OBJECTS_ENQUEUED);
        ctx.listener().onTxObjectStarted(object.ticket, object.objectId);
        if (acks.userRequested() && acks.userTicket() == object.ticket) {
            acks.userObject(object.objectId);
        }
        return object;
    }

    // ---- idle, flush --------------------------------------------------------------------------------------

    private void onIdle(long now) {
        if (!idle) {
            idle = true;
            flushCount = 0;
            // End of transmission: the flushes ask tracked receivers to acknowledge the newest object.
            if (!acks.roundActive() && acks.hasReceivers() && window.count() > 0) {
                int newest = window.newestId();
                if (!acks.acknowledged(newest)) {
                    beginRound(newest);
                }
            }
            // A round's FLUSH repetitions keep their pace: a trickle of data (idle between every two messages) must
            // not postpone them, or the receivers are never asked and the cache never makes room. Only the
            // end-of-transmission flushes wait for the sender to have been idle a while.
            if (!acks.roundActive() || !flushTimer.isActive()) {
                scheduleFlush(now);
            }
        }
        if (!idleReported && queues.size() == 0) {
            idleReported = true;
            ctx.listener().onTransmitIdle();
        }
        if (acks.roundActive() && !flushTimer.isActive()) {
            scheduleFlush(now);
        }
    }

    /**
     * Starts a watermark round when one is needed and none runs: a user's acknowledgement request whose object has
     * been sent; or (flow control) room is needed and tracked receivers have not acknowledged the oldest object, or
     * a fraction of the cache was sent since the last round (so room is made before it is needed).
     */
    private void maybeStartRound(long now) {
        if (acks.roundActive() && (roundAsked || acks.userRequested())) {
            return;
        }
        if (acks.userRequested() && acks.userObject() >= 0) {
            TxObject target = window.find(acks.userObject());
            if (target != null && target.firstPassDone) {
                startRound(target.objectId, now);
                return;
            }
        }
        if (!acks.hasReceivers() || window.count() == 0) {
            return;
        }
        // A round that has not asked yet (begun at idle, its first FLUSH waiting for the flush timer) is replaced
        // by one that asks at once when room is needed or enough was sent: it must not hold flow control back.
        boolean roomNeeded = eviction.needsRoom() && !acks.acknowledged(window.oldestId());
        boolean sentEnough = sentSinceRoundObjects >= roundEveryObjects || sentSinceRoundBytes >= roundEveryBytes;
        if (roomNeeded || sentEnough) {
            TxObject newestSent = window.newestSent();
            if (newestSent != null && !acks.acknowledged(newestSent.objectId)) {
                startRound(newestSent.objectId, now);
            }
        }
    }

    private void startRound(int objectId, long now) {
        beginRound(objectId);
        flushDue = true;
        scheduleFlush(now);
    }

    private void beginRound(int objectId) {
        if (LOG.isTraceEnabled()) {
            LOG.trace("watermark round at object {}: cache {} objects / {} bytes, {} queued, producers waiting {}, "
                    + "grtt {} ms, rate {} bit/s", objectId, window.count(), window.bytes(), queues.size(),
                    admission.hasWaiters(), grtt.advertised() * 1e3, rate.rateBitsPerSecond());
        }
        acks.startRound(objectId, config.robustFactor());
        roundAsked = false;
        sentSinceRoundBytes = 0;
        sentSinceRoundObjects = 0;
    }

    private void scheduleFlush(long now) {
        long interval = Math.max(2 * grtt.advertisedNanos(), 1_000_000L);
        ctx.timers().schedule(flushTimer, Math.max(now, lastTransmitNanos) + interval);
    }

    private void onFlushTimer() {
        long now = ctx.nanoTime();
        if (acks.roundActive()) {
            if (acks.takeFlush()) {
                requestFlush();
                scheduleFlush(now);
            } else {
                acks.expireRound(now, config.receiverTimeout().toNanos());
                reportUserRound();
                ctx.wakeTransmitter();      // room may be needed: the next round starts from the transmit loop
                scheduleIdleFlush(now);
            }
            return;
        }
        if (!idle || hasWork()) {
            return;
        }
        if (flushCount < config.robustFactor()) {
            flushCount++;
            requestFlush();
            scheduleFlush(now);
        } else if (window.count() > 0) {
            // The end-of-transmission FLUSHes are done, yet a receiver may have missed all of them (an outage):
            // keep naming the newest object, so that it learns what it lacks and NACKs while we still hold it,
            // instead of timing us out with the tail neither delivered nor reported.
            requestFlush();
            scheduleIdleFlush(now);
        }
    }

    /** A FLUSH goes out on the transmit loop's next pass. */
    private void requestFlush() {
        flushDue = true;
        ctx.wakeTransmitter();
    }

    private void scheduleIdleFlush(long now) {
        ctx.timers().schedule(flushTimer, now + Math.max(IDLE_FLUSH_INTERVAL_NANOS, 2 * grtt.advertisedNanos()));
    }

    private void reportUserRound() {
        if (acks.userDone()) {
            completeUserRequest();
        }
    }

    /** Ends the user's acknowledgement request and reports its per-node outcome to the listener. */
    private void completeUserRequest() {
        long ticket = acks.userTicket();
        int objectId = acks.userObject();
        ctx.listener().onAcknowledgementComplete(new AckResult(ticket, objectId, acks.takeUserResult()));
    }

    /** Called when the session starts; probing begins with the first data sent. */
    public void start() {
    }

    // ---- feedback ----------------------------------------------------------------------------------------------

    /** A NORM_NACK addressed to this sender. */
    public void onNack(FeedbackFlyweight nack) {
        ctx.counters().increment(Counter.NACKS_RECEIVED);
        if (nack.instanceId() != instanceId) {
            return;
        }
        acks.heardFrom(nack.sourceId(), ctx.nanoTime());
        updateRtt(nack);
        rate.onLoss(ctx.nanoTime(), grtt.advertisedNanos());
        if (repairs.onNack(nack)) {
            squelchDue = true;
            ctx.wakeTransmitter();
        }
    }

    /** A NORM_ACK addressed to this sender. */
    public void onAck(FeedbackFlyweight ack) {
        ctx.counters().increment(Counter.ACKS_RECEIVED);
        if (ack.instanceId() != instanceId) {
            return;
        }
        updateRtt(ack);
        if (ack.ackType() == NormWire.ACK_FLUSH) {
            if (ack.ackFlushFecId() != SenderPackets.FEC_ID) {
                return;
            }
            boolean ended = acks.onAck(ack.sourceId(), ack.ackFlushObjectId(), ctx.nanoTime());
            if (LOG.isTraceEnabled()) {
                LOG.trace("watermark ACK from {} for object {}{}", Integer.toUnsignedString(ack.sourceId()),
                        ack.ackFlushObjectId(), ended ? ": round complete" : "");
            }
            reportUserRound();
            if (ended) {
                rate.onRoundAcknowledged(ctx.nanoTime());
                eviction.trimAcknowledged();
                ctx.wakeTransmitter();
            }
        } else if (ack.ackType() == NormWire.ACK_FJM2_LEAVE) {
            acks.leave(ack.sourceId());
            ctx.wakeTransmitter();      // room may be made now that nobody waits for the leaver
        } else {
            acks.heardFrom(ack.sourceId(), ctx.nanoTime());
        }
    }

    private void updateRtt(FeedbackFlyweight feedback) {
        if (!feedback.hasGrttResponse()) {
            return;
        }
        long echoed = feedback.grttResponseSeconds() * 1_000_000L + feedback.grttResponseMicros();
        long rttMicros = ctx.micros() - echoed;
        if (LOG.isTraceEnabled()) {
            LOG.trace("RTT {} us from {} (message type {}, ack type {})", rttMicros,
                    Integer.toUnsignedString(feedback.sourceId()), feedback.type(), feedback.ackType());
        }
        if (rttMicros >= 0 && rttMicros < config.grttMax().toNanos() / 1000 * 4) {
            grtt.onRtt(rttMicros / 1e6, ctx.nanoTime());
        }
    }

    // ---- positive acknowledgement ----------------------------------------------------------------------------------

    private void startUserRequest(int[] request) {
        if (acks.userRequested()) {
            completeUserRequest();
        }
        long ticket = ((long) request[0] << 32) | (request[1] & 0xFFFFFFFFL);
        int[] nodes = java.util.Arrays.copyOfRange(request, 2, request.length);
        acks.requestUser(ticket, nodes);
        TxObject object = window.findTicket(ticket);
        if (object != null) {
            acks.userObject(object.objectId);
        }
        if (nodes.length == 0) {
            completeUserRequest();
        }
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
        return idle && queues.size() == 0 && !hasWork();
    }

    /** Whether the end-of-transmission FLUSH repetitions are done (or a watermark round ended). */
    public boolean flushed() {
        if (!isIdle() || acks.roundActive() || acks.userRequested()) {
            return false;
        }
        return flushCount >= config.robustFactor()
                || (acks.hasReceivers() && window.count() > 0 && acks.acknowledged(window.newestId()));
    }

    /**
     * Sends NORM_CMD(EOT) at the next opportunity (graceful shutdown), if this node ever sent an object: a node that
     * only received stays silent, or every other node (NRL NORM ones too) would take it for a new sender.
     */
    public void endOfTransmission() {
        if (!started) {
            return;
        }
        eotDue = true;
        ctx.wakeTransmitter();
    }

    /** Releases every buffer (event loop, at session close). Waiting enqueuers get an IllegalStateException. */
    public void close() {
        admission.close();
        queues.releaseAll();
        window.clear();
        if (acks.userRequested()) {
            completeUserRequest();
        }
        LOG.debug("sender {} closed", Integer.toUnsignedString(ctx.nodeId()));
    }

    /** Used by tests: ids the window holds. */
    List<Integer> cachedObjectIds() {
        return window.ids();
    }
}
