package org.fjm2.norm.sender;

import java.util.List;
import java.util.Queue;
import java.util.function.BooleanSupplier;

import io.netty.util.internal.PlatformDependent;
import org.fjm2.norm.api.AckResult;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sender's NORM_CMD(FLUSH)es (RFC 5740 section 5.1.4/5.3.3): positive-acknowledgement (watermark) rounds for
 * flow control and for users' acknowledgement requests, the end-of-transmission FLUSH repetitions, and the idle
 * announcements of the newest object. Two timers: one paces the FLUSHes of the active round; the other the
 * end-of-stream FLUSHes, which wait while a round runs (its FLUSHes ask the same). Owned by the session's event
 * loop; users' requests arrive through a queue.
 */
final class WatermarkRounds {

    private static final Logger LOG = LoggerFactory.getLogger(WatermarkRounds.class);

    /**
     * A watermark round starts, while data flows, once this fraction (1/n) of the cache bound (bytes or objects) has
     * been sent since the last round began: acknowledgements then come back while the rest of the cache is being
     * sent, so the cache makes room without stopping the publisher for a round trip.
     */
    static final int ROUND_EVERY_CACHE_FRACTION = 4;
    /**
     * While the sender is idle and holds objects, a FLUSH naming the newest goes out this often (after the robust
     * factor's end-of-transmission FLUSHes): receivers that missed the end of a stream learn of it and NACK, and an
     * idle sender is not taken for gone (receivers time senders out after 10 s of silence).
     */
    static final long IDLE_FLUSH_INTERVAL_NANOS = 1_000_000_000L;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final SenderState state;
    private final Acknowledgements acks;
    private final TxWindow window;
    private final TxQueues queues;
    private final TxAdmission admission;
    private final GrttEstimator grtt;
    private final RateController rate;
    private final SenderPackets packets;
    private final CacheEviction eviction;
    private final BooleanSupplier transmitPending;
    private final Queue<UserRequest> userRequests = PlatformDependent.newMpscQueue();
    private final Timer roundTimer;
    private final Timer streamEndTimer;
    private final long roundEveryBytes;
    private final int roundEveryObjects;
    /** Whether the current round has sent its first FLUSH. */
    private boolean roundAsked;

    /** A user's request: acknowledge everything up to the object with this ticket. */
    record UserRequest(long ticket, int[] nodeIds) {
    }

    WatermarkRounds(ProtocolContext ctx, SenderState state, Acknowledgements acks, TxWindow window, TxQueues queues,
                    TxAdmission admission, GrttEstimator grtt, RateController rate, SenderPackets packets,
                    CacheEviction eviction, BooleanSupplier transmitPending) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.state = state;
        this.acks = acks;
        this.window = window;
        this.queues = queues;
        this.admission = admission;
        this.grtt = grtt;
        this.rate = rate;
        this.packets = packets;
        this.eviction = eviction;
        this.transmitPending = transmitPending;
        this.roundTimer = new Timer("sender-round-flush", this::onRoundTimer);
        this.streamEndTimer = new Timer("sender-stream-end-flush", this::onStreamEndTimer);
        this.roundEveryBytes = Math.max(1, config.txCacheBytes() / ROUND_EVERY_CACHE_FRACTION);
        this.roundEveryObjects = Math.max(1, config.txCacheObjects() / ROUND_EVERY_CACHE_FRACTION);
    }

    /** Any thread: queues a user's acknowledgement request for the event loop. */
    void request(UserRequest request) {
        userRequests.offer(request);
    }

    /** Event loop: takes the users' requests queued since the last pass. */
    void takeUserRequests() {
        UserRequest request;
        while ((request = userRequests.poll()) != null) {
            startUserRequest(request);
        }
    }

    /**
     * Starts a round when one is needed and none runs: a user's acknowledgement request whose object has been sent;
     * or (flow control) room is needed and tracked receivers have not acknowledged the oldest object, or a fraction
     * of the cache was sent since the last round (so room is made before it is needed).
     */
    void maybeStart(long now) {
        if (acks.roundActive() && (roundAsked || acks.userRequested())) {
            return;
        }
        if (acks.userRequested() && acks.userObject() >= 0) {
            TxObject target = window.find(acks.userObject());
            if (target != null && target.firstPassDone) {
                start(target.objectId, now);
                return;
            }
        }
        if (!acks.hasReceivers() || window.count() == 0) {
            return;
        }
        // A round that has not asked yet (begun at idle, its first FLUSH waiting for its timer) is replaced by one
        // that asks at once when room is needed or enough was sent: it must not hold flow control back.
        boolean roomNeeded = eviction.needsRoom() && !acks.acknowledged(window.oldestId());
        boolean sentEnough = state.sentSinceRoundObjects >= roundEveryObjects
                || state.sentSinceRoundBytes >= roundEveryBytes;
        if (roomNeeded || sentEnough) {
            TxObject newestSent = window.newestSent();
            if (newestSent != null && !acks.acknowledged(newestSent.objectId)) {
                start(newestSent.objectId, now);
            }
        }
    }

    private void start(int objectId, long now) {
        begin(objectId);
        requestFlush();
        scheduleRoundFlush(now);
    }

    private void begin(int objectId) {
        if (LOG.isTraceEnabled()) {
            LOG.trace("watermark round at object {}: cache {} objects / {} bytes, {} queued, producers waiting {}, "
                    + "grtt {} ms, rate {} bit/s", objectId, window.count(), window.bytes(), queues.size(),
                    admission.hasWaiters(), grtt.advertised() * 1e3, rate.rateBitsPerSecond());
        }
        acks.startRound(objectId, config.robustFactor());
        roundAsked = false;
        state.roundBegan();
    }

    /** The transmit loop started an object: a user's request may have been waiting for it. */
    void onObjectStarted(TxObject object) {
        if (acks.userRequested() && acks.userTicket() == object.ticket) {
            acks.userObject(object.objectId);
        }
    }

    /**
     * The transmit loop resends data of an object at or before the active round's watermark: receivers are still
     * catching up, so the round gets its whole FLUSH budget again.
     */
    void onResend(TxObject object) {
        if (acks.roundActive() && Acknowledgements.atOrAfter(acks.roundObject(), object.objectId)) {
            acks.restartFlushes(config.robustFactor());
        }
    }

    /** The transmit loop ran dry after sending: the end-of-transmission FLUSHes ask tracked receivers for an ACK. */
    void onEndOfTransmission(long now) {
        if (!acks.roundActive() && acks.hasReceivers() && window.count() > 0) {
            int newest = window.newestId();
            if (!acks.acknowledged(newest)) {
                begin(newest);
            }
        }
        // A round's FLUSH repetitions keep their pace: a trickle of data (idle between every two messages) must not
        // postpone them, or the receivers are never asked and the cache never makes room. Only the
        // end-of-transmission FLUSHes wait for the sender to have been idle a while.
        if (!acks.roundActive()) {
            scheduleStreamEnd(now, flushInterval());
        } else if (!roundTimer.isActive()) {
            scheduleRoundFlush(now);
        }
    }

    /** Every pass that ends with nothing to send: a round begun at idle gets its FLUSHes going. */
    void onIdlePass(long now) {
        if (acks.roundActive() && !roundTimer.isActive()) {
            scheduleRoundFlush(now);
        }
    }

    /**
     * Sends a NORM_CMD(FLUSH): during a watermark round at the round's object with the receivers it waits for,
     * otherwise at the newest object (end of transmission). Returns the datagram length, 0 when nothing was sent.
     */
    int sendFlush() {
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
        if (round) {
            acks.askedInRound(ctx.nanoTime());
        }
        return packets.sendFlush(last, round ? acks.pendingNodes() : List.of());
    }

    /** How long a receiver the round waits for may say nothing before it is suspended. */
    private long silenceNanos() {
        return Math.max(config.receiverSilence().toNanos(),
                NormConfig.RECEIVER_SILENCE_GRTTS * grtt.advertisedNanos());
    }

    private long flushInterval() {
        return Math.max(2 * grtt.advertisedNanos(), 1_000_000L);
    }

    /**
     * The round's next FLUSH, and silence check, after the FLUSH interval but at most half the receiver silence: an
     * interval set while one slow sample inflated the GRTT must not postpone the suspension of a dead receiver.
     */
    private void scheduleRoundFlush(long now) {
        long delay = Math.min(flushInterval(), config.receiverSilence().toNanos() / 2);
        ctx.timers().schedule(roundTimer, Math.max(now, state.lastTransmitNanos) + delay);
    }

    private void scheduleStreamEnd(long now, long delay) {
        ctx.timers().schedule(streamEndTimer, Math.max(now, state.lastTransmitNanos) + delay);
    }

    private void onRoundTimer() {
        long now = ctx.nanoTime();
        if (acks.suspendSilent(now, silenceNanos())) {
            // Only silent receivers were left: the round is complete for everybody alive.
            rate.onRoundAcknowledged(now);
            eviction.trimAcknowledged();
            ctx.wakeTransmitter();
        }
        if (!acks.roundActive()) {
            onStreamEndTimer();       // the round completed since: the end-of-stream FLUSHes carry on
            return;
        }
        if (acks.takeFlush()) {
            requestFlush();
            scheduleRoundFlush(now);
            return;
        }
        acks.expireRound(now, config.receiverTimeout().toNanos());
        reportUserRound();
        ctx.wakeTransmitter();      // room may be needed: the next round starts from the transmit loop
        ctx.timers().schedule(streamEndTimer, now + idleFlushInterval());
    }

    private void onStreamEndTimer() {
        long now = ctx.nanoTime();
        if (acks.roundActive() && state.isIdle() && window.count() > 0) {
            // A round's FLUSHes ask the same meanwhile; look again later, for the round may end in a way that does
            // not restart these (a receiver's window released, its last ACK): without them, a receiver that missed
            // the tail while it was suspended never learned of it (CloseLingerTest).
            ctx.timers().schedule(streamEndTimer, now + idleFlushInterval());
            return;
        }
        if (acks.roundActive() || !state.isIdle() || transmitPending.getAsBoolean()) {
            return;     // data going out restarts the end of the stream later
        }
        if (state.nextEndingFlush(config.robustFactor())) {
            requestFlush();
            scheduleStreamEnd(now, flushInterval());
        } else if (window.count() > 0) {
            // The end-of-transmission FLUSHes are done, yet a receiver may have missed all of them (an outage):
            // keep naming the newest object, so that it learns what it lacks and NACKs while we still hold it,
            // instead of timing us out with the tail neither delivered nor reported.
            requestFlush();
            ctx.timers().schedule(streamEndTimer, now + idleFlushInterval());
        }
    }

    private long idleFlushInterval() {
        return Math.max(IDLE_FLUSH_INTERVAL_NANOS, 2 * grtt.advertisedNanos());
    }

    /** A FLUSH goes out on the transmit loop's next pass. */
    private void requestFlush() {
        state.due(SenderState.DUE_FLUSH);
        ctx.wakeTransmitter();
    }

    // ---- users' acknowledgement requests -----------------------------------------------------------------------

    private void startUserRequest(UserRequest request) {
        if (acks.userRequested()) {
            completeUserRequest();
        }
        acks.requestUser(request.ticket(), request.nodeIds());
        TxObject object = window.findTicket(request.ticket());
        if (object != null) {
            acks.userObject(object.objectId);
        }
        if (request.nodeIds().length == 0) {
            completeUserRequest();
        }
    }

    /** An acknowledgement arrived or a round ended: the user's request may have its answer. */
    void reportUserRound() {
        if (acks.userDone()) {
            completeUserRequest();
        }
    }

    /** Ends the user's acknowledgement request and reports its per-node outcome to the listener. */
    void completeUserRequest() {
        long ticket = acks.userTicket();
        int objectId = acks.userObject();
        ctx.listener().onAcknowledgementComplete(new AckResult(ticket, objectId, acks.takeUserResult()));
    }

    /** Whether a round runs or a user's request waits for its answer. */
    boolean busy() {
        return acks.roundActive() || acks.userRequested();
    }
}
