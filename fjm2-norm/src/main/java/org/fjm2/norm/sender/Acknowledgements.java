package org.fjm2.norm.sender;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.netty.util.collection.IntObjectHashMap;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.protocol.RemoteEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the sender knows about its receivers' progress: every receiver heard from (NACK, ACK) is tracked, and
 * watermark rounds (NORM_CMD(FLUSH) carrying an acking node list, answered by NORM_ACK(FLUSH), RFC 5740 section
 * 5.3.3) learn how far each one has everything. The cache evicts an object only once every tracked receiver has
 * acknowledged it (or the object's maximum hold time ran out), so a live receiver that lags still gets its
 * repairs. A receiver that answers neither ACK nor NACK to {@link #MAX_MISSED_ROUNDS} whole rounds, and has said
 * nothing at all for the receiver timeout, is dropped (logged and counted) so a dead node cannot stall the sender;
 * both conditions are needed, because rounds follow each other quickly while data flows and a live receiver can be
 * descheduled for longer than a round. A receiver that says it leaves is dropped at once. A receiver that keeps
 * talking (NACKs, probe answers) but acknowledges nothing new for three maximum hold times is dropped too: objects
 * leave the cache after one anyway, so waiting for it only slows every publisher (a node that pretends to be a
 * receiver could otherwise hold the cache for ever); it is tracked again only once it acknowledges a round. A
 * receiver that answers every round (an FJM2 receiver: it says "alive" when listed and not ready) and falls silent
 * while a round waits for it (no feedback of any kind for the receiver silence) is suspended: no longer waited for,
 * so a receiver that died holds the others back for a fraction of a second instead of the receiver timeout; it is
 * tracked again, with what it had acknowledged, as soon as anything is heard from it. Other receivers (NRL NORM
 * stays silent until it can acknowledge) are only dropped by the rules above. At
 * most {@code capacity} receivers are tracked: a new one beyond it replaces the one heard from least recently.
 * Owned by the sender's event loop.
 */
final class Acknowledgements {

    private static final Logger LOG = LoggerFactory.getLogger(Acknowledgements.class);

    /** Whole rounds (robust-factor FLUSH repetitions each) a tracked receiver may ignore before it is dropped. */
    static final int MAX_MISSED_ROUNDS = 2;

    /** One tracked receiver. */
    static final class Receiver {
        final int nodeId;
        boolean acked;
        int ackedObject;
        int missedRounds;
        boolean answeredThisRound;
        long lastHeardNanos;
        /** The time between two messages heard from it, smoothed: how often it speaks when alive. */
        long reportGapNanos;
        /** Its longest recent gap between two messages, decaying by 1/8 per message: how long it pauses when alive. */
        long peakGapNanos;
        /** When the rounds began waiting for it without hearing from it since (silence counts from there). */
        long waitedSinceNanos;
        /** When it last acknowledged something new (or started being tracked). */
        long lastProgressNanos;
        /** It answers every round that lists it (it said "alive"): silence then means it is gone. */
        boolean answersRounds;
        /** Round FLUSHes that listed it since it was last heard, and when the first of them went out. */
        int unansweredAsks;
        long firstUnansweredAskNanos;
        /** It reports its receive window (receiver-paced flow control); the fields below are valid. */
        boolean reportsWindow;
        /** The newest of our message sequence numbers it read. */
        int readSequence;
        /** Bytes (as the kernel charges them) of our messages beyond {@link #readSequence} its socket buffer holds. */
        long windowBytes;
        /** Its window as flow control last counted it: {@link #windowBytes}, or less under the delay bound. */
        long boundedWindowBytes;
        /** It fell silent with its window full: the sender no longer paces for it until it reports again. */
        boolean windowIgnored;
        /** When its {@link #readSequence} last moved. */
        long readProgressNanos;
        /** How fast it reads (null until it reports with the charges known: see {@link #onWindowReport}). */
        DrainRate drain;
        /** Its smallest round-trip time measured: the path's own delay, without the queues we build. */
        long minRttNanos = Long.MAX_VALUE;

        Receiver(int nodeId, long nowNanos) {
            this.nodeId = nodeId;
            this.lastHeardNanos = nowNanos;
            this.lastProgressNanos = nowNanos;
            this.waitedSinceNanos = nowNanos;
        }

        /** Whether its acknowledged watermark is at or after {@code objectId}. */
        boolean hasAcknowledged(int objectId) {
            return acked && atOrAfter(ackedObject, objectId);
        }
    }

    /**
     * How many maximum hold times a receiver that keeps talking may acknowledge nothing new before it is no longer
     * waited for. Not one: a live receiver that always misses something of a fast stream acknowledges no round until
     * the stream pauses, and while it is waited for, the objects it still needs stay in the cache.
     */
    static final int NO_PROGRESS_HOLDS = 3;
    /**
     * Least window a report is taken to advertise: a window of 0 would let one report shut the sender; a receiver
     * that reads nothing is handled by the stall rules instead.
     */
    static final long MIN_WINDOW_BYTES = 1;
    /**
     * Least window the delay bound leaves a receiver (see {@link #flowRoom(InFlight, long)}): reports come at least
     * every 5 ms while data flows, so this lets a sender move 100 MB/s whatever a receiver's measured pace says, and
     * a receiver measured slow while the sender itself was slow is never held to that.
     */
    static final long MIN_DELAY_WINDOW_BYTES = 512 * 1024;
    /** The delay bound allows at least this many least round trips of reading in flight. */
    static final long RTT_HEADROOM = 2;
    /**
     * A receiver with a full window may be silent this many of its usual gaps between two reports (smoothed, see
     * {@link Receiver#reportGapNanos}) when that is longer than the window silence: a receiver on a host starved of
     * CPU reports seldom and is waited for longer, a dead one that reported every few milliseconds is let go after
     * the window silence. Its gaps, not its round trip: a live receiver reports as it reads whatever its path, and a
     * round trip measured through a standing queue (821 ms on loopback) or a GRTT inflated by a starved 2-core host
     * (66-175 ms) held the living up to 1.4 s for a subscriber killed with -9.
     */
    static final int WINDOW_SILENCE_GAPS = 8;
    /** Weight of a new gap in {@link Receiver#reportGapNanos}: 1/8. */
    static final int REPORT_GAP_SMOOTHING = 8;
    /**
     * Longest gap counted into {@link Receiver#reportGapNanos} (the default window silence): a receiver heard again
     * after a long silence is not waited for seconds the next time, and one that reports no oftener than this is
     * waited for {@link #WINDOW_SILENCE_GAPS} of it at most (1.2 s).
     */
    static final long MAX_REPORT_GAP_NANOS = 150_000_000L;
    /**
     * A receiver with a full window may also be silent this many of its longest recent gaps ({@link
     * Receiver#peakGapNanos}): a live receiver on a host starved of CPU reports every few milliseconds, then pauses
     * for a few hundred (8 subscribers in one JVM on 2 cores); let go at such a pause, it is overrun and repaired.
     */
    static final int WINDOW_SILENCE_PEAKS = 2;
    /** Longest gap counted into {@link Receiver#peakGapNanos}: one heard after a long silence is not held long. */
    static final long MAX_PEAK_GAP_NANOS = 500_000_000L;
    /** Receivers dropped for making no progress, remembered so that only an acknowledgement tracks them again. */
    static final int MAX_STALLED_REMEMBERED = 1024;

    private final IntObjectHashMap<Receiver> receivers = new IntObjectHashMap<>();
    /** The same receivers in a list, iterated on hot paths without allocating an iterator. */
    private final ArrayList<Receiver> receiverList = new ArrayList<>();
    private final boolean autoTrack;
    private final int capacity;
    private final long noProgressNanos;
    private final org.fjm2.norm.protocol.ProtocolContext ctx;
    private final java.util.LinkedHashSet<Integer> stalled = new java.util.LinkedHashSet<>();
    /**
     * Round FLUSHes a receiver must have left unanswered (6) before its silence counts for the cache overflow (see
     * {@link #unansweredOwersSilentAt}): one FLUSH lost on a link losing 30% is common, six in a row are not (0.07%).
     */
    static final int SILENT_AFTER_ASKS = 6;

    /**
     * How long (500 ms) feedback from a receiver that said it leaves is not taken to mean it is back: its flow reports
     * travel to our unicast socket and its leave to the group's, so a report sent just before the leave can be read
     * after it (two sockets, no order between them; through a tunnel, two paths). Tracked again, the departed
     * receiver was waited for until the overflow let the sender by (ReceiverDepartureTest, once in a full suite run).
     * A receiver that really comes back with the same node id within this time is tracked a moment later.
     */
    static final long LEFT_GRACE_NANOS = 500_000_000L;

    /** Receivers that said they leave, with when (the latest {@link #MAX_STALLED_REMEMBERED} remembered). */
    private final LinkedHashMap<Integer, Long> left = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Long> eldest) {
            return size() > MAX_STALLED_REMEMBERED;
        }
    };

    /** Receivers suspended for silence, kept so that they rejoin with what they had acknowledged. */
    private final IntObjectHashMap<Receiver> suspended = new IntObjectHashMap<>();
    private int dropped;
    /** Some receiver was tracked at some time (see {@link CacheEviction#DISCOVERY_NANOS}). */
    private boolean everTracked;
    /** When a receiver not tracked before (nor suspended) was last tracked. */
    private long lastNewReceiverNanos;
    /** Receivers or their windows changed since flow control last computed the room (see {@link #flowRoom}). */
    private boolean flowChanged = true;

    // The active round.
    private boolean roundActive;
    private int roundObject;
    private int flushesLeft;
    // A user-requested round (reported through the listener) waits for its object to be sent.
    private long userTicket = -1;
    private int userObject = -1;
    private Map<Integer, Boolean> userNodes;
    private boolean userRoundActive;

    /**
     * @param capacity        most receivers tracked
     * @param noProgressNanos how long a receiver may acknowledge nothing new before it is no longer waited for
     */
    Acknowledgements(boolean autoTrack, int capacity, long noProgressNanos, org.fjm2.norm.protocol.ProtocolContext ctx) {
        this.autoTrack = autoTrack;
        this.capacity = capacity;
        this.noProgressNanos = noProgressNanos;
        this.ctx = ctx;
    }

    /** Feedback other than an acknowledgement arrived from a receiver: it is alive (and tracked from now on). */
    void heardFrom(int nodeId, long nowNanos) {
        heardFrom(nodeId, nowNanos, false);
    }

    private void heardFrom(int nodeId, long nowNanos, boolean acknowledgement) {
        Receiver r = receivers.get(nodeId);
        if (r == null && !suspended.isEmpty() && (r = suspended.remove(nodeId)) != null) {
            receivers.put(nodeId, r);
            receiverList.add(r);
            flowChanged = true;
            LOG.debug("receiver {} heard again: waited for again", Integer.toUnsignedString(nodeId));
        }
        if (r == null) {
            if (!autoTrack || (!acknowledgement && !stalled.isEmpty() && stalled.contains(nodeId))
                    || leftRecently(nodeId, nowNanos)) {
                return;
            }
            if (acknowledgement && !stalled.isEmpty()) {
                stalled.remove(nodeId);
            }
            if (receivers.size() >= capacity) {
                evictLeastRecentlyHeard();
            }
            r = new Receiver(nodeId, nowNanos);
            receivers.put(nodeId, r);
            receiverList.add(r);
            everTracked = true;
            lastNewReceiverNanos = nowNanos;
            LOG.debug("tracking receiver {}", Integer.toUnsignedString(nodeId));
        }
        r.missedRounds = 0;
        r.answeredThisRound = true;
        long gap = Math.max(0, nowNanos - r.lastHeardNanos);
        r.reportGapNanos += (Math.min(MAX_REPORT_GAP_NANOS, gap) - r.reportGapNanos) / REPORT_GAP_SMOOTHING;
        r.peakGapNanos = Math.max(Math.min(MAX_PEAK_GAP_NANOS, gap),
                r.peakGapNanos - r.peakGapNanos / REPORT_GAP_SMOOTHING);
        r.lastHeardNanos = nowNanos;
        r.unansweredAsks = 0;
    }

    /** O(capacity), paid only when a new receiver arrives at a full table. */
    private void evictLeastRecentlyHeard() {
        Receiver eldest = null;
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (eldest == null || r.lastHeardNanos - eldest.lastHeardNanos < 0) {
                eldest = r;
            }
        }
        if (eldest == null) {
            return;
        }
        receivers.remove(eldest.nodeId);
        receiverList.remove(eldest);
        flowChanged = true;
        ctx.counters().increment(org.fjm2.norm.api.NormCounters.Counter.RECEIVERS_EVICTED);
        if (ctx.remoteEvents().allow(RemoteEvent.RECEIVER_EVICTED)) {
            LOG.warn("more than maxReceivers={} receivers give feedback: no longer waiting for receiver {}, heard from "
                    + "least recently ({} more since the last line)", capacity, Integer.toUnsignedString(eldest.nodeId),
                    ctx.remoteEvents().takeSuppressed(RemoteEvent.RECEIVER_EVICTED));
        }
    }

    /**
     * Suspends the receivers the active round waits for that said nothing at all for {@code silenceNanos}; true when
     * the round is thereby complete (nobody left to wait for).
     */
    boolean suspendSilent(long nowNanos, long silenceNanos) {
        if (!roundActive) {
            return false;
        }
        boolean any = false;
        for (int i = receiverList.size() - 1; i >= 0; i--) {
            Receiver r = receiverList.get(i);
            boolean done = r.hasAcknowledged(roundObject);
            // Silence counts from the first round it left unanswered: between rounds it has nothing to say.
            long since = r.lastHeardNanos - r.waitedSinceNanos > 0 ? r.lastHeardNanos : r.waitedSinceNanos;
            if (!done && r.answersRounds && nowNanos - since >= silenceNanos) {
                suspend(i, nowNanos, "a round waits for it");
                any = true;
            }
        }
        if (any && roundSatisfied() && !userRoundActive) {
            roundActive = false;
            return true;
        }
        return false;
    }

    private void suspend(int index, long nowNanos, String why) {
        Receiver r = receiverList.remove(index);
        receivers.remove(r.nodeId);
        flowChanged = true;
        if (suspended.size() >= capacity) {
            suspended.clear();      // forgotten: they rejoin as new receivers if they come back
        }
        suspended.put(r.nodeId, r);
        ctx.counters().increment(org.fjm2.norm.api.NormCounters.Counter.RECEIVERS_SUSPENDED);
        if (ctx.remoteEvents().allow(RemoteEvent.RECEIVER_SUSPENDED)) {
            LOG.info("receiver {} silent for {} ms while {}: no longer waited for until it is heard again ({} more "
                    + "suspended since the last line)", Integer.toUnsignedString(r.nodeId),
                    (nowNanos - r.lastHeardNanos) / 1_000_000, why,
                    ctx.remoteEvents().takeSuppressed(RemoteEvent.RECEIVER_SUSPENDED));
        }
    }

    // ---- receiver-paced flow control ---------------------------------------------------------------------------

    /** What a receiver's socket buffer is charged for our messages sent after one it read (see {@link FlowWindow}). */
    interface InFlight {
        /** Bytes charged for our messages after {@code readSequence}; 0 when that sequence is ahead of us. */
        long chargeAfter(int readSequence);
    }

    /**
     * A receive-window report: the receiver read our messages up to {@code readSequence} and its socket buffer holds
     * {@code windowBytes} beyond it. It is alive and answers rounds (an FJM2 receiver). False when the receiver is
     * not tracked (dropped for making no progress: only an acknowledgement brings it back).
     */
    boolean onWindowReport(int nodeId, int readSequence, long windowBytes, long nowNanos) {
        return onWindowReport(nodeId, readSequence, windowBytes, nowNanos, null);
    }

    /**
     * The same, and with {@code inFlight} given, what it read since its previous report feeds its {@link DrainRate}
     * (see {@link #flowRoom(InFlight, long)}).
     */
    boolean onWindowReport(int nodeId, int readSequence, long windowBytes, long nowNanos, InFlight inFlight) {
        heardFrom(nodeId, nowNanos, false);
        Receiver r = receivers.get(nodeId);
        if (r == null) {
            return false;
        }
        if (inFlight != null) {
            if (r.drain == null) {
                r.drain = new DrainRate();
            }
            long read = r.reportsWindow ? inFlight.chargeAfter(r.readSequence) - inFlight.chargeAfter(readSequence) : 0;
            r.drain.onRead(read >= 0 && read < Integer.MAX_VALUE ? read : 0, nowNanos);
        }
        if (!r.reportsWindow || r.readSequence != readSequence) {
            r.readProgressNanos = nowNanos;
        }
        r.answersRounds = true;
        r.reportsWindow = true;
        r.windowIgnored = false;
        r.readSequence = readSequence;
        r.windowBytes = Math.max(MIN_WINDOW_BYTES, windowBytes);
        r.boundedWindowBytes = r.windowBytes;
        flowChanged = true;
        return true;
    }

    /** Whether the receiver is tracked and reports its receive window. */
    boolean reportsWindow(int nodeId) {
        Receiver r = receivers.get(nodeId);
        return r != null && r.reportsWindow;
    }

    /** Whether receivers or windows changed since {@link #flowRoom} last ran. */
    boolean flowChanged() {
        return flowChanged;
    }

    /**
     * How many more bytes (as receivers' buffers are charged) may go out now: the least room any reporting receiver
     * has left — its window less what was sent since the message it last read — or Long.MAX_VALUE when no receiver
     * reports a window.
     */
    long flowRoom(InFlight inFlight) {
        return flowRoom(inFlight, Long.MAX_VALUE);
    }

    /**
     * The same, with each receiver's window bounded by what it reads in its round trip plus {@code queueDelayNanos}
     * (or in {@link #RTT_HEADROOM} round trips, whichever is more; at least {@link #MIN_DELAY_WINDOW_BYTES}): a socket buffer of many megabytes filled by a receiver that reads
     * a few megabytes a second is a queue of seconds, which every probe, NACK and repair waits in (the sender's GRTT
     * grows with it, and with the GRTT every repair timer). Bounded so, the queue holds about {@code queueDelayNanos}
     * of reading, and a receiver that keeps up never meets the bound: the window exceeds what is in flight by what it
     * reads in that delay.
     */
    long flowRoom(InFlight inFlight, long queueDelayNanos) {
        flowChanged = false;
        long room = Long.MAX_VALUE;
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (r.reportsWindow && !r.windowIgnored) {
                r.boundedWindowBytes = delayBoundedWindow(r, queueDelayNanos);
                room = Math.min(room, r.boundedWindowBytes - inFlight.chargeAfter(r.readSequence));
            }
        }
        return room == Long.MAX_VALUE ? room : Math.max(0, room);
    }

    private static long delayBoundedWindow(Receiver r, long queueDelayNanos) {
        if (r.drain == null || queueDelayNanos == Long.MAX_VALUE) {
            return r.windowBytes;
        }
        long minRtt = r.minRttNanos == Long.MAX_VALUE ? 0 : r.minRttNanos;
        long bytesPerSecond = r.drain.bytesPerSecond(RTT_HEADROOM * minRtt);
        if (bytesPerSecond < 0) {
            return r.windowBytes;
        }
        // Twice the round trip at least: the window must let the pace double per round trip on a long path (a sender
        // limited by the window measures the receiver's pace at its own, and only headroom lets it grow).
        long budget = Math.max(minRtt + queueDelayNanos, RTT_HEADROOM * minRtt);
        long bound = (long) (bytesPerSecond * (budget / 1e9));
        return Math.min(r.windowBytes, Math.max(MIN_DELAY_WINDOW_BYTES, bound));
    }

    /** The longest of the tracked receivers' least round-trip times, 0 while none was measured. */
    long longestLeastRttNanos() {
        long longest = 0;
        for (int i = 0; i < receiverList.size(); i++) {
            long least = receiverList.get(i).minRttNanos;
            if (least != Long.MAX_VALUE && least > longest) {
                longest = least;
            }
        }
        return longest;
    }

    /** A round-trip time measured to a receiver (its least is kept: see {@link #flowRoom(InFlight, long)}). */
    void onRtt(int nodeId, long rttNanos) {
        Receiver r = receivers.get(nodeId);
        if (r != null && rttNanos >= 0 && rttNanos < r.minRttNanos) {
            r.minRttNanos = rttNanos;
        }
    }

    /**
     * The sender waits on full windows: a receiver whose window is full and that said nothing for
     * {@code windowSilenceNanos} (or longer for one that reports seldom or paused lately: see {@link #silenceFor}) no
     * longer holds the window (the others go on at once; its data stays cached, so it catches up by repairs if it was
     * only slow to be scheduled), until it reports again; one that keeps reporting but has read nothing for
     * {@code timeoutNanos} is dropped (a hung application, or a node that pretends). True when any changed.
     */
    boolean releaseSilentWindows(InFlight inFlight, long nowNanos, long windowSilenceNanos, long timeoutNanos) {
        boolean any = false;
        for (int i = receiverList.size() - 1; i >= 0; i--) {
            Receiver r = receiverList.get(i);
            if (!windowFull(r, inFlight)) {
                continue;
            }
            if (nowNanos - r.lastHeardNanos >= silenceFor(r, windowSilenceNanos)) {
                r.windowIgnored = true;
                flowChanged = true;
                any = true;
                ctx.counters().increment(org.fjm2.norm.api.NormCounters.Counter.FLOW_WINDOWS_RELEASED);
                if (ctx.remoteEvents().allow(RemoteEvent.RECEIVER_SUSPENDED)) {
                    LOG.info("receiver {} silent for {} ms with its window full: no longer pacing for it until it "
                            + "reports again ({} more since the last line)", Integer.toUnsignedString(r.nodeId),
                            (nowNanos - r.lastHeardNanos) / 1_000_000,
                            ctx.remoteEvents().takeSuppressed(RemoteEvent.RECEIVER_SUSPENDED));
                }
            } else if (nowNanos - r.readProgressNanos >= timeoutNanos) {
                drop(r);
                rememberStalled(r);
                any = true;
                if (ctx.remoteEvents().allow(RemoteEvent.RECEIVER_DROPPED)) {
                    LOG.warn("receiver {} read none of our messages for {} ms though it reports: no longer waiting "
                            + "for it, tracked again once it acknowledges ({} more receivers dropped since the last "
                            + "line)", Integer.toUnsignedString(r.nodeId), (nowNanos - r.readProgressNanos) / 1_000_000,
                            ctx.remoteEvents().takeSuppressed(RemoteEvent.RECEIVER_DROPPED));
                }
            }
        }
        if (any && roundActive && roundSatisfied() && !userRoundActive) {
            roundActive = false;
        }
        return any;
    }

    /** Whether the receiver's window (as flow control last counted it) is paced for and has no room left. */
    private static boolean windowFull(Receiver r, InFlight inFlight) {
        return r.reportsWindow && !r.windowIgnored
                && r.boundedWindowBytes - inFlight.chargeAfter(r.readSequence) <= 0;
    }

    /**
     * How long a receiver with a full window may be silent: {@code windowSilenceNanos}, or
     * {@link #WINDOW_SILENCE_GAPS} of its usual gaps between reports, or {@link #WINDOW_SILENCE_PEAKS} of its longest
     * recent one, whichever is longest.
     */
    private static long silenceFor(Receiver r, long windowSilenceNanos) {
        return Math.max(windowSilenceNanos,
                Math.max(WINDOW_SILENCE_GAPS * r.reportGapNanos, WINDOW_SILENCE_PEAKS * r.peakGapNanos));
    }

    /**
     * When the next receiver whose window is full and still held will have been silent too long (see
     * {@link #releaseSilentWindows}); {@code nowNanos + windowSilenceNanos} when none.
     */
    long nextSilenceDeadline(InFlight inFlight, long nowNanos, long windowSilenceNanos) {
        long next = 0;
        boolean any = false;
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (windowFull(r, inFlight)) {
                long deadline = r.lastHeardNanos + silenceFor(r, windowSilenceNanos);
                if (!any || deadline - next < 0) {
                    next = deadline;
                    any = true;
                }
            }
        }
        return any ? next : nowNanos + windowSilenceNanos;
    }

    /**
     * Whether a receiver heard after {@code sinceNanos}, tracked or suspended for silence, has not acknowledged
     * {@code objectId}: alive, or starved of CPU for a moment rather than dead, it may still come back for what it
     * lacks (see {@link NormSender#flushed()}).
     */
    boolean owedByReceiverHeardSince(int objectId, long sinceNanos) {
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (owes(r, objectId, sinceNanos)) {
                return true;
            }
        }
        if (!suspended.isEmpty()) {
            for (Receiver r : suspended.values()) {
                if (owes(r, objectId, sinceNanos)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean owes(Receiver r, int objectId, long sinceNanos) {
        return r.lastHeardNanos - sinceNanos > 0 && !r.hasAcknowledged(objectId);
    }

    /** A FLUSH of the active round went out, listing the receivers that still owe its watermark. */
    void askedInRound(long nowNanos) {
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (!r.hasAcknowledged(roundObject) && r.unansweredAsks++ == 0) {
                r.firstUnansweredAskNanos = nowNanos;
            }
        }
    }

    /**
     * When every tracked receiver that has not acknowledged {@code objectId} will have left round FLUSHes unanswered
     * for {@code silenceNanos}: the latest of their deadlines, counted from the first FLUSH it left unanswered.
     * {@code Long.MIN_VALUE} when none owes it, or one of them does not answer rounds or was asked fewer than
     * {@link #SILENT_AFTER_ASKS} times since it was last heard. Not a receiver flow control let go of: that comes
     * after 150 ms of silence, also for a receiver behind a tunnel whose reports lag, and counting it let the sender run
     * twice its cache ahead of a live receiver (the three-LAN mesh then lost 234 objects; the rule was taken back).
     * A receiver that a round lists says it is alive at least every 20 ms while it cannot acknowledge yet; one that
     * ignores several FLUSHes is dead or starved. Only FLUSHes count, not time alone: while a sender sends repairs
     * its round's FLUSHes wait, and a receiver collecting a 1 MiB object on a link losing 30% was 150 ms silent in
     * a round without having been asked.
     */
    long unansweredOwersSilentAt(int objectId, long silenceNanos) {
        long latest = 0;
        boolean owed = false;
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (r.hasAcknowledged(objectId)) {
                continue;
            }
            if (!r.answersRounds || r.unansweredAsks < SILENT_AFTER_ASKS) {
                return Long.MIN_VALUE;
            }
            long silentAt = r.firstUnansweredAskNanos + silenceNanos;
            if (!owed || silentAt - latest > 0) {
                latest = silentAt;
                owed = true;
            }
        }
        return owed ? latest : Long.MIN_VALUE;
    }

    /** Receivers suspended for silence (not waited for until heard again). */
    int suspendedCount() {
        return suspended.size();
    }

    /** The receiver said it is alive, listed but not ready (an FJM2 receiver: it answers every round). */
    void alive(int nodeId, long nowNanos) {
        heardFrom(nodeId, nowNanos, false);
        Receiver r = receivers.get(nodeId);
        if (r != null) {
            r.answersRounds = true;
        }
    }

    /** Whether {@code nodeId} said it leaves less than {@link #LEFT_GRACE_NANOS} ago (forgotten after that). */
    private boolean leftRecently(int nodeId, long nowNanos) {
        if (left.isEmpty()) {
            return false;
        }
        Long at = left.get(nodeId);
        if (at == null) {
            return false;
        }
        if (nowNanos - at < LEFT_GRACE_NANOS) {
            return true;
        }
        left.remove(nodeId);
        return false;
    }

    /** The receiver said it leaves the group: stop waiting for it. */
    void leave(int nodeId) {
        left.put(nodeId, ctx.nanoTime());
        suspended.remove(nodeId);
        Receiver r = receivers.remove(nodeId);
        if (r != null) {
            receiverList.remove(r);
            flowChanged = true;
            LOG.debug("receiver {} left", Integer.toUnsignedString(nodeId));
        }
    }

    /** A NORM_ACK(FLUSH) from {@code nodeId} for watermark object {@code objectId}; returns true when a round ended. */
    boolean onAck(int nodeId, int objectId, long nowNanos) {
        heardFrom(nodeId, nowNanos, true);
        Receiver r = receivers.get(nodeId);
        if (r != null && (!r.acked || atOrAfter(objectId, r.ackedObject))) {
            if (!r.acked || objectId != r.ackedObject) {
                r.lastProgressNanos = nowNanos;
            }
            r.acked = true;
            r.ackedObject = objectId;
        }
        if (userNodes != null && userRoundActive && objectId == userObject && userNodes.containsKey(nodeId)) {
            userNodes.put(nodeId, Boolean.TRUE);
        }
        if (roundActive && roundSatisfied()) {
            roundActive = false;
            return true;
        }
        return false;
    }

    /** Whether nobody the active round asks (tracked receivers, a user request's nodes) still owes its watermark. */
    private boolean roundSatisfied() {
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (!r.hasAcknowledged(roundObject)) {
                return false;
            }
        }
        if (userRoundActive && userObject == roundObject && userNodes.containsValue(Boolean.FALSE)) {
            return false;
        }
        return true;
    }

    /** Whether every tracked receiver has acknowledged everything up to and including {@code objectId}. */
    boolean acknowledged(int objectId) {
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (!r.hasAcknowledged(objectId)) {
                return false;
            }
        }
        return true;
    }

    /** Whether any receiver was ever tracked. */
    boolean everTracked() {
        return everTracked;
    }

    /** When a receiver was last tracked for the first time (valid once {@link #everTracked}). */
    long lastNewReceiverNanos() {
        return lastNewReceiverNanos;
    }

    boolean hasReceivers() {
        return !receivers.isEmpty();
    }

    int trackedCount() {
        return receivers.size();
    }

    int droppedCount() {
        return dropped;
    }

    /** Starts a round for watermark {@code objectId} (the last object sent). */
    void startRound(int objectId, int flushes) {
        roundActive = true;
        roundObject = objectId;
        flushesLeft = flushes;
        long now = ctx.nanoTime();
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            if (r.lastHeardNanos - r.waitedSinceNanos >= 0) {
                r.waitedSinceNanos = now;     // heard since it was last waited for: a fresh wait begins
            }
            r.answeredThisRound = false;
        }
        if (userNodes != null && userObject == objectId) {
            userRoundActive = true;
            creditTrackedAcknowledgements();
        }
    }

    boolean roundActive() {
        return roundActive;
    }

    int roundObject() {
        return roundObject;
    }

    /**
     * The sender went back to repair data at or before the round's watermark: receivers are still catching up, so
     * the round gets its whole FLUSH budget again (NRL NORM resets its acking nodes' request counts the same way).
     */
    void restartFlushes(int flushes) {
        flushesLeft = flushes;
    }

    /** Takes one FLUSH from the round's budget; false when the round has run out (call {@link #expireRound}). */
    boolean takeFlush() {
        return flushesLeft-- > 0;
    }

    /**
     * The round ran out of FLUSH repetitions: receivers that said nothing at all during it count a missed round,
     * and are dropped after {@link #MAX_MISSED_ROUNDS} once they have also been silent for {@code timeoutNanos}.
     * (A receiver that NACKed instead is alive, only behind.)
     */
    void expireRound(long nowNanos, long timeoutNanos) {
        roundActive = false;
        if (!suspended.isEmpty()) {
            suspended.values().removeIf(r -> nowNanos - r.lastHeardNanos >= timeoutNanos);
        }
        List<Receiver> gone = null;
        List<Receiver> stuck = null;
        for (int i = 0; i < receiverList.size(); i++) {
            Receiver r = receiverList.get(i);
            boolean done = r.hasAcknowledged(roundObject);
            if (done) {
                continue;
            }
            if (!r.answeredThisRound && ++r.missedRounds >= MAX_MISSED_ROUNDS
                    && nowNanos - r.lastHeardNanos >= timeoutNanos) {
                if (gone == null) {
                    gone = new ArrayList<>();
                }
                gone.add(r);
            } else if (nowNanos - r.lastProgressNanos >= noProgressNanos) {
                if (stuck == null) {
                    stuck = new ArrayList<>();
                }
                stuck.add(r);
            }
        }
        if (gone != null) {
            for (Receiver r : gone) {
                drop(r);
                if (ctx.remoteEvents().allow(RemoteEvent.RECEIVER_DROPPED)) {
                    LOG.warn("receiver {} silent for {} ms and {} acknowledgement rounds: no longer waiting for it "
                            + "({} more receivers dropped since the last line)", Integer.toUnsignedString(r.nodeId),
                            (nowNanos - r.lastHeardNanos) / 1_000_000, r.missedRounds,
                            ctx.remoteEvents().takeSuppressed(RemoteEvent.RECEIVER_DROPPED));
                }
            }
        }
        if (stuck != null) {
            for (Receiver r : stuck) {
                drop(r);
                rememberStalled(r);
                if (ctx.remoteEvents().allow(RemoteEvent.RECEIVER_DROPPED)) {
                    LOG.warn("receiver {} acknowledged nothing new for {} ms though it is heard: no longer waiting for "
                            + "it, tracked again once it acknowledges ({} more receivers dropped since the last line)",
                            Integer.toUnsignedString(r.nodeId), (nowNanos - r.lastProgressNanos) / 1_000_000,
                            ctx.remoteEvents().takeSuppressed(RemoteEvent.RECEIVER_DROPPED));
                }
            }
        }
    }

    private void rememberStalled(Receiver r) {
        if (stalled.size() >= MAX_STALLED_REMEMBERED) {
            stalled.remove(stalled.iterator().next());
        }
        stalled.add(r.nodeId);
    }

    private void drop(Receiver r) {
        receivers.remove(r.nodeId);
        receiverList.remove(r);
        flowChanged = true;
        dropped++;
    }

    /** Node ids the current round still waits for (tracked ones, plus the nodes of a user request). */
    List<Integer> pendingNodes() {
        List<Integer> pending = new ArrayList<>();
        for (Receiver r : receivers.values()) {
            if (!r.hasAcknowledged(roundObject)) {
                pending.add(r.nodeId);
            }
        }
        if (userRoundActive && userObject == roundObject) {
            for (Map.Entry<Integer, Boolean> e : userNodes.entrySet()) {
                if (!e.getValue() && !pending.contains(e.getKey())) {
                    pending.add(e.getKey());
                }
            }
        }
        return pending;
    }

    // ---- user-requested acknowledgement --------------------------------------------------------------------------

    void requestUser(long ticket, int[] nodes) {
        userTicket = ticket;
        userObject = -1;
        userRoundActive = false;
        userNodes = new LinkedHashMap<>();
        for (int n : nodes) {
            userNodes.put(n, Boolean.FALSE);
        }
    }

    boolean userRequested() {
        return userNodes != null;
    }

    long userTicket() {
        return userTicket;
    }

    int userObject() {
        return userObject;
    }

    void userObject(int objectId) {
        userObject = objectId;
        creditTrackedAcknowledgements();
    }

    /** Nodes of the user request that already acknowledged its object (in an earlier round) count as done. */
    private void creditTrackedAcknowledgements() {
        if (userNodes == null || userObject < 0) {
            return;
        }
        for (Map.Entry<Integer, Boolean> e : userNodes.entrySet()) {
            Receiver r = receivers.get(e.getKey());
            if (r != null && r.hasAcknowledged(userObject)) {
                e.setValue(Boolean.TRUE);
            }
        }
    }

    /** Whether the user round has its answer (every node acknowledged, or its round expired). */
    boolean userDone() {
        if (userNodes == null || !userRoundActive) {
            return false;
        }
        return !roundActive || !userNodes.containsValue(Boolean.FALSE);
    }

    /** Ends the user round and returns its per-node outcome. */
    Map<Integer, Boolean> takeUserResult() {
        Map<Integer, Boolean> result = Map.copyOf(userNodes);
        userNodes = null;
        userRoundActive = false;
        userTicket = -1;
        userObject = -1;
        return result;
    }

    /** Whether 16-bit object id {@code a} equals or follows {@code b}. */
    static boolean atOrAfter(int a, int b) {
        return ((a - b) & 0xFFFF) < 0x8000;
    }
}
