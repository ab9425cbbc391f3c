package org.fjm2.norm.sender;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes room in the repair cache: while an application thread waits for admission, or a queued object waits for a
 * place in the window, gives up the oldest objects that are quiescent — sent whole, nothing pending or collecting
 * repairs, acknowledged by every tracked receiver (or, with none tracked, quiet for the hold time) — and, past the
 * maximum hold time, the oldest object whatever its state. Owned by the session's event loop.
 */
final class CacheEviction {

    private static final Logger LOG = LoggerFactory.getLogger(CacheEviction.class);
    /**
     * Share of the cache bounds that acknowledged objects may keep after a completed acknowledgement round (1/2):
     * the rest is freed at once, so that a steady producer finds room without waiting. Freed only when full, the
     * cache made a send wait for the event loop each time it filled up (two thread hand-offs, a latency spike for
     * every message behind it), while the kept share still serves repairs to receivers not yet tracked. Rounds
     * start every quarter of the cache sent, so half leaves a quarter of headroom for the next round to complete.
     */
    static final int KEEP_NUMERATOR = 1;
    static final int KEEP_DENOMINATOR = 2;
    /**
     * The discovery period, from the sender's first object (2 s): receivers present from the start are tracked only
     * once their first report or NACK arrives, and in JVMs still warming up on a busy 2-core host those came 300-600
     * ms after the first object here, and one receiver's some milliseconds after another's. Meanwhile the hold time
     * (500 ms) gave up objects nobody was tracked for, and the acknowledgement of the first receiver tracked gave up
     * objects the next one was about to ask for: each lost one to a squelch. So objects sent within the period stay
     * while no receiver was ever heard (until its end: a sender nobody listens to pays this once, its producers may
     * wait for room until then), and until the tracked receivers have been the same for
     * {@link #DISCOVERY_SETTLE_NANOS}. Acknowledged objects are trimmed early (see {@link #trimAcknowledged}) only
     * after the period.
     */
    static final long DISCOVERY_NANOS = 2_000_000_000L;
    /**
     * The discovery period lasts, past {@link #DISCOVERY_NANOS}, until no new receiver was tracked for this long
     * (1 s): on a loaded 2-core host running a three-LAN mesh (nine JVMs starting together) a subscriber's first
     * report reached a publisher 2.1 s after its first object, 0.5 s after the previous new receiver; receivers heard
     * 0.08-0.8 s apart there. Trimming is only put off (a full cache still gives up what every tracked receiver
     * acknowledged), so a longer period costs no throughput.
     */
    static final long DISCOVERY_QUIET_NANOS = 1_000_000_000L;
    /** The discovery period ends this long (10 s) after the first object, however many receivers keep arriving. */
    static final long DISCOVERY_MAX_NANOS = 10_000_000_000L;
    /**
     * How long no new receiver must have been tracked before an object of the discovery period may leave (200 ms):
     * the first reports of receivers that started together came within 11 ms of each other in the runs that lost
     * objects; a start-up pause for the sender's cache of at most this much.
     */
    static final long DISCOVERY_SETTLE_NANOS = 200_000_000L;

    /**
     * Multiple of its bounds the cache may hold (2) while its oldest object is owed only by receivers that left the
     * acknowledgement round's FLUSHes unanswered for the window silence (150 ms), until the round suspends them
     * (after the receiver silence, 1 s) or they are heard again. A subscriber killed with -9 made the cache fill up
     * behind it before its suspension, and the publisher waited for room meanwhile: the living subscriber went
     * 0.66-0.96 s without a message (DeadSubscriberTest). Suspending sooner would cost a receiver only starved of CPU
     * for a moment the data given up while it was suspended; this keeps that data, with memory still bounded.
     */
    static final int SILENT_RECEIVER_OVERFLOW = 2;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final TxWindow window;
    private final TxQueues queues;
    private final TxAdmission admission;
    private final Acknowledgements acks;
    private final GrttEstimator grtt;
    private final int backoffFactor;
    private final Timer evictTimer;
    /** When the discovery period began (the first object's first pass, seen at the first look at the cache). */
    private long discoveryStartNanos;
    private boolean discoveryStarted;

    CacheEviction(ProtocolContext ctx, TxWindow window, TxQueues queues, TxAdmission admission, Acknowledgements acks,
                  GrttEstimator grtt) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.window = window;
        this.queues = queues;
        this.admission = admission;
        this.acks = acks;
        this.grtt = grtt;
        this.backoffFactor = config.backoffFactor();
        this.evictTimer = new Timer("sender-evict", () -> ctx.wakeTransmitter());
    }

    /** An application thread waits for room, or a queued object waits for a place in the cache window. */
    boolean needsRoom() {
        return admission.hasWaiters() || (window.isFull() && queues.hasQueued());
    }

    /** Gives up the oldest quiescent objects while room is needed; retries from a timer when none is quiescent. */
    void evict(long now) {
        allowOverflow(now);
        long hold = holdNanos();
        long maxHold = config.maxHold().toNanos();
        while (window.count() > 0 && needsRoom()) {
            TxObject oldest = window.at(0);
            if (pinned(oldest)) {
                return;
            }
            long forcedAt = oldest.firstPassEndNanos + maxHold;
            if (forcedAt - now > 0) {
                boolean busy;
                long quietUntil;
                if (acks.hasReceivers()) {
                    // Tracked receivers say when they are done: once all of them acknowledged the object, it may go
                    // at once (a receiver that acknowledged a watermark has everything up to it, so it sends no more
                    // NACKs for it). Waiting longer would cap throughput at the cache size per GRTT.
                    busy = !acknowledgedAndIdle(oldest);
                    quietUntil = oldest.lastActivityNanos;
                } else {
                    busy = oldest.hasPending() || oldest.hasRepairs;
                    quietUntil = oldest.lastActivityNanos + hold;
                }
                long discovery = discoveryHoldUntil(oldest);
                if (discovery - quietUntil > 0) {
                    quietUntil = discovery;
                }
                if (busy || quietUntil - now > 0) {
                    if (LOG.isTraceEnabled()) {
                        LOG.trace("room needed, oldest object {} stays: pending {}, repairs {}, acknowledged {}, "
                                + "quiet in {} us", oldest.objectId, oldest.hasPending(), oldest.hasRepairs,
                                acks.acknowledged(oldest.objectId), (quietUntil - now) / 1000);
                    }
                    long retry = busy ? forcedAt : Math.min(quietUntil, forcedAt);
                    if (!evictTimer.isActive() || evictTimer.deadlineNanos() - retry > 0) {
                        ctx.timers().schedule(evictTimer, retry);
                    }
                    return;
                }
            } else if (acks.hasReceivers() && !acks.acknowledged(oldest.objectId)) {
                if (ctx.remoteEvents().allow(org.fjm2.norm.protocol.RemoteEvent.OBJECT_EVICTED)) {
                    LOG.warn("object {} evicted {} ms after it was sent, before every receiver acknowledged it ({} more "
                            + "since the last line)", oldest.objectId, maxHold / 1_000_000,
                            ctx.remoteEvents().takeSuppressed(org.fjm2.norm.protocol.RemoteEvent.OBJECT_EVICTED));
                }
            }
            purgeOldest();
        }
    }

    /**
     * Allows the overflow of {@link #SILENT_RECEIVER_OVERFLOW} while the receivers that owe the oldest object have
     * all left the acknowledgement round's FLUSHes unanswered for the window silence; while room is needed and they
     * have not yet, looks again when they will have.
     */
    private void allowOverflow(long now) {
        boolean allowed = false;
        if (window.count() > 0 && acks.hasReceivers()) {
            long silentAt = acks.unansweredOwersSilentAt(window.at(0).objectId, config.windowSilence().toNanos());
            if (silentAt != Long.MIN_VALUE) {
                allowed = now - silentAt >= 0;
                if (!allowed && needsRoom()
                        && (!evictTimer.isActive() || evictTimer.deadlineNanos() - silentAt > 0)) {
                    ctx.timers().schedule(evictTimer, silentAt);
                }
            }
        }
        window.overflow(allowed);
        admission.overflow(allowed);
    }

    /**
     * Until when the discovery period keeps {@code oldest} (sent whole): see {@link #DISCOVERY_NANOS}; a time already
     * past when it does not.
     */
    private long discoveryHoldUntil(TxObject oldest) {
        long end = discoveryEnd(oldest);
        if (oldest.firstPassEndNanos - end >= 0) {
            return oldest.firstPassEndNanos;
        }
        return acks.everTracked() ? acks.lastNewReceiverNanos() + DISCOVERY_SETTLE_NANOS : end;
    }

    /** When the discovery period ends; it begins with {@code oldest} when nothing was looked at before. */
    private long discoveryEnd(TxObject oldest) {
        if (!discoveryStarted) {
            discoveryStarted = true;
            discoveryStartNanos = oldest.firstPassEndNanos;
        }
        return discoveryStartNanos + DISCOVERY_NANOS;
    }

    /**
     * After an acknowledgement round completed: gives up the oldest objects every tracked receiver acknowledged,
     * sent whole and with nothing pending, while the cache holds more than its kept share.
     */
    void trimAcknowledged() {
        if (!acks.hasReceivers()) {
            return;
        }
        allowOverflow(ctx.nanoTime());
        while (window.count() > 0 && admission.holdsMoreThan(KEEP_NUMERATOR, KEEP_DENOMINATOR)) {
            TxObject oldest = window.at(0);
            if (pinned(oldest) || !acknowledgedAndIdle(oldest) || inDiscoveryPeriod(oldest, ctx.nanoTime())) {
                return;
            }
            purgeOldest();
        }
    }

    /**
     * Whether {@code oldest} (sent whole) was sent in the discovery period and the period is not over (it is
     * {@link #DISCOVERY_NANOS}, longer while new receivers keep arriving: {@link #DISCOVERY_QUIET_NANOS}). Trimming is
     * voluntary, so it waits for the period's end: a receiver behind a tunnel is first heard when the others have
     * long settled (0.8 s after the receiver on the sender's LAN in the three-LAN mesh, which then lost objects to
     * a squelch). Only a full cache gives such objects up earlier, under the settle rule of {@link #evict}.
     */
    private boolean inDiscoveryPeriod(TxObject oldest, long now) {
        long end = discoveryEnd(oldest);
        if (acks.everTracked()) {
            long quietEnd = Math.min(acks.lastNewReceiverNanos() + DISCOVERY_QUIET_NANOS,
                    discoveryStartNanos + DISCOVERY_MAX_NANOS);
            if (quietEnd - end > 0) {
                end = quietEnd;
            }
        }
        return (oldest.firstPassEndNanos - end < 0 && now - end < 0) || discoveryHoldUntil(oldest) - now > 0;
    }

    /** Not sent whole yet, or the object of a user's acknowledgement request: stays whatever else holds. */
    private boolean pinned(TxObject object) {
        return !object.firstPassDone || (acks.userRequested() && acks.userObject() == object.objectId);
    }

    /** Every tracked receiver acknowledged it, and nothing is pending or collecting repairs for it. */
    private boolean acknowledgedAndIdle(TxObject object) {
        return !object.hasPending() && !object.hasRepairs && acks.acknowledged(object.objectId);
    }

    /**
     * How long an object stays in the cache after its last transmission or NACK: the hold factor times one
     * receiver repair cycle (back-off B*GRTT, hold-off (B+2)*GRTT, our aggregation (B+1)*GRTT).
     */
    private long holdNanos() {
        return Math.max(config.holdMin().toNanos(),
                (long) (config.holdFactor() * grtt.advertisedNanos() * (3.0 * backoffFactor + 3)));
    }

    private void purgeOldest() {
        TxObject oldest = window.removeOldest();
        long ticket = oldest.ticket;
        int id = oldest.objectId;
        admission.release(oldest.size);
        window.recycle(oldest);
        ctx.counters().increment(Counter.OBJECTS_PURGED);
        ctx.listener().onTxObjectPurged(ticket, id);
    }
}
