package org.fjm2.norm.sender;

import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.Timer;
import org.fjm2.norm.transport.DatagramCapacity;
import org.fjm2.norm.transport.SocketBufferLimits;

/**
 * Receiver-paced flow control, the sender's gate: a data message may go out only while every receiver that reports
 * its window has room — its socket buffer holds what we sent since the message it last read — so the sender never
 * outruns the slowest live receiver, whatever the kernel's buffer cap. What each message costs a receiver's buffer is
 * what the kernel charges for it ({@link DatagramCapacity#charge}), kept per sequence number in a ring so that a
 * report naming the last message read tells how much is in flight after it. The room is computed when reports or
 * receivers change, then counted down by the messages sent.
 *
 * <p>Before any receiver reported, an initial window (half of what our own socket buffer would hold: receivers are
 * taken to have buffers like ours) keeps the first burst from overflowing receivers that have not spoken yet. While
 * the gate is shut, a receiver whose window stays full and that says nothing for the window silence ({@link NormConfig#windowSilence()}) is
 * no longer paced for (the living go on; it stays waited for by the cache, and catches up by repairs if it was only
 * slow); it is dropped when it keeps reporting but reads nothing for the receiver timeout. Owned by the session's
 * event loop.
 */
final class FlowWindow implements Acknowledgements.InFlight {

    /**
     * Least the sender holds to its initial window while no receiver reported: receivers answer the first probe
     * within a round trip, but on a loaded host a fresh process may take a good part of this to be scheduled; a
     * group without FJM2 receivers (NRL NORM, nobody) is held this long once, at its start.
     */
    static final long INITIAL_WAIT_NANOS = 100_000_000L;
    /**
     * How long after the first report the receivers not heard from yet are still taken to have read nothing: the
     * charge sent since the start stays within a buffer like ours (its paced share, twice the initial window) until
     * then. Every receiver reads the probe that offers flow control at about the same time, but answers only when its
     * thread runs: on a loaded host one answered 4 ms after another, by when the sender, paced by the first alone, had
     * put 185 KB into its 128 KiB socket.
     */
    static final long START_GUARD_NANOS = 20_000_000L;
    /** Longest initial wait whatever the GRTT (four GRTTs, between the two bounds). */
    static final long INITIAL_WAIT_MAX_NANOS = 500_000_000L;
    /**
     * How long the sender waits on a full window before it sends a probe (NORM_CMD(CC)), which every receiver reads
     * and answers with a report: a report lost on the way (a feedback socket that overflowed) would otherwise leave
     * the sender waiting for one that never comes, while the receiver, having read everything, has nothing new to
     * report. One GRTT, within these bounds.
     */
    static final long WINDOW_PROBE_MIN_NANOS = 2_000_000L;
    static final long WINDOW_PROBE_MAX_NANOS = 50_000_000L;
    /**
     * Longest interval between probes while they go unanswered: each unanswered probe doubles the next interval up to
     * this. A receiver that is not scheduled reads nothing, and every probe is one more datagram its full buffer must
     * hold beside the window, in the share kept for unpaced traffic: probing every GRTT through a stall of seconds
     * sent over a hundred. A lost report is still recovered from within a GRTT or two.
     */
    static final long WINDOW_PROBE_BACKOFF_MAX_NANOS = 1_000_000_000L;
    /** Messages whose charge is remembered: far more than fit in any window, half the 16-bit sequence space. */
    static final int RING = 1 << 15;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final Acknowledgements acks;
    private final GrttEstimator grtt;
    private final Timer stallTimer;
    private final Timer initialTimer;
    private final Timer windowProbeTimer;
    private final Timer startGuardTimer;
    /** Sends a probe at the next opportunity (receivers answer it with a report). */
    private final Runnable askForReports;
    /** Bytes of the initial window. */
    private final long initialWindow;
    /** While the start guard lasts ({@link #START_GUARD_NANOS} after the first report), when it ends. */
    private long startGuardEndNanos;
    private boolean startGuarded;
    /** Cumulative charge (wrapping) after each sequence number sent, by sequence modulo {@link #RING}. */
    private int[] chargeAfter;
    private int totalCharge;
    private int nextRecorded = -1;
    private boolean started;
    /** A receiver reported (or the initial wait ran out): the reported windows rule from now on. */
    private boolean reportsRule;
    /** Total charge when the room was computed. */
    private int baseCharge;
    private long room = Long.MAX_VALUE;
    private boolean waiting;
    /** Interval to the next probe while waiting: one GRTT at first, doubled by every probe left unanswered. */
    private long probeIntervalNanos;

    FlowWindow(ProtocolContext ctx, Acknowledgements acks, GrttEstimator grtt, Runnable askForReports) {
        this.askForReports = askForReports;
        this.windowProbeTimer = new Timer("sender-flow-probe", this::onWindowProbeTimer);
        this.ctx = ctx;
        this.config = ctx.config();
        this.acks = acks;
        this.grtt = grtt;
        this.stallTimer = new Timer("sender-flow-stall", this::onStallTimer);
        this.initialTimer = new Timer("sender-flow-initial", this::onInitialTimer);
        this.startGuardTimer = new Timer("sender-flow-start-guard", this::onStartGuardTimer);
        long granted = 2L * Math.min(config.receiveBuffer(),
                SocketBufferLimits.cap(SocketBufferLimits.RMEM_MAX).orElse(Integer.MAX_VALUE));
        this.initialWindow = Math.max(2L * DatagramCapacity.charge(config.segmentSize() + SenderPackets.HEADER_ROOM),
                DatagramCapacity.pacedShare(granted) / 2);
        this.reportsRule = !config.receiverFlowControl();
    }

    /** A message of {@code length} bytes left with sequence number {@code sequence}. */
    void onSent(int sequence, int length) {
        if (!config.receiverFlowControl()) {
            return;
        }
        if (chargeAfter == null) {
            chargeAfter = new int[RING];
            nextRecorded = sequence;
        }
        // Sequence numbers the session used for other messages (its feedback as a receiver) cost our receivers nothing.
        for (int s = nextRecorded; s != sequence; s = (s + 1) & 0xFFFF) {
            chargeAfter[s & (RING - 1)] = totalCharge;
        }
        totalCharge += DatagramCapacity.charge(length);
        chargeAfter[sequence & (RING - 1)] = totalCharge;
        nextRecorded = (sequence + 1) & 0xFFFF;
    }

    @Override
    public long chargeAfter(int readSequence) {
        if (chargeAfter == null) {
            return 0;
        }
        int behind = (nextRecorded - 1 - readSequence) & 0xFFFF;
        if (behind >= 0x8000) {
            return 0;                       // ahead of what we sent: a report from before a restart
        }
        if (behind >= RING - 1) {
            return Long.MAX_VALUE / 4;      // further behind than remembered: full until it reports again
        }
        return Integer.toUnsignedLong(totalCharge - chargeAfter[readSequence & (RING - 1)]);
    }

    /** Whether a data message may go out now; when not, the sender waits for a report (or a timer). */
    boolean open(long now) {
        if (acks.flowChanged()) {
            baseCharge = totalCharge;
            room = acks.flowRoom(this, config.flowDelay().toNanos());
            if (!reportsRule && room != Long.MAX_VALUE) {
                reportsRule = true;
                startGuarded = true;
                startGuardEndNanos = now + START_GUARD_NANOS;
            }
        }
        if (!reportsRule && room == Long.MAX_VALUE) {
            return initialWindowOpen(now);
        }
        if (startGuarded && startGuardHolds(now)) {
            return false;
        }
        if (room == Long.MAX_VALUE || Integer.toUnsignedLong(totalCharge - baseCharge) < room) {
            waiting = false;
            return true;
        }
        if (!waiting) {
            waiting = true;
            ctx.counters().increment(Counter.FLOW_WINDOW_WAITS);
            // A receiver that fell silent long before its window filled (killed while it had room) is released at
            // once, not a window silence later: the living would see that much of a gap.
            long deadline = acks.nextSilenceDeadline(this, now, config.windowSilence().toNanos());
            if (!stallTimer.isActive() || deadline - stallTimer.deadlineNanos() < 0) {
                ctx.timers().schedule(stallTimer, deadline);
            }
            scheduleFirstProbe(now);
        }
        return false;
    }

    /**
     * Before any receiver reported: the initial window, then a wait of at most the initial wait for a first report
     * (measured from when the window filled, so that a slow first pass of a cold sender does not use it up).
     */
    private boolean initialWindowOpen(long now) {
        if (!started) {
            started = true;
            baseCharge = totalCharge;
        }
        if (Integer.toUnsignedLong(totalCharge - baseCharge) < initialWindow) {
            return true;
        }
        if (!initialTimer.isActive() && !waiting) {
            ctx.timers().schedule(initialTimer, now + initialWaitNanos());
            // A receiver that missed the first probe (the one that offers flow control) learns of it from the next.
            scheduleFirstProbe(now);
        }
        waiting = true;
        return false;
    }

    private long initialWaitNanos() {
        return Math.min(INITIAL_WAIT_MAX_NANOS, Math.max(INITIAL_WAIT_NANOS, 4 * grtt.advertisedNanos()));
    }

    /**
     * Whether the start guard holds data back now: the charge sent since the start (the first message: the charge
     * counts from zero) reached a buffer like ours while the receivers that have not answered yet may still answer.
     */
    private boolean startGuardHolds(long now) {
        if (now - startGuardEndNanos >= 0) {
            startGuarded = false;
            return false;
        }
        if (Integer.toUnsignedLong(totalCharge) < 2 * initialWindow) {
            return false;
        }
        if (!startGuardTimer.isActive()) {
            ctx.timers().schedule(startGuardTimer, startGuardEndNanos);
        }
        return true;
    }

    private void onStartGuardTimer() {
        startGuarded = false;
        ctx.wakeTransmitter();
    }

    /** The initial wait ran out without a report: nobody reports, so flow control has nobody to pace for. */
    private void onInitialTimer() {
        if (!reportsRule) {
            reportsRule = true;
            waiting = false;
            ctx.wakeTransmitter();
        }
    }

    /** Whether the sender is waiting for a receiver's window. */
    boolean waiting() {
        return waiting;
    }

    /** A report arrived: a waiting sender tries again. */
    void onReport() {
        if (waiting) {
            ctx.wakeTransmitter();
        }
    }

    private void scheduleFirstProbe(long now) {
        probeIntervalNanos = Math.min(WINDOW_PROBE_MAX_NANOS, Math.max(WINDOW_PROBE_MIN_NANOS, grtt.advertisedNanos()));
        ctx.timers().schedule(windowProbeTimer, now + probeIntervalNanos);
    }

    /**
     * Still waiting one GRTT later: ask the receivers where they are, and again while it lasts, each time twice as late
     * (a report that opens the gate ends the wait; the next wait starts again at one GRTT).
     */
    private void onWindowProbeTimer() {
        if (waiting) {
            askForReports.run();
            probeIntervalNanos = Math.min(WINDOW_PROBE_BACKOFF_MAX_NANOS, 2 * probeIntervalNanos);
            ctx.timers().schedule(windowProbeTimer, ctx.nanoTime() + probeIntervalNanos);
        }
    }

    private void onStallTimer() {
        if (!waiting) {
            return;
        }
        long now = ctx.nanoTime();
        long silence = config.windowSilence().toNanos();
        if (acks.releaseSilentWindows(this, now, silence, config.receiverTimeout().toNanos())
                || acks.flowChanged()) {
            waiting = false;            // the next pass computes the room again, and waits again if need be
            ctx.wakeTransmitter();
        } else {
            ctx.timers().schedule(stallTimer, acks.nextSilenceDeadline(this, now, silence));
        }
    }
}
