package org.fjm2.norm.receiver;

import java.net.InetSocketAddress;

import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.RemoteEvent;
import org.fjm2.norm.protocol.GrttTimer;
import org.fjm2.norm.protocol.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A receiver's state for one remote sender (RFC 5740 section 5.2/5.3): reassembles its objects, releases them in
 * object-id order, detects losses, and runs the NACK cycle — random back-off scaled by the sender's GRTT and group
 * size, suppression by other receivers' NACKs, hold-off — plus FLUSH/EOT, SQUELCH, GRTT probes (NORM_CMD(CC)),
 * watermark acknowledgements and the sender inactivity timeout. Owned by the session's event loop.
 *
 * <p>This class dispatches the sender's messages and runs the timers; its parts: {@link RxWindow} (object slots,
 * in-order release, loss), {@link ObjectAssembler} (data, info, FEC decode), {@link TransmitPosition} (how far
 * the sender got), {@link NackBuilder} (this cycle's NACKs), {@link OverheardRequests} (others' NACKs, for
 * suppression), {@link ReceiverFeedback} (feedback headers, CC and FLUSH acknowledgements) and {@link RxStreams} (the
 * sender's stream object, delivered as a byte stream).
 */
public final class RemoteSender implements RemoteSenderInfo {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteSender.class);

    /** How often a held watermark acknowledgement checks again whether the application caught up (at least). */
    static final long ACK_HOLD_RECHECK_NANOS = 5_000_000L;
    /**
     * How often a receiver that a round lists but that cannot acknowledge yet says it is alive: well inside the
     * silence after which a sender stops waiting for a receiver ({@code receiverSilence}, 100 ms by default).
     */
    static final long ALIVE_INTERVAL_NANOS = 20_000_000L;
    /** Acking nodes listed in a FLUSH from which watermark acknowledgements are spread over a whole GRTT. */
    static final int ACK_SPREAD_NODES = 64;
    /**
     * Longest random delay before answering a GRTT probe (RFC 5740 spreads answers over the advertised GRTT times the
     * back-off factor). Capped because the GRTT is what the answers correct: after one slow sample inflated it to
     * seconds, uncapped answers came seconds late and kept it inflated. A thousand receivers answering within 250 ms
     * is 4,000 datagrams of 40 bytes per second, which any sender takes.
     */
    static final double PROBE_ANSWER_MAX_DELAY_SECONDS = 0.25;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final int nodeId;
    private final int instanceId;
    private InetSocketAddress address;

    // Sender parameters from its message headers.
    private double grtt;
    private int backoffFactor;
    private double groupSize;

    private final RxWindow window;
    private final TransmitPosition position;
    private final ObjectAssembler assembler;
    private final OverheardRequests overheard;
    private final ReceiverFeedback feedback;
    private final NackBuilder nacks;
    private final ReceiveWindow receiveWindow;
    /** Made when the sender offers flow control: a forged sender id costs no reporter, nor its timers. */
    private FlowReporter flow;
    private final RxStreams streams;

    // NACK cycle.
    private final GrttTimer repairTimer;
    private boolean backoff;
    private boolean holdoff;
    /**
     * The transmit position's object when the last cycle's NACK was built ({@link #NO_HORIZON}: the position was not
     * known then, so it asked for no object).
     */
    private int nackHorizon = NO_HORIZON;
    private static final int NO_HORIZON = -1;
    /** A loss beyond {@link #nackHorizon} showed during hold-off: asked for once the message is taken. */
    private boolean lossBeyondHorizon;
    private final Timer ccTimer;
    /** NORM-CC feedback state, made when the sender's probes carry EXT_CC_RATE. */
    private CongestionFeedback congestion;
    private final Timer ackTimer;
    private final Timer activityTimer;
    private long lastHeardNanos;
    private boolean gone;
    /** Objects of this sender completed here, counted up to {@link RemoteSenderTable#ESTABLISHED_OBJECTS}. */
    private int completedObjects;
    private final java.util.function.Consumer<RemoteSender> onGone;

    // Watermark to acknowledge.
    private long lastAliveNanos = Long.MIN_VALUE / 2;
    /** Whether this sender heard our first "alive" (it then knows we answer every round it lists us in). */
    private boolean saidAlive;
    private boolean ackPending;
    private int ackObjectId;
    private long ackBlock;
    private int ackSymbol;

    /**
     * @param budget  the session's receive budget, shared by every remote sender
     * @param onGone  told when this sender times out (the session forgets it)
     */
    RemoteSender(ProtocolContext ctx, int nodeId, int instanceId, InetSocketAddress address, BlockDecoder decoder,
                 ReceiveBudget budget, ReceiveWindow receiveWindow, ReceiverScratch scratch,
                 java.util.function.Consumer<RemoteSender> onGone) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.nodeId = nodeId;
        this.instanceId = instanceId;
        this.address = address;
        this.onGone = onGone;
        this.window = new RxWindow(ctx, this, budget);
        this.position = new TransmitPosition(window);
        this.assembler = new ObjectAssembler(ctx, this, window, decoder, scratch);
        this.overheard = new OverheardRequests(window, position, scratch);
        this.feedback = new ReceiverFeedback(ctx, this, scratch);
        this.streams = new RxStreams(ctx, window, decoder, scratch);
        this.nacks = new NackBuilder(ctx, this, window, position, assembler, overheard, feedback, streams, scratch);
        this.receiveWindow = receiveWindow;
        this.grtt = config.grttInitial().toNanos() / 1e9;
        this.backoffFactor = config.backoffFactor();
        this.groupSize = config.groupSize();
        // Constant names: a forged sender id must cost as little as possible (no strings built per sender).
        this.repairTimer = new GrttTimer("receiver-nack", ctx, this::grttNanos, this::onRepairTimer);
        this.ccTimer = new Timer("receiver-cc", this::onCcTimer);
        this.ackTimer = new Timer("receiver-ack", this::sendAckFlush);
        this.activityTimer = new Timer("receiver-activity", this::onActivityTimer);
        this.lastHeardNanos = ctx.nanoTime();
        ctx.timers().schedule(activityTimer, lastHeardNanos + config.senderTimeout().toNanos());
    }

    @Override
    public int nodeId() {
        return nodeId;
    }

    @Override
    public int instanceId() {
        return instanceId;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    /** Objects of this sender completed here, up to {@link RemoteSenderTable#ESTABLISHED_OBJECTS}. */
    public int completedObjects() {
        return completedObjects;
    }

    public boolean isGone() {
        return gone;
    }

    /** When anything was last heard from this sender ({@link ProtocolContext#nanoTime()} clock). */
    public long lastHeardNanos() {
        return lastHeardNanos;
    }

    @Override
    public String toString() {
        return "sender " + Integer.toUnsignedString(nodeId) + "/" + instanceId + " at " + address;
    }

    // ---- common header fields ------------------------------------------------------------------------------------

    private void heard(int grttQuantized, int backoff, int gsizeQuantized, InetSocketAddress from) {
        grtt = Quantizer.unquantizeRtt(grttQuantized);
        if (congestion != null) {
            congestion.onGrtt(grtt);
        }
        backoffFactor = backoff;
        groupSize = Quantizer.unquantizeGroupSize(gsizeQuantized);
        lastHeardNanos = ctx.nanoTime();
        if (from != null) {
            address = from;
        }
    }

    private long grttNanos() {
        return (long) (grtt * 1e9);
    }

    // ---- NORM_DATA / NORM_INFO -----------------------------------------------------------------------------------

    /** A validated NORM_DATA or NORM_INFO from this sender. */
    public void onObjectMessage(ObjectMessageFlyweight msg, InetSocketAddress from) {
        heard(msg.grtt(), msg.backoff(), msg.gsize(), from);
        boolean lossEvent = congestion != null && congestion.onMessage(msg.sequence(), msg.length(), ctx.nanoTime());
        try {
            onObjectMessage(msg);
            if (lossBeyondHorizon) {
                lossBeyondHorizon = false;
                askBeyondHorizon();
            }
        } finally {
            if (flow != null) {
                flow.onMessage(msg.sequence(), msg.length());     // after its objects were released: the report says so
            }
        }
        if (lossEvent) {
            congestionFeedbackNow();
        }
    }

    private void onObjectMessage(ObjectMessageFlyweight msg) {
        if ((msg.flags() & NormWire.FLAG_STREAM) != 0) {
            if (streams.onMessage(msg)) {
                startRepairCycle();     // the stream's sender moved on past symbols we never got
            }
            return;
        }
        int objectId = msg.objectId();
        if (!window.isSynced()) {
            if ((msg.flags() & NormWire.FLAG_REPAIR) != 0) {
                // A repair is old data asked for by others: syncing to it would deliver what this receiver may
                // have had before (it was forgotten, or restarted) ahead of the sender's current objects.
                ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
                return;
            }
            int start = SenderStart.syncPoint(msg, objectId, ctx.openedNanos(), ctx.nanoTime(),
                    config.rxWindowObjects());
            window.syncTo(start);
            if (start != objectId) {
                LOG.debug("{}: was here when it started, missed its objects {}..{}: asks for them", this, start,
                        (objectId - 1) & 0xFFFF);
                startRepairCycle();
            }
        }
        int age = (objectId - window.nextReleaseId()) & 0xFFFF;
        if (age >= 0x8000) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);     // already released
            return;
        }
        if (age >= config.rxWindowObjects()) {
            window.overrun(objectId);
        }
        RxObject object = window.slot(objectId);
        if (object == null) {
            object = window.create(objectId);
        }
        if (object.complete) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        if (!object.described && !assembler.describe(object, msg)) {
            return;
        }
        if ((msg.flags() & NormWire.FLAG_INFO) != 0) {
            object.infoExpected = true;
        }
        boolean repair = (msg.flags() & NormWire.FLAG_REPAIR) != 0;
        if (msg.type() == NormWire.TYPE_INFO) {
            assembler.onInfo(object, msg);
        } else if (assembler.fits(object, msg)) {
            int m = object.fieldSize;
            if (!repair && position.advance(objectId, msg.blockNumber(m), msg.symbolId(m))) {
                startRepairCycle();     // the sender moved on past symbols we never got
            }
            assembler.onData(object, msg);
        }
        if (!object.complete && object.allBlocksComplete() && !object.infoMissing()) {
            object.complete = true;
            completedObjects = Math.min(completedObjects + 1, RemoteSenderTable.ESTABLISHED_OBJECTS);
            window.budget().completed(object);
            ctx.counters().increment(Counter.OBJECTS_RECEIVED);
            window.release();
        }
    }

    // ---- commands ------------------------------------------------------------------------------------------------

    /** A validated NORM_CMD from this sender. */
    public void onCommand(CommandFlyweight cmd, InetSocketAddress from) {
        heard(cmd.grtt(), cmd.backoff(), cmd.gsize(), from);
        if (congestion != null && congestion.onMessage(cmd.sequence(), cmd.length(), ctx.nanoTime())
                && cmd.flavor() != NormWire.CMD_CC) {
            congestionFeedbackNow();    // a probe is answered below anyway
        }
        if (flow != null) {
            flow.onMessage(cmd.sequence(), cmd.length());
        }
        switch (cmd.flavor()) {
            case NormWire.CMD_FLUSH:
                onFlush(cmd);
                break;
            case NormWire.CMD_EOT:
                if (position.isKnown() || streams.current() != null) {
                    startRepairCycle();
                }
                break;
            case NormWire.CMD_SQUELCH:
                onSquelch(cmd);
                break;
            case NormWire.CMD_CC:
                onCc(cmd);
                break;
            default:
                break;      // REPAIR_ADV, ACK_REQ, APPLICATION: nothing to do for a data receiver
        }
    }

    private void onFlush(CommandFlyweight cmd) {
        int m = position.fieldSizeFor(cmd.fecId());
        int objectId = cmd.objectId();
        long block = cmd.blockNumber(m);
        int symbol = cmd.symbolId(m);
        boolean listed = listsUs(cmd);
        if (listed && !saidAlive) {
            sayAlive();     // once: from now on the sender knows we answer every round that lists us
        }
        if (streams.isCurrent(objectId)) {
            onStreamFlush(cmd, listed);
            return;
        }
        if (!window.isSynced()) {
            // Nothing heard yet: a flush alone gives no data to sync to, unless we are asked to acknowledge.
            if (!listed) {
                return;
            }
            window.syncTo(objectId);
        }
        int age = (objectId - window.nextReleaseId()) & 0xFFFF;
        if (age >= 0x8000) {
            if (listed) {
                scheduleAck(objectId, block, symbol, cmd.ackingNodeCount());   // everything up to it was released already
            }
            return;
        }
        position.flushAt(objectId, block, symbol);
        if (listed) {
            if (window.missingThrough(objectId)) {
                startRepairCycle();
                sayAlive();         // listed, but still catching up: not dead
            } else {
                scheduleAck(objectId, block, symbol, cmd.ackingNodeCount());
            }
        } else {
            startRepairCycle();
        }
    }

    /** A FLUSH naming the stream we follow: its position, then the repair cycle or the acknowledgement. */
    private void onStreamFlush(CommandFlyweight cmd, boolean listed) {
        int m = streams.current().fieldSize;
        long block = cmd.blockNumber(m);
        int symbol = cmd.symbolId(m);
        if (streams.onFlush(block, symbol)) {
            startRepairCycle();
            if (listed) {
                sayAlive();
            }
        } else if (listed) {
            scheduleAck(cmd.objectId(), block, symbol, cmd.ackingNodeCount());
        }
    }

    private boolean listsUs(CommandFlyweight cmd) {
        int n = cmd.ackingNodeCount();
        for (int i = 0; i < n; i++) {
            if (cmd.ackingNode(i) == ctx.nodeId()) {
                return true;
            }
        }
        return false;
    }

    private void onSquelch(CommandFlyweight cmd) {
        ctx.counters().increment(Counter.SQUELCHES_RECEIVED);
        streams.onSquelch(cmd);
        if (!window.isSynced()) {
            // The squelch point is the oldest object the sender can still give: start there (a new sender
            // announces its first object this way, so receivers that lose all of it still ask for it).
            window.syncTo(cmd.objectId());
            return;
        }
        int squelchId = cmd.objectId();
        int age = (squelchId - window.nextReleaseId()) & 0xFFFF;
        int invalid = cmd.invalidObjectCount();
        for (int i = 0; i < invalid; i++) {
            RxObject o = window.slot(cmd.invalidObject(i));
            if (o != null) {
                window.abandon(o, LossReason.SQUELCHED);
            }
        }
        if (age > 0 && age < 0x8000) {
            if (ctx.remoteEvents().allow(RemoteEvent.SQUELCHED)) {
                LOG.info("{}: squelched, objects {}..{} are no longer available ({} more squelches since the last "
                        + "line)", this, window.nextReleaseId(), (squelchId - 1) & 0xFFFF,
                        ctx.remoteEvents().takeSuppressed(RemoteEvent.SQUELCHED));
            }
            window.loseUntil(squelchId, LossReason.SQUELCHED);
        }
    }

    private void onCc(CommandFlyweight cmd) {
        feedback.onProbe(cmd.sendTimeSeconds(), cmd.sendTimeMicros(), cmd.ccSequence(), grtt);
        if (gone || config.silentReceiver()) {
            return;
        }
        int extStart = cmd.offset() + CommandFlyweight.CC_HEADER_LENGTH;
        int extEnd = cmd.offset() + cmd.headerLength();
        if (flow == null && HeaderExtensions.find(cmd.buffer(), extStart, extEnd, NormWire.EXT_FJM2_FLOW) >= 0) {
            flow = new FlowReporter(ctx, receiveWindow, feedback, this::releasedThrough);
            flow.offered(cmd.sequence(), cmd.length());
        }
        int rateIndex = HeaderExtensions.find(cmd.buffer(), extStart, extEnd, NormWire.EXT_CC_RATE);
        if (rateIndex >= 0) {
            onCongestionProbe(cmd, rateIndex);      // the sender asks for feedback
        }
    }

    /**
     * A probe asking for feedback (EXT_CC_RATE at {@code rateIndex}). Every answer carries our CC feedback. A sender
     * that runs NORM-CC lists its limiting receivers (a non-empty node list): a listed one (CLR or PLR) answers at
     * once, the others after a random back-off biased by their rate (low rates first, RFC 5740 section 5.5.2.2),
     * unless another receiver's feedback or our own last answer is under a hold-off old. A sender with an empty list
     * only measures the GRTT (or looks for its first limiting receiver): everyone answers within the back-off.
     */
    private void onCongestionProbe(CommandFlyweight cmd, int rateIndex) {
        if (congestion == null) {
            congestion = new CongestionFeedback(grtt, config.grttMax().toNanos() / 1e9, config.segmentSize());
            feedback.congestion(congestion);
            congestion.onMessage(cmd.sequence(), cmd.length(), ctx.nanoTime());
        }
        if (!congestion.onProbe(cmd, rateIndex, ctx.nodeId())) {
            ctx.counters().increment(Counter.CC_DROPPED);
            return;
        }
        long now = ctx.nanoTime();
        if (congestion.limiting()) {
            ctx.timers().cancel(ccTimer);
            congestion.takeLossEvent();
            feedback.sendCcAck(grtt);
            return;
        }
        if (ccTimer.isActive() || congestion.heldOff(now)) {
            return;
        }
        double max = Math.min(grtt * Math.max(backoffFactor, 4), PROBE_ANSWER_MAX_DELAY_SECONDS);
        double backoff = backoffDelay(max);
        double delay = congestion.listed() ? 0.25 * congestion.answerBias() * max + 0.75 * backoff : backoff;
        ctx.timers().schedule(ccTimer, now + (long) (delay * 1e9));
    }

    /** A loss event while we limit a NORM-CC sender: it hears of it now, not at its next probe. */
    private void congestionFeedbackNow() {
        if (congestion.takeLossEvent() && !config.silentReceiver() && !gone) {
            ctx.timers().cancel(ccTimer);
            congestion.advanceSequence();
            feedback.sendCcAck(grtt);
        }
    }

    /** Another receiver's NACK or ACK to this sender carried CC feedback that may make our pending answer redundant. */
    private void onOtherCongestionFeedback(FeedbackFlyweight other) {
        if (congestion != null && ccTimer.isActive() && congestion.suppressedBy(other)) {
            ctx.timers().cancel(ccTimer);
            holdOffCongestionFeedback();
        }
    }

    /** No NORM_ACK(CC) for a hold-off of max(backoff, 4) GRTTs (NRL NORM's). */
    private void holdOffCongestionFeedback() {
        congestion.holdOff(ctx.nanoTime() + (long) (grtt * Math.max(backoffFactor, 4) * 1e9));
    }

    // ---- the NACK cycle ------------------------------------------------------------------------------------------

    /**
     * Something may be missing: start a back-off unless a cycle is already running. In hold-off with a back-off
     * factor of 0 (a small group: nobody's NACK to wait for), a loss beyond what the last cycle asked for is asked
     * for once the message that showed it was taken: waiting for the hold-off's end (2 GRTTs) stalled in-order
     * delivery a round trip per loss on a lossy WAN.
     */
    private void startRepairCycle() {
        if (holdoff && backoffFactor == 0) {
            lossBeyondHorizon = true;
            return;
        }
        if (backoff || holdoff || config.silentReceiver()) {
            return;
        }
        backoff = true;
        overheard.clear();
        repairTimer.schedule(ctx.nanoTime(), backoffDelay(backoffFactor));     // in GRTTs
    }

    /**
     * RFC 5740 NACK back-off: a truncated exponential over [0, max] whose shape depends on the group size, so that
     * in large groups a few receivers answer early and the rest are suppressed. In the unit of {@code max} (seconds
     * or GRTTs: the draw scales with it).
     */
    private double backoffDelay(double max) {
        if (max <= 0) {
            return 0;
        }
        double lambda = Math.log(groupSize) + 1;
        double x = ctx.random().nextDouble() * (lambda / max) + lambda / (max * (Math.exp(lambda) - 1));
        double t = (max / lambda) * Math.log(x * (Math.exp(lambda) - 1) * (max / lambda));
        return Math.max(0, Math.min(max, t));
    }

    private void onRepairTimer() {
        if (holdoff) {
            holdoff = false;
            if (hasMissing()) {
                startRepairCycle();
            }
            return;
        }
        backoff = false;
        boolean sent = nacks.sendNacks();
        nackHorizon = position.isKnown() ? position.objectId() : NO_HORIZON;
        if (sent && congestion != null) {
            ctx.timers().cancel(ccTimer);   // the NACK carried our CC feedback
        }
        if (!sent && hasMissing()) {
            ctx.counters().increment(Counter.NACKS_SUPPRESSED);
        }
        holdoff = true;
        repairTimer.schedule(ctx.nanoTime(), backoffFactor + 2.0);
    }

    /** Hold-off, small group: asks for what is missing after the objects the last cycle asked for. */
    private void askBeyondHorizon() {
        if (config.silentReceiver() || !position.isKnown() || !window.isSynced()) {
            return;
        }
        int first = nackHorizon == NO_HORIZON ? window.nextReleaseId() : (nackHorizon + 1) & 0xFFFF;
        if (((position.objectId() - first) & 0xFFFF) >= 0x8000) {
            return;         // still within the horizon's object: the cycle after the hold-off asks
        }
        if (((first - window.nextReleaseId()) & 0xFFFF) >= 0x8000) {
            first = window.nextReleaseId();
        }
        if (nacks.sendNacksFrom(first)) {
            nackHorizon = position.objectId();
            ctx.counters().increment(Counter.NACKS_BEYOND_HORIZON);
        }
    }

    /** Whether anything the sender has sent so far (up to its transmit position) is missing here. */
    private boolean hasMissing() {
        if (streams.hasMissing()) {
            return true;
        }
        if (!position.isKnown()) {
            return false;
        }
        int posObject = position.objectId();
        long posBlock = position.block();
        int count = ((posObject - window.nextReleaseId()) & 0xFFFF) + 1;
        if (count >= 0x8000) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            int id = (window.nextReleaseId() + i) & 0xFFFF;
            RxObject o = window.slot(id);
            if (o == null || !o.complete) {
                if (o == null || !o.described || id != posObject) {
                    return true;
                }
                // the current object: missing only what is before the position
                int first = o.firstIncompleteBlock();
                if (first < posBlock) {
                    return true;
                }
                if (first == posBlock && first < o.blockCount()) {
                    int limit = Math.min(position.symbol(), o.partition.blockLength(first));
                    RxBlock block = o.block(first);
                    if (block == null ? limit > 0 : block.nextMissing(0, limit) >= 0) {
                        return true;
                    }
                }
                if (o.infoMissing()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Another receiver's NACK to this sender: what it asks for will be repaired for us too. */
    public void onOtherNack(FeedbackFlyweight nack) {
        onOtherCongestionFeedback(nack);
        if (!backoff || !window.isSynced()) {
            return;
        }
        overheard.onNack(nack);
    }

    // ---- CC feedback, watermark ACK -----------------------------------------------------------------------------

    private void onCcTimer() {
        feedback.sendCcAck(grtt);
        if (congestion != null) {
            holdOffCongestionFeedback();
        }
    }

    /** Another receiver's ACK to this sender (its CC feedback may suppress ours). */
    public void onOtherAck(FeedbackFlyweight ack) {
        onOtherCongestionFeedback(ack);
    }

    /**
     * Answers a watermark FLUSH that lists us after a random delay, which spreads the answers of many listed nodes
     * over up to one GRTT (no ACK implosion at the sender). The spread shrinks with the number of nodes listed: a few
     * acknowledgements need no spreading, and a delay of a whole GRTT per round is what would limit a flow-controlled
     * sender's throughput (its cache empties once per round).
     */
    private void scheduleAck(int objectId, long block, int symbol, int nodesListed) {
        ackPending = true;
        ackObjectId = objectId;
        ackBlock = block;
        ackSymbol = symbol;
        if (!ackTimer.isActive()) {
            double spread = Math.min(1.0, (double) nodesListed / ACK_SPREAD_NODES);
            long delay = (long) (ctx.random().nextDouble() * spread * grttNanos());
            ctx.timers().schedule(ackTimer, ctx.nanoTime() + delay);
        }
    }

    /** NORM_ACK(FJM2 alive), at most every {@link #ALIVE_INTERVAL_NANOS}. */
    private void sayAlive() {
        long now = ctx.nanoTime();
        if (!config.silentReceiver() && now - lastAliveNanos >= ALIVE_INTERVAL_NANOS) {
            lastAliveNanos = now;
            saidAlive = true;
            feedback.sendAlive();
        }
    }

    private void sendAckFlush() {
        if (!ackPending || config.silentReceiver()) {
            return;
        }
        if (ctx.acknowledgementsHeld()) {
            // The application is backed up: answer later (the sender keeps the data and slows down meanwhile), and
            // say we are alive, or the sender takes our silence for death and stops waiting.
            sayAlive();
            ctx.timers().schedule(ackTimer, ctx.nanoTime() + Math.max(grttNanos(), ACK_HOLD_RECHECK_NANOS));
            return;
        }
        ackPending = false;
        int fecId = position.fecId();
        int m = position.fieldSizeFor(fecId);
        RxObject o = window.slot(ackObjectId);
        int blockLength = o != null && o.described && ackBlock < o.blockCount()
                ? o.partition.blockLength((int) ackBlock) : config.blockSize();
        feedback.sendAckFlush(fecId, m, ackObjectId, ackBlock, ackSymbol, blockLength);
    }

    /** The object up to which (inclusive) we need nothing more from this sender, or -1 before we synchronised. */
    private int releasedThrough() {
        return window.isSynced() ? (window.nextReleaseId() - 1) & 0xFFFF : -1;
    }

    // ---- inactivity ----------------------------------------------------------------------------------------------

    private void onActivityTimer() {
        long now = ctx.nanoTime();
        long timeout = config.senderTimeout().toNanos();
        long silentFor = now - lastHeardNanos;
        if (silentFor >= timeout) {
            if (ctx.remoteEvents().allow(RemoteEvent.SENDER_GONE)) {
                LOG.info("{} silent for {} ms: gone ({} more senders gone since the last line)", this,
                        silentFor / 1_000_000, ctx.remoteEvents().takeSuppressed(RemoteEvent.SENDER_GONE));
            }
            close(LossReason.SENDER_GONE);
            ctx.counters().increment(Counter.SENDERS_GONE);
            onGone.accept(this);
            return;
        }
        if (silentFor > Math.max(grttNanos() * 4 * (backoffFactor + 2), 200_000_000L) && hasMissing()) {
            startRepairCycle();     // the sender fell quiet with our repairs outstanding: ask again
        }
        long next = Math.min(lastHeardNanos + timeout, now + Math.max(grttNanos() * 8, 250_000_000L));
        ctx.timers().schedule(activityTimer, next);
    }

    /** Ends this sender's state: every incomplete object is reported lost; timers stop. */
    public void close(LossReason reason) {
        if (gone) {
            return;
        }
        gone = true;
        if (reason == LossReason.SESSION_CLOSED && !config.silentReceiver()) {
            feedback.sendLeave();
        }
        repairTimer.cancel();
        ctx.timers().cancel(ccTimer);
        ctx.timers().cancel(ackTimer);
        ctx.timers().cancel(activityTimer);
        if (flow != null) {
            flow.close();
        }
        streams.close(reason);
        if (window.isSynced() && position.isKnown()) {
            int end = (position.objectId() + 1) & 0xFFFF;
            window.loseUntil(end, reason);
        }
        window.clear(reason);
    }
}
