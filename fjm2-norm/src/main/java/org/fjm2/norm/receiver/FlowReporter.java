package org.fjm2.norm.receiver;

import org.fjm2.norm.codec.FlowReport;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.Timer;
import org.fjm2.norm.transport.DatagramCapacity;

/**
 * This receiver's side of receiver-paced flow control for one sender that offers it: counts what the sender's
 * messages taken off the socket were charged and reports (NORM_ACK(FJM2 flow), {@link FlowReport}) the newest
 * sequence read, the window the socket buffer holds beyond it, and the object up to which nothing more is needed. A
 * report goes out when a third of the window was read since the last one (so the sender never waits on a full window while we have read
 * it), and at the end of a read batch when {@link #MIN_INTERVAL_NANOS} passed since the last one (so a trickle is
 * acknowledged too, and the sender hears that we are alive). While the application holds acknowledgements back (its
 * consumers are behind: {@link ProtocolContext#acknowledgementsHeld()}), the reported sequence stays where it was
 * when the hold began: the sender's room for us runs out after one window, so a slow consumer paces the sender like
 * a slow socket reader instead of letting it fill its cache until the maximum hold time forces data out; reports
 * go on every {@link #HELD_KEEPALIVE_NANOS} meanwhile, or the sender would take the silence of a full window for death
 * and stop pacing for us. Owned by the session's event loop.
 */
final class FlowReporter {

    /** Fraction (1/n) of the window read that triggers a report at once. */
    static final int REPORT_EVERY_WINDOW_FRACTION = 3;
    /**
     * Least time between reports that a read batch ending triggers: a sender sending a message now and then gets at
     * most 200 reports a second from each receiver.
     */
    static final long MIN_INTERVAL_NANOS = 5_000_000L;
    /**
     * How often a report made while the application held acknowledgements back (its consumers behind) looks again
     * whether it caught up: then the objects it released since are reported at once, for the sender's cache may be
     * full and waiting for exactly that, with nothing new on the way that would trigger a report.
     */
    static final long HELD_RECHECK_NANOS = 5_000_000L;
    /**
     * Longest time between reports while acknowledgements are held (the sender may have stopped on our window, so no
     * message triggers one): well inside the sender's least window silence (150 ms).
     */
    static final long HELD_KEEPALIVE_NANOS = 50_000_000L;

    /** What a report says about released objects (the remote sender's receive state answers it). */
    interface Releases {
        /** The object up to which (inclusive) nothing more is needed, or -1 when not known yet. */
        int releasedThrough();
    }

    private final ProtocolContext ctx;
    private final ReceiveWindow window;
    private final ReceiverFeedback feedback;
    private final Releases releases;
    private final Timer timer;
    private final Timer heldTimer;
    private boolean offered;
    private boolean queued;
    private boolean closed;
    private int readSequence;
    /** The sequence the last report gave: while acknowledgements are held, the sender is told no more than this. */
    private int reportedSequence;
    private boolean reportedOnce;
    private long unreported;
    private long lastReportNanos = Long.MIN_VALUE / 2;
    private int lastReleased = -1;

    FlowReporter(ProtocolContext ctx, ReceiveWindow window, ReceiverFeedback feedback, Releases releases) {
        this.ctx = ctx;
        this.window = window;
        this.feedback = feedback;
        this.releases = releases;
        this.timer = new Timer("receiver-flow-report", this::onTimer);
        this.heldTimer = new Timer("receiver-flow-held", this::onHeldTimer);
    }

    /**
     * The sender offered flow control (EXT_FJM2_FLOW in a probe of sequence {@code sequence}, {@code length} bytes):
     * the first report, naming that probe as read, goes out at once, not after the objects of the rest of this read
     * batch were delivered: until it arrives the sender paces for this receiver only by its start guard.
     */
    void offered(int sequence, int length) {
        if (!offered && !closed && !ctx.config().silentReceiver()) {
            offered = true;
            window.senderOffered();
            readSequence = sequence;
            unreported = DatagramCapacity.charge(length);
            report(ctx.nanoTime());
            ctx.output().flushNow();
        }
    }

    boolean isOffered() {
        return offered;
    }

    /**
     * A message of this sender with common-header sequence {@code sequence}, {@code length} bytes, was taken off the
     * socket.
     */
    void onMessage(int sequence, int length) {
        if (!offered) {
            return;
        }
        readSequence = sequence;
        unreported += DatagramCapacity.charge(length);
        if (unreported >= Math.max(1, window.perSender() / REPORT_EVERY_WINDOW_FRACTION)) {
            report(ctx.nanoTime());
        } else if (!queued) {
            queued = true;
            window.due(this);
        }
    }

    /** The read batch ended: report what was read unless a report went out very recently (then the timer does). */
    void onReadBatchEnd(long now) {
        queued = false;
        if (unreported == 0 || closed) {
            return;
        }
        long next = lastReportNanos + MIN_INTERVAL_NANOS;
        if (now - next >= 0) {
            report(now);
        } else if (!timer.isActive()) {
            ctx.timers().schedule(timer, next);
        }
    }

    private void onTimer() {
        if (unreported > 0 && !closed) {
            report(ctx.nanoTime());
        }
    }

    /** The application held acknowledgements at the last report: report what it released once it caught up. */
    private void onHeldTimer() {
        if (closed) {
            return;
        }
        long now = ctx.nanoTime();
        if (ctx.acknowledgementsHeld()) {
            if (now - lastReportNanos >= HELD_KEEPALIVE_NANOS) {
                report(now);
            } else {
                ctx.timers().schedule(heldTimer, now + HELD_RECHECK_NANOS);
            }
        } else if (releases.releasedThrough() != lastReleased || reportedSequence != readSequence) {
            report(now);
        }
    }

    private void report(long now) {
        unreported = 0;
        lastReportNanos = now;
        boolean held = ctx.acknowledgementsHeld();
        if (!held || !reportedOnce) {
            reportedSequence = readSequence;
            reportedOnce = true;
        }
        if (!held) {
            lastReleased = releases.releasedThrough();
        } else if (!heldTimer.isActive()) {
            // Held: the sender keeps what we have not taken yet; tell it as soon as we have.
            ctx.timers().schedule(heldTimer, now + HELD_RECHECK_NANOS);
        }
        int flags = lastReleased >= 0 ? FlowReport.FLAG_RELEASED : 0;
        int units = (int) Math.min(FlowReport.MAX_WINDOW_UNITS, window.perSender() / FlowReport.WINDOW_UNIT);
        feedback.sendFlowReport(reportedSequence, units, Math.max(lastReleased, 0), flags);
    }

    void close() {
        if (closed) {
            return;
        }
        closed = true;
        ctx.timers().cancel(timer);
        ctx.timers().cancel(heldTimer);
        if (offered) {
            window.senderLeft();
        }
    }
}
