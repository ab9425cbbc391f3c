package org.fjm2.norm.sender;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.sender.TxQueues.Submission;

/**
 * The sender's transmit loop: on each pass, sends what is due — probes, squelches, EOT, FLUSH, then data in
 * transmit-position order (repairs and the first pass of the oldest pending object first, new objects as the cache
 * admits them) — while the rate allows and at most {@link #TRANSMIT_BURST_BYTES} per pass. Owned by the session's
 * event loop.
 */
final class TransmitLoop {

    /**
     * Bytes one transmit pass may send before it gives the event loop back: at high rates the loop would otherwise
     * send a whole cache before reading the acknowledgements and NACKs that arrived meanwhile, which inflates the
     * measured GRTT and delays every acknowledgement round (about 0.5 ms of sending at 1 GB/s).
     */
    static final int TRANSMIT_BURST_BYTES = 512 * 1024;
    /** What {@link #sendNext} returns when data waits for a receiver's window (receiver-paced flow control). */
    private static final int WINDOW_FULL = -1;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final SenderState state;
    private final TxQueues queues;
    private final TxWindow window;
    private final SenderPackets packets;
    private final RateController rate;
    private final ProbeSchedule probes;
    private final CacheEviction eviction;
    private final Acknowledgements acks;
    private final WatermarkRounds rounds;
    private final FlowWindow flow;
    private final PathCache pathCache;

    TransmitLoop(ProtocolContext ctx, SenderState state, TxQueues queues, TxWindow window, SenderPackets packets,
                 RateController rate, ProbeSchedule probes, CacheEviction eviction, Acknowledgements acks,
                 WatermarkRounds rounds, FlowWindow flow, PathCache pathCache) {
        this.flow = flow;
        this.pathCache = pathCache;
        this.ctx = ctx;
        this.config = ctx.config();
        this.state = state;
        this.queues = queues;
        this.window = window;
        this.packets = packets;
        this.rate = rate;
        this.probes = probes;
        this.eviction = eviction;
        this.acks = acks;
        this.rounds = rounds;
    }

    /**
     * Sends while the rate allows and there is something to send. Returns the time at which it wants to run again
     * for pacing, or Long.MAX_VALUE when only timers or new data can wake it.
     */
    long transmit(long now) {
        queues.drain();
        rounds.takeUserRequests();
        rounds.maybeStart(now);
        if (eviction.needsRoom()) {
            eviction.evict(now);
        }
        if (!acks.hasReceivers()) {
            rate.onProgress(now, 0);        // nobody to hear from: the rate is not held back by feedback
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
            if (bytes == WINDOW_FULL) {
                return Long.MAX_VALUE;      // a receiver's report (or the stall timer) wakes us
            }
            if (bytes <= 0) {
                onIdle(now);
                return Long.MAX_VALUE;
            }
            budget -= bytes;
            flow.onSent((ctx.currentSequence() - 1) & 0xFFFF, bytes);
            rate.onSent(bytes, now);
            pathCache.onSent(bytes, now);
            state.lastTransmitNanos = now;
        }
    }

    boolean hasWork() {
        return probes.isDue() || state.anyDue() || window.firstPending() != null || queues.hasQueued();
    }

    /**
     * Sends one datagram; returns its length, 0 when there was nothing to send, or {@link #WINDOW_FULL} when data
     * waits for a receiver's window.
     */
    private int sendNext(long now) {
        if (probes.takeDue()) {
            return packets.sendProbe(rate);
        }
        if (state.take(SenderState.DUE_SQUELCH)) {
            return sendSquelch();
        }
        if (state.startSquelches > 0 && window.count() > 0) {
            state.startSquelches--;
            return sendSquelch();
        }
        if (state.take(SenderState.DUE_EOT)) {
            return packets.sendEot();
        }
        if (state.take(SenderState.DUE_FLUSH)) {
            int bytes = rounds.sendFlush();
            if (bytes > 0) {
                return bytes;
            }
        }
        TxObject object = window.firstPending();
        if (object == null && (window.isFull() || !queues.hasQueued())) {
            return 0;
        }
        if (!flow.open(now)) {
            return WINDOW_FULL;     // asked only with data to send: the initial window's clock starts with data
        }
        if (object == null) {
            object = startNextObject(now);
            if (object == null) {
                return 0;
            }
        }
        state.sending();
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
        if (object.firstPassDone) {
            rounds.onResend(object);
        }
        int length = packets.sendData(object, block, symbol, object.firstPassDone);
        if (object.firstPassDone) {
            rate.onRepairSent(length);
        }
        afterSend(object);
        return length;
    }

    private void afterSend(TxObject object) {
        if (!object.hasPending()) {
            window.clearPending(object.objectId);
            if (!object.firstPassDone) {
                object.firstPassDone = true;
                object.firstPassEndNanos = ctx.nanoTime();
                state.sentSinceRoundBytes += object.size;
                state.sentSinceRoundObjects++;
                ctx.counters().increment(Counter.OBJECTS_SENT);
            }
        }
    }

    /** The squelch point is the oldest object still held: receivers give up everything before it. */
    private int sendSquelch() {
        return packets.sendSquelch(window.count() > 0 ? window.oldestId() : window.nextObjectId());
    }

    private TxObject startNextObject(long now) {
        if (window.isFull()) {
            return null;
        }
        Submission next = queues.pollHighest();
        if (next == null) {
            return null;
        }
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
        rounds.onObjectStarted(object);
        return object;
    }

    /** Nothing left to send: end of transmission (FLUSHes, a round), and the listener hears the queue drained. */
    private void onIdle(long now) {
        if (!state.isIdle()) {
            state.ending();
            rounds.onEndOfTransmission(now);
        }
        if (!state.idleReported && queues.size() == 0) {
            state.idleReported = true;
            ctx.listener().onTransmitIdle();
        }
        rounds.onIdlePass(now);
    }
}
