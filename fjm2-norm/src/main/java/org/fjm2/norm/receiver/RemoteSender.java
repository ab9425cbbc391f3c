package org.fjm2.norm.receiver;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.codec.RepairRequestReader;
import org.fjm2.norm.codec.RepairRequestWriter;
import org.fjm2.norm.session.LossReason;
import org.fjm2.norm.session.NormConfig;
import org.fjm2.norm.session.NormContext;
import org.fjm2.norm.session.NormCounters.Counter;
import org.fjm2.norm.session.RemoteSenderInfo;
import org.fjm2.norm.session.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A receiver's state for one remote sender (RFC 5740 section 5.2/5.3): reassembles its objects, releases them in
 * object-id order, detects losses, and runs the NACK cycle — random back-off scaled by the sender's GRTT and group
 * size, suppression by other receivers' NACKs, hold-off — plus FLUSH/EOT, SQUELCH, GRTT probes (NORM_CMD(CC)),
 * watermark acknowledgements and the sender inactivity timeout. Owned by the session's event loop.
 */
public final class RemoteSender implements RemoteSenderInfo {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteSender.class);

    /** NACK datagrams sent per repair cycle at most (each carries up to one segment of repair requests). */
    static final int MAX_NACKS_PER_CYCLE = 8;
    /** Smallest NACK payload budget when the sender's segment size is not known yet. */
    static final int MIN_NACK_PAYLOAD = 512;

    private final NormContext ctx;
    private final NormConfig config;
    private final int nodeId;
    private final int instanceId;
    private InetSocketAddress address;
    private final BlockDecoder decoder;

    // Sender parameters from its message headers.
    private double grtt;
    private int backoffFactor;
    private double groupSize;

    // Object window: [nextReleaseId, nextReleaseId + window).
    private final RxObject[] slots;
    private final int slotMask;
    private final long[] missingRequestedByOthers;   // OBJECT-level requests heard, by slot
    private final ArrayDeque<RxObject> freeObjects = new ArrayDeque<>();
    private int nextReleaseId;
    private boolean synced;
    private long bufferedBytes;
    private int lastSegmentSize;

    // Sender transmit position (highest non-repair data or flush heard).
    private boolean hasPosition;
    private int posObject;
    private long posBlock;
    private int posSymbol;

    // NACK cycle.
    private final Timer repairTimer;
    private boolean backoff;
    private boolean holdoff;
    private final Timer ccTimer;
    private final Timer ackTimer;
    private final Timer activityTimer;
    private long lastHeardNanos;
    private boolean gone;

    // GRTT echo: the latest NORM_CMD(CC) send time and when we heard it.
    private long ccSendMicros;
    private long ccRecvMicros;
    private int ccSequence;

    // Watermark to acknowledge.
    private boolean ackPending;
    private int ackObjectId;
    private long ackBlock;
    private int ackSymbol;

    private final Fti fti = new Fti();
    private final Presence presence = new Presence();

    /** Which source symbols of a block arrived (reused for every decode). */
    private static final class Presence implements BlockDecoder.SourcePresence {
        RxObject object;
        int block;

        @Override
        public boolean has(int symbol) {
            return object.received.get(block, symbol);
        }
    }
    private final RepairRequestWriter writer = new RepairRequestWriter();
    private final RepairRequestReader reader = new RepairRequestReader();
    private final FeedbackFlyweight feedback = new FeedbackFlyweight();
    private boolean nackHasUncovered;
    private ByteBuf nackPacket;
    private int nacksThisCycle;

    public RemoteSender(NormContext ctx, int nodeId, int instanceId, InetSocketAddress address, BlockDecoder decoder) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.nodeId = nodeId;
        this.instanceId = instanceId;
        this.address = address;
        this.decoder = decoder;
        int capacity = Integer.highestOneBit(config.rxWindowObjects() * 2 - 1) * 2;
        this.slots = new RxObject[capacity];
        this.slotMask = capacity - 1;
        this.missingRequestedByOthers = new long[(capacity + 63) >>> 6];
        this.grtt = config.grttInitial().toNanos() / 1e9;
        this.backoffFactor = config.backoffFactor();
        this.groupSize = config.groupSize();
        this.repairTimer = new Timer("nack-" + Integer.toUnsignedString(nodeId), this::onRepairTimer);
        this.ccTimer = new Timer("cc-" + Integer.toUnsignedString(nodeId), this::onCcTimer);
        this.ackTimer = new Timer("ack-" + Integer.toUnsignedString(nodeId), this::sendAckFlush);
        this.activityTimer = new Timer("activity-" + Integer.toUnsignedString(nodeId), this::onActivityTimer);
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

    public boolean isGone() {
        return gone;
    }

    @Override
    public String toString() {
        return "sender " + Integer.toUnsignedString(nodeId) + "/" + instanceId + " at " + address;
    }

    // ---- common header fields ------------------------------------------------------------------------------------

    private void heard(int grttQuantized, int backoff, int gsizeQuantized, InetSocketAddress from) {
        grtt = Quantizer.unquantizeRtt(grttQuantized);
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
        int objectId = msg.objectId();
        if (!synced) {
            synced = true;
            nextReleaseId = objectId;
        }
        int age = (objectId - nextReleaseId) & 0xFFFF;
        if (age >= 0x8000) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);     // already released
            return;
        }
        if (age >= config.rxWindowObjects()) {
            overrun(objectId);
        }
        RxObject object = slot(objectId);
        if (object == null) {
            object = freeObjects.isEmpty() ? new RxObject() : freeObjects.pollFirst();
            object.reset(objectId);
            slots[objectId & slotMask] = object;
            clearMissingRequested(objectId);
        }
        if (object.complete) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        if ((msg.flags() & NormWire.FLAG_STREAM) != 0) {
            abandon(object, LossReason.UNSUPPORTED);
            return;
        }
        if (!object.described && !describe(object, msg)) {
            return;
        }
        if ((msg.flags() & NormWire.FLAG_INFO) != 0) {
            object.infoExpected = true;
        }
        boolean repair = (msg.flags() & NormWire.FLAG_REPAIR) != 0;
        if (msg.type() == NormWire.TYPE_INFO) {
            onInfo(object, msg);
        } else {
            onData(object, msg, repair);
        }
        if (!object.complete && object.allBlocksComplete() && !object.infoMissing()) {
            object.complete = true;
            ctx.counters().increment(Counter.OBJECTS_RECEIVED);
            release();
        }
    }

    private boolean describe(RxObject object, ObjectMessageFlyweight msg) {
        int extStart = msg.extensionsIndex();
        int extEnd = msg.offset() + msg.headerLength();
        int ftiIndex = HeaderExtensions.find(msg.buffer(), extStart, extEnd, NormWire.EXT_FTI);
        if (ftiIndex < 0 || !HeaderExtensions.readFti(msg.buffer(), ftiIndex, extEnd, msg.fecId(), fti)) {
            // Without FTI (RFC 5740 lets senders send it out of band) we cannot place data: wait for a message with it.
            ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
            return false;
        }
        if (fti.transferLength() > config.maxObjectSize()) {
            abandon(object, LossReason.TOO_LARGE);
            return false;
        }
        if (fti.transferLength() == 0 || fti.symbolLength() < 16
                || !object.describe(fti, org.fjm2.norm.codec.FecPayloadId.blockNumberMask(fti.fecId(), fti.fieldSize()))) {
            abandon(object, LossReason.UNSUPPORTED);
            return false;
        }
        lastSegmentSize = fti.symbolLength();
        return true;
    }

    private void onInfo(RxObject object, ObjectMessageFlyweight msg) {
        object.infoExpected = true;
        if (object.info != null) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        int length = msg.payloadLength();
        if (length > Math.max(object.segmentSize, 8192)) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return;
        }
        ByteBuf info = ctx.output().allocate(Math.max(length, 1));
        info.writeBytes(msg.buffer(), msg.payloadIndex(), length);
        object.info = info;
    }

    private void onData(RxObject object, ObjectMessageFlyweight msg, boolean repair) {
        int m = object.fieldSize;
        if (msg.fecId() != object.fecId) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return;
        }
        long blockNumber = msg.blockNumber(m);
        int symbol = msg.symbolId(m);
        if (blockNumber >= object.blockCount() || symbol >= object.symbolLimit) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return;
        }
        int block = (int) blockNumber;
        int k = object.partition.blockLength(block);
        if (!repair) {
            advancePosition(object.objectId, blockNumber, symbol, k);
        }
        if (object.isBlockComplete(block) || object.received.get(block, symbol)) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        int payload = msg.payloadLength();
        if (symbol < k) {
            int expected = object.partition.segmentLength(block, symbol);
            if (payload < expected) {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);
                return;
            }
            if (object.data == null && !allocateData(object)) {
                return;
            }
            int offset = (int) object.partition.segmentOffset(block, symbol);
            object.data.setBytes(offset, msg.buffer(), msg.payloadIndex(), expected);
            object.received.set(block, symbol);
            if (object.received.count(block, k) == k) {
                object.markBlockComplete(block);
            }
        } else {
            if (decoder == null || !decoder.supports(object.fecId, object.fieldSize)) {
                ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
                return;
            }
            // Parity is as long as the block's longest source symbol (NRL sends no more): E, except for a block
            // that is only the object's short final segment. Bytes past it are zero.
            int longest = object.partition.segmentLength(block, 0);
            if (payload < longest) {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);
                return;
            }
            if (object.data == null && !allocateData(object)) {
                return;
            }
            ByteBuf copy = ctx.output().allocateHeap(object.segmentSize);
            copy.writeBytes(msg.buffer(), msg.payloadIndex(), Math.min(payload, object.segmentSize));
            copy.writeZero(object.segmentSize - copy.readableBytes());
            object.received.set(block, symbol);
            object.addParity(block, symbol, copy, object.symbolLimit - k);
        }
        if (!object.isBlockComplete(block) && decoder != null && object.parityCount[block] > 0
                && object.received.count(block, object.symbolLimit) >= k) {
            decode(object, block, k);
        }
    }

    private void decode(RxObject object, int block, int k) {
        int parity = object.parityPerBlock;
        for (int i = 0; i < object.parityCount[block]; i++) {
            parity = Math.max(parity, object.parityEsi[block][i] - k + 1);
        }
        presence.block = block;
        presence.object = object;
        boolean ok = decoder.decode(object.fecId, object.fieldSize, object.data, object.partition, block,
                parity, presence, object.parity[block], object.parityEsi[block], object.parityCount[block]);
        if (ok) {
            object.received.setRange(block, 0, k);
            object.markBlockComplete(block);
            ctx.counters().increment(Counter.FEC_DECODES);
        } else {
            LOG.warn("{}: object {} block {} did not decode (k={}, parity {}, {} parity symbols)", this,
                    object.objectId, block, k, parity, object.parityCount[block]);
        }
    }

    private boolean allocateData(RxObject object) {
        long needed = object.size;
        while (bufferedBytes + needed > config.rxBufferBytes()) {
            RxObject oldest = oldestIncomplete(object);
            if (oldest == null) {
                abandon(object, LossReason.RECEIVER_OVERRUN);
                return false;
            }
            abandon(oldest, LossReason.RECEIVER_OVERRUN);
        }
        object.data = ctx.output().allocateHeap((int) needed);
        object.data.writerIndex((int) needed);
        bufferedBytes += needed;
        return true;
    }

    private RxObject oldestIncomplete(RxObject except) {
        for (int i = 0; i < slots.length / 2; i++) {
            RxObject o = slot((nextReleaseId + i) & 0xFFFF);
            if (o != null && o != except && !o.complete && o.data != null) {
                return o;
            }
        }
        return null;
    }

    private RxObject slot(int objectId) {
        RxObject o = slots[objectId & slotMask];
        return (o != null && o.objectId == objectId) ? o : null;
    }

    /** Tracks the sender's transmit position: repairs aside, it only moves forward. */
    private void advancePosition(int objectId, long block, int symbol, int k) {
        if (!hasPosition) {
            hasPosition = true;
            posObject = objectId;
            posBlock = block;
            posSymbol = symbol;
            if (block > 0 || symbol > 0) {
                startRepairCycle();
            }
            return;
        }
        int objectDelta = (objectId - posObject) & 0xFFFF;
        boolean forward;
        boolean inOrder;
        if (objectDelta == 0) {
            forward = block > posBlock || (block == posBlock && symbol > posSymbol);
            inOrder = (block == posBlock && symbol == posSymbol + 1)
                    || (block == posBlock + 1 && symbol == 0 && posSymbolEndsBlock());
        } else if (objectDelta < 0x8000) {
            forward = true;
            inOrder = objectDelta == 1 && block == 0 && symbol == 0 && positionEndsObject();
        } else {
            forward = false;
            inOrder = true;
        }
        if (forward) {
            posObject = objectId;
            posBlock = block;
            posSymbol = symbol;
            if (!inOrder) {
                startRepairCycle();
            }
        }
    }

    private boolean posSymbolEndsBlock() {
        RxObject o = slot(posObject);
        return o == null || !o.described || posSymbol >= o.partition.blockLength((int) posBlock) - 1;
    }

    private boolean positionEndsObject() {
        RxObject o = slot(posObject);
        return o == null || !o.described || (posBlock == o.partition.finalBlock() && posSymbolEndsBlock());
    }

    // ---- release, loss -------------------------------------------------------------------------------------------

    /** Delivers complete objects (and reports lost ones) in object-id order. */
    private void release() {
        while (true) {
            RxObject o = slot(nextReleaseId);
            if (o == null || !o.complete) {
                return;
            }
            slots[nextReleaseId & slotMask] = null;
            int id = nextReleaseId;
            nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
            deliver(o, id);
        }
    }

    private void deliver(RxObject o, int id) {
        try {
            if (o.data != null) {
                ctx.listener().onObjectReceived(this, id, o.data, o.info);
            } else {
                ctx.listener().onObjectLost(this, id, o.lossReason);
            }
        } catch (RuntimeException e) {
            LOG.warn("listener failed on object {} of {}", id, this, e);
        } finally {
            if (o.data != null) {
                bufferedBytes -= o.size;
            }
            o.release();
            freeObjects.addLast(o);
        }
    }

    /** Gives an object up: it becomes a "lost" entry delivered in order. */
    private void abandon(RxObject object, LossReason reason) {
        if (object.complete) {
            return;
        }
        if (object.data != null) {
            bufferedBytes -= object.size;
        }
        object.release();
        object.lossReason = reason;
        object.complete = true;
        ctx.counters().increment(Counter.OBJECTS_LOST);
        LOG.debug("{}: object {} lost: {}", this, object.objectId, reason.description());
        release();
    }

    /** Reports lost every object id from the release point up to (excluding) {@code untilId}. */
    private void loseUntil(int untilId, LossReason reason) {
        // Releasing may run past untilId (complete objects after a lost one go too), so compare by distance.
        while (isAhead(untilId, nextReleaseId)) {
            RxObject o = slot(nextReleaseId);
            int id = nextReleaseId;
            if (o == null) {
                slots[id & slotMask] = null;
                nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
                ctx.counters().increment(Counter.OBJECTS_LOST);
                LOG.debug("{}: object {} lost: {}", this, id, reason.description());
                try {
                    ctx.listener().onObjectLost(this, id, reason);
                } catch (RuntimeException e) {
                    LOG.warn("listener failed on lost object {} of {}", id, this, e);
                }
            } else if (!o.complete) {
                abandon(o, reason);   // delivers it (and anything complete after it) as lost
            } else {
                slots[id & slotMask] = null;
                nextReleaseId = (nextReleaseId + 1) & 0xFFFF;
                deliver(o, id);
            }
        }
        release();
    }

    /** Whether object id {@code a} comes after {@code b} (16-bit serial arithmetic). */
    private static boolean isAhead(int a, int b) {
        int d = (a - b) & 0xFFFF;
        return d != 0 && d < 0x8000;
    }

    /** A new object id would not fit in the window: give up the oldest objects to make room. */
    private void overrun(int objectId) {
        int keep = config.rxWindowObjects() - 1;
        int until = (objectId - keep) & 0xFFFF;
        loseUntil(until, LossReason.RECEIVER_OVERRUN);
    }

    // ---- commands ------------------------------------------------------------------------------------------------

    /** A validated NORM_CMD from this sender. */
    public void onCommand(CommandFlyweight cmd, InetSocketAddress from) {
        heard(cmd.grtt(), cmd.backoff(), cmd.gsize(), from);
        switch (cmd.flavor()) {
            case NormWire.CMD_FLUSH:
                onFlush(cmd);
                break;
            case NormWire.CMD_EOT:
                if (hasPosition) {
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
        int m = fieldSizeFor(cmd.fecId());
        int objectId = cmd.objectId();
        long block = cmd.blockNumber(m);
        int symbol = cmd.symbolId(m);
        if (!synced) {
            // Nothing heard yet: a flush alone gives no data to sync to, unless we are asked to acknowledge.
            if (!listsUs(cmd)) {
                return;
            }
            synced = true;
            nextReleaseId = objectId;
        }
        int age = (objectId - nextReleaseId) & 0xFFFF;
        if (age >= 0x8000) {
            if (listsUs(cmd)) {
                scheduleAck(objectId, block, symbol);   // everything up to it was released already
            }
            return;
        }
        if (!hasPosition) {
            hasPosition = true;
            posObject = objectId;
            posBlock = block;
            posSymbol = symbol;
        } else {
            int delta = (objectId - posObject) & 0xFFFF;
            if ((delta != 0 && delta < 0x8000) || (delta == 0 && (block > posBlock
                    || (block == posBlock && symbol > posSymbol)))) {
                posObject = objectId;
                posBlock = block;
                posSymbol = symbol;
            }
        }
        if (listsUs(cmd)) {
            if (missingThrough(objectId)) {
                startRepairCycle();
            } else {
                scheduleAck(objectId, block, symbol);
            }
        } else {
            startRepairCycle();
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

    /** Whether anything up to and including object {@code objectId} is still missing. */
    private boolean missingThrough(int objectId) {
        int count = ((objectId - nextReleaseId) & 0xFFFF) + 1;
        return count > 0 && count < 0x8000;
    }

    private int fieldSizeFor(int fecId) {
        if (fecId != NormWire.FEC_RS) {
            return 8;
        }
        RxObject any = slot(posObject);
        return any != null && any.described ? any.fieldSize : 16;
    }

    private void onSquelch(CommandFlyweight cmd) {
        ctx.counters().increment(Counter.SQUELCHES_RECEIVED);
        if (!synced) {
            // The squelch point is the oldest object the sender can still give: start there (a new sender
            // announces its first object this way, so receivers that lose all of it still ask for it).
            synced = true;
            nextReleaseId = cmd.objectId();
            return;
        }
        int squelchId = cmd.objectId();
        int age = (squelchId - nextReleaseId) & 0xFFFF;
        int invalid = cmd.invalidObjectCount();
        for (int i = 0; i < invalid; i++) {
            RxObject o = slot(cmd.invalidObject(i));
            if (o != null) {
                abandon(o, LossReason.SQUELCHED);
            }
        }
        if (age > 0 && age < 0x8000) {
            LOG.info("{}: squelched, objects {}..{} are no longer available", this, nextReleaseId,
                    (squelchId - 1) & 0xFFFF);
            loseUntil(squelchId, LossReason.SQUELCHED);
        }
    }

    private void onCc(CommandFlyweight cmd) {
        ccSendMicros = cmd.sendTimeSeconds() * 1_000_000L + cmd.sendTimeMicros();
        ccRecvMicros = ctx.micros();
        ccSequence = cmd.ccSequence();
        int extStart = cmd.offset() + CommandFlyweight.CC_HEADER_LENGTH;
        int extEnd = cmd.offset() + cmd.headerLength();
        boolean wantsFeedback = HeaderExtensions.find(cmd.buffer(), extStart, extEnd, NormWire.EXT_CC_RATE) >= 0;
        if (wantsFeedback && !config.silentReceiver() && !ccTimer.isActive()) {
            double max = grtt * Math.max(backoffFactor, 4);
            ctx.timers().schedule(ccTimer, ctx.nanoTime() + (long) (backoffSeconds(max) * 1e9));
        }
    }

    // ---- the NACK cycle ------------------------------------------------------------------------------------------

    /** Something may be missing: start a back-off unless a cycle is already running. */
    private void startRepairCycle() {
        if (backoff || holdoff || config.silentReceiver()) {
            return;
        }
        backoff = true;
        clearHeardRequests();
        double max = grtt * backoffFactor;
        ctx.timers().schedule(repairTimer, ctx.nanoTime() + (long) (backoffSeconds(max) * 1e9));
    }

    /**
     * RFC 5740 NACK back-off: a truncated exponential over [0, max] whose shape depends on the group size, so that
     * in large groups a few receivers answer early and the rest are suppressed.
     */
    private double backoffSeconds(double max) {
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
        boolean sent = sendNacks();
        if (!sent && hasMissing()) {
            ctx.counters().increment(Counter.NACKS_SUPPRESSED);
        }
        holdoff = true;
        ctx.timers().schedule(repairTimer, ctx.nanoTime() + (long) (grttNanos() * (backoffFactor + 2.0)));
    }

    private boolean hasMissing() {
        if (!hasPosition) {
            return false;
        }
        int count = ((posObject - nextReleaseId) & 0xFFFF) + 1;
        if (count >= 0x8000) {
            return false;
        }
        for (int i = 0; i < count; i++) {
            int id = (nextReleaseId + i) & 0xFFFF;
            RxObject o = slot(id);
            if (o == null || !o.complete) {
                if (o == null || !o.described || id != posObject) {
                    return true;
                }
                // the current object: missing only what is before the position
                for (int b = 0; b <= posBlock && b < o.blockCount(); b++) {
                    if (!o.isBlockComplete(b)) {
                        int k = o.partition.blockLength(b);
                        int limit = b < posBlock ? k : Math.min(posSymbol, k);
                        if (o.received.nextClear(b, 0, limit) >= 0 || (b < posBlock && o.received.count(b, o.symbolLimit) < k)) {
                            return true;
                        }
                    }
                }
                if (o.infoMissing()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Builds and sends this cycle's NACK(s); false when there was nothing to ask that others had not asked. */
    private boolean sendNacks() {
        if (!hasPosition) {
            return false;
        }
        int count = ((posObject - nextReleaseId) & 0xFFFF) + 1;
        if (count >= 0x8000) {
            return false;
        }
        nacksThisCycle = 0;
        nackHasUncovered = false;
        beginNack();
        int missingRunStart = -1;
        int missingRunLength = 0;
        for (int i = 0; i < count && nacksThisCycle < MAX_NACKS_PER_CYCLE; i++) {
            int id = (nextReleaseId + i) & 0xFFFF;
            RxObject o = slot(id);
            if (o == null) {
                if (missingRunLength == 0) {
                    missingRunStart = id;
                }
                missingRunLength++;
                if (!isMissingRequestedByOthers(id)) {
                    nackHasUncovered = true;
                }
                continue;
            }
            if (missingRunLength > 0) {
                appendMissingObjects(missingRunStart, missingRunLength);
                missingRunLength = 0;
            }
            if (!o.complete) {
                appendObjectRequests(o, id == posObject);
            }
        }
        if (missingRunLength > 0) {
            appendMissingObjects(missingRunStart, missingRunLength);
        }
        return finishNack(true);
    }

    private int nackPayloadBudget() {
        return Math.max(lastSegmentSize, MIN_NACK_PAYLOAD);
    }

    private int currentFecId() {
        RxObject o = slot(posObject);
        return o != null && o.described ? o.fecId : NormWire.FEC_RS8;
    }

    private void beginNack() {
        int fecId = currentFecId();
        int m = fieldSizeFor(fecId);
        nackPacket = ctx.output().allocate(FeedbackFlyweight.HEADER_LENGTH + 16 + nackPayloadBudget());
        writer.reset(nackPacket, nackPacket.writerIndex() + FeedbackFlyweight.HEADER_LENGTH, nackPayloadBudget(),
                fecId, m);
    }

    /** Sends the NACK being built (if it has content not covered by others); returns whether one was sent. */
    private boolean finishNack(boolean last) {
        writer.close();
        boolean sent = false;
        if (!writer.isEmpty() && nackHasUncovered) {
            int length = FeedbackFlyweight.HEADER_LENGTH + writer.length();
            feedback.wrap(nackPacket, nackPacket.writerIndex(), length);
            long response = grttResponse();
            feedback.writeFeedbackHeader(NormWire.TYPE_NACK, ctx.nextSequence(), ctx.nodeId(), nodeId, instanceId, 0, 0,
                    response / 1_000_000L, response % 1_000_000L);
            feedback.headerLength(FeedbackFlyweight.HEADER_LENGTH);
            nackPacket.writerIndex(nackPacket.writerIndex() + length);
            if (LOG.isDebugEnabled()) {
                LOG.debug("{}: NACK #{} with {} bytes of requests (release point {}, position {}/{}/{})", this,
                        nacksThisCycle, writer.length(), nextReleaseId, posObject, posBlock, posSymbol);
            }
            sendFeedback(nackPacket);
            ctx.counters().increment(Counter.NACKS_SENT);
            nacksThisCycle++;
            sent = true;
        } else {
            nackPacket.release();
        }
        nackPacket = null;
        if (!last) {
            beginNack();
        }
        return sent;
    }

    private void sendFeedback(ByteBuf packet) {
        if (config.unicastNacks() && address != null) {
            ctx.output().sendTo(packet, address);
        } else {
            ctx.output().sendToGroup(packet);
        }
    }

    /** Rolls over to a fresh NACK datagram when the current one is full. */
    private boolean roomFor(int form, int items) {
        if (writer.remainingItems() >= items + (form == NormWire.FORM_RANGES ? 1 : 0)) {
            return true;
        }
        if (nacksThisCycle + 1 >= MAX_NACKS_PER_CYCLE) {
            return false;
        }
        boolean uncovered = nackHasUncovered;
        finishNack(false);
        nackHasUncovered = uncovered;
        return true;
    }

    private void appendMissingObjects(int firstId, int length) {
        int b = lastSegmentSize > 0 ? config.blockSize() : config.blockSize();
        if (length <= 2) {
            if (!roomFor(NormWire.FORM_ITEMS, length) || !writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_OBJECT)) {
                return;
            }
            for (int i = 0; i < length; i++) {
                writer.item((firstId + i) & 0xFFFF, 0, 0, b);
            }
        } else {
            if (!roomFor(NormWire.FORM_RANGES, 2) || !writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_OBJECT)) {
                return;
            }
            writer.range(firstId, 0, 0, (firstId + length - 1) & 0xFFFF, 0, 0, b);
        }
        writer.close();
    }

    /** Appends the repair requests for what is missing of one known object. */
    private void appendObjectRequests(RxObject o, boolean current) {
        if (!o.described) {
            // Heard it without FTI: ask for everything.
            if (!o.heardByOthers) {
                nackHasUncovered = true;
            }
            if (roomFor(NormWire.FORM_ITEMS, 1) && writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_OBJECT)) {
                writer.item(o.objectId, 0, 0, config.blockSize());
                writer.close();
            }
            return;
        }
        int infoFlag = o.infoMissing() ? NormWire.REPAIR_INFO : 0;
        if (infoFlag != 0 && !o.infoRequestedByOthers) {
            nackHasUncovered = true;
        }
        long lastBlock = current ? Math.min(posBlock, o.partition.finalBlock()) : o.partition.finalBlock();
        boolean anyBlockRequest = false;
        // Blocks never heard at all (and fully sent): BLOCK requests, grouped in runs.
        int runStart = -1;
        for (int b = 0; b <= lastBlock + 1; b++) {
            boolean wholeBlockMissing = b <= lastBlock && !o.isBlockComplete(b) && o.received.isBlockEmpty(b)
                    && !(current && b == posBlock);
            if (wholeBlockMissing) {
                if (runStart < 0) {
                    runStart = b;
                }
                if (!o.isBlockRequestedByOthers(b)) {
                    nackHasUncovered = true;
                }
                continue;
            }
            if (runStart >= 0) {
                appendBlockRun(o, runStart, b - 1, infoFlag);
                anyBlockRequest = true;
                runStart = -1;
            }
            if (b <= lastBlock && !o.isBlockComplete(b)) {
                anyBlockRequest |= appendSegmentRequests(o, b, current && b == posBlock, infoFlag);
            }
        }
        if (infoFlag != 0 && !anyBlockRequest) {
            if (roomFor(NormWire.FORM_ITEMS, 1) && writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_INFO)) {
                writer.item(o.objectId, 0, 0, o.partition.blockLength(0));
                writer.close();
            }
        }
    }

    private void appendBlockRun(RxObject o, int first, int last, int infoFlag) {
        int k = o.partition.blockLength(first);
        if (first == last) {
            if (roomFor(NormWire.FORM_ITEMS, 1) && writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_BLOCK | infoFlag)) {
                writer.item(o.objectId, first, 0, k);
            }
        } else if (roomFor(NormWire.FORM_RANGES, 2)
                && writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_BLOCK | infoFlag)) {
            writer.range(o.objectId, first, 0, o.objectId, last, 0, k);
        }
        writer.close();
    }

    /**
     * SEGMENT requests for a partly received block. With parity, once the block has been sent whole, ask for as
     * many parity symbols as erasures remain (ESIs from k upward that have not arrived; the sender answers a count
     * of parity ESIs with fresh parity, NRL-style): one parity symbol repairs a different loss at each receiver.
     * When the parity range cannot cover the erasures, ask for the remaining source symbols explicitly.
     */
    private boolean appendSegmentRequests(RxObject o, int b, boolean currentBlock, int infoFlag) {
        int k = o.partition.blockLength(b);
        int parity = o.parityPerBlock;
        boolean blockSent = !currentBlock || posSymbol >= k - 1;
        int limit = blockSent ? k : Math.min(posSymbol, k);
        int erasures = k - o.received.count(b, o.symbolLimit);
        if (erasures <= 0) {
            return false;
        }
        boolean parityRepair = decoder != null && decoder.supports(o.fecId, o.fieldSize) && parity > 0;
        if (parityRepair && !blockSent) {
            // The sender is still sending this block, parity may follow: ask once it has moved past the block (as
            // NRL NORM receivers do), when parity can repair it, rather than for source symbols now.
            return false;
        }
        boolean useParity = blockSent && parityRepair;
        if (!useParity) {
            return appendSymbolRuns(o, b, 0, limit, k, infoFlag, Integer.MAX_VALUE);
        }
        int parityEnd = Math.min(k + parity, o.symbolLimit);
        int unreceivedParity = (parityEnd - k) - o.received.count(b, parityEnd) + o.received.count(b, k);
        if (unreceivedParity >= erasures) {
            return appendSymbolRuns(o, b, k, parityEnd, k, infoFlag, erasures);
        }
        boolean any = appendSymbolRuns(o, b, k, parityEnd, k, infoFlag, unreceivedParity);
        // the rest explicitly: the last missing source symbols
        int explicit = erasures - unreceivedParity;
        int skip = Math.max(0, (k - o.received.count(b, k)) - explicit);
        int s = -1;
        for (int i = 0; i <= skip; i++) {
            s = o.received.nextClear(b, s + 1, limit);
            if (s < 0) {
                return any;
            }
        }
        return any | appendSymbolRuns(o, b, s, limit, k, infoFlag, explicit);
    }

    /**
     * Appends up to {@code max} not-received symbols of [from, to) as ITEMS (runs of 1-2) and RANGES (longer runs).
     */
    private boolean appendSymbolRuns(RxObject o, int b, int from, int to, int k, int infoFlag, int max) {
        boolean any = false;
        int left = max;
        int s = o.received.nextClear(b, from, to);
        while (s >= 0 && left > 0) {
            int end = s;
            while (end + 1 < to && end - s + 1 < left && !o.received.get(b, end + 1)) {
                end++;
            }
            for (int x = s; x <= end; x++) {
                if (!o.requestedByOthers.get(b, x)) {
                    nackHasUncovered = true;
                }
            }
            int run = end - s + 1;
            if (run <= 2) {
                if (!roomFor(NormWire.FORM_ITEMS, run)
                        || !writer.open(NormWire.FORM_ITEMS, NormWire.REPAIR_SEGMENT | infoFlag)) {
                    return any;
                }
                writer.item(o.objectId, b, s, k);
                if (run == 2) {
                    writer.item(o.objectId, b, end, k);
                }
            } else {
                if (!roomFor(NormWire.FORM_RANGES, 2)
                        || !writer.open(NormWire.FORM_RANGES, NormWire.REPAIR_SEGMENT | infoFlag)) {
                    return any;
                }
                writer.range(o.objectId, b, s, o.objectId, b, end, k);
            }
            writer.close();
            any = true;
            left -= run;
            s = end + 1 < to ? o.received.nextClear(b, end + 1, to) : -1;
        }
        return any;
    }

    /** grtt_response: the last CC send time plus how long we held it, in the sender's microseconds. */
    private long grttResponse() {
        if (ccSendMicros == 0) {
            return 0;
        }
        return ccSendMicros + (ctx.micros() - ccRecvMicros);
    }

    /** Another receiver's NACK to this sender: what it asks for will be repaired for us too. */
    public void onOtherNack(FeedbackFlyweight nack) {
        if (!backoff || !synced) {
            return;
        }
        int fecId = currentFecId();
        int start = nack.payloadIndex();
        reader.reset(nack.buffer(), start, start + nack.payloadLength(), fecId, fieldSizeFor(fecId));
        while (reader.nextRequest()) {
            int form = reader.form();
            int flags = reader.flags();
            while (reader.nextItem()) {
                int objectId = reader.objectId();
                long block = reader.blockNumber();
                int symbol = reader.symbolId();
                int lastObjectId = objectId;
                long lastBlock = block;
                int lastSymbol = symbol;
                if (form == NormWire.FORM_RANGES) {
                    if (!reader.nextItem()) {
                        break;
                    }
                    lastObjectId = reader.objectId();
                    lastBlock = reader.blockNumber();
                    lastSymbol = reader.symbolId();
                }
                markHeard(flags, objectId, block, symbol, lastObjectId, lastBlock, lastSymbol);
            }
        }
    }

    private void markHeard(int flags, int objectId, long block, int symbol, int lastObjectId, long lastBlock,
                           int lastSymbol) {
        if ((flags & NormWire.REPAIR_SEGMENT) != 0) {
            RxObject o = slot(objectId);
            if (o != null && o.described && block < o.blockCount()) {
                int end = Math.min(lastSymbol, o.symbolLimit - 1);
                for (int s = symbol; s <= end; s++) {
                    o.requestedByOthers.set((int) block, s);
                }
                o.heardByOthers = true;
                if ((flags & NormWire.REPAIR_INFO) != 0) {
                    o.infoRequestedByOthers = true;
                }
            }
        } else if ((flags & NormWire.REPAIR_BLOCK) != 0) {
            RxObject o = slot(objectId);
            if (o != null && o.described) {
                long end = Math.min(lastBlock, o.blockCount() - 1L);
                for (long b = block; b <= end; b++) {
                    o.markBlockRequestedByOthers((int) b);
                    int k = o.partition.blockLength((int) b);
                    for (int s = 0; s < o.symbolLimit; s++) {
                        if (s < k) {
                            o.requestedByOthers.set((int) b, s);
                        }
                    }
                }
                o.heardByOthers = true;
            }
        } else if ((flags & (NormWire.REPAIR_OBJECT | NormWire.REPAIR_INFO)) != 0) {
            int count = ((lastObjectId - objectId) & 0xFFFF) + 1;
            for (int i = 0; i < count && i < slots.length; i++) {
                int id = (objectId + i) & 0xFFFF;
                RxObject o = slot(id);
                if (o == null) {
                    if ((flags & NormWire.REPAIR_OBJECT) != 0) {
                        markMissingRequested(id);
                    }
                } else {
                    o.heardByOthers = true;
                    o.infoRequestedByOthers = true;
                    if ((flags & NormWire.REPAIR_OBJECT) != 0 && o.described) {
                        for (int b = 0; b < o.blockCount(); b++) {
                            o.markBlockRequestedByOthers(b);
                            o.requestedByOthers.setRange(b, 0, o.partition.blockLength(b));
                        }
                    }
                }
            }
        }
    }

    private void markMissingRequested(int id) {
        int slot = id & slotMask;
        missingRequestedByOthers[slot >>> 6] |= 1L << slot;
    }

    private void clearMissingRequested(int id) {
        int slot = id & slotMask;
        missingRequestedByOthers[slot >>> 6] &= ~(1L << slot);
    }

    private boolean isMissingRequestedByOthers(int id) {
        int slot = id & slotMask;
        return (missingRequestedByOthers[slot >>> 6] & (1L << slot)) != 0;
    }

    private void clearHeardRequests() {
        java.util.Arrays.fill(missingRequestedByOthers, 0L);
        if (!hasPosition) {
            return;
        }
        int count = ((posObject - nextReleaseId) & 0xFFFF) + 1;
        for (int i = 0; i < count && i < slots.length; i++) {
            RxObject o = slot((nextReleaseId + i) & 0xFFFF);
            if (o != null && o.heardByOthers) {
                o.clearRequestedByOthers();
            }
        }
    }

    // ---- CC feedback, watermark ACK -----------------------------------------------------------------------------

    private void onCcTimer() {
        ByteBuf packet = ctx.output().allocate(FeedbackFlyweight.HEADER_LENGTH + HeaderExtensions.CC_FEEDBACK_LENGTH);
        int header = FeedbackFlyweight.HEADER_LENGTH + HeaderExtensions.CC_FEEDBACK_LENGTH;
        feedback.wrap(packet, packet.writerIndex(), header);
        long response = grttResponse();
        feedback.writeFeedbackHeader(NormWire.TYPE_ACK, ctx.nextSequence(), ctx.nodeId(), nodeId, instanceId, NormWire.ACK_CC, 0,
                response / 1_000_000L, response % 1_000_000L);
        HeaderExtensions.writeCcFeedback(packet, packet.writerIndex() + FeedbackFlyweight.HEADER_LENGTH, ccSequence,
                NormWire.CC_FLAG_RTT, Quantizer.quantizeRtt(grtt), 0, Quantizer.quantizeRate(0));
        feedback.headerLength(header);
        packet.writerIndex(packet.writerIndex() + header);
        sendFeedback(packet);
        ctx.counters().increment(Counter.ACKS_SENT);
    }

    private void scheduleAck(int objectId, long block, int symbol) {
        ackPending = true;
        ackObjectId = objectId;
        ackBlock = block;
        ackSymbol = symbol;
        if (!ackTimer.isActive()) {
            long delay = (long) (ctx.random().nextDouble() * grttNanos());
            ctx.timers().schedule(ackTimer, ctx.nanoTime() + delay);
        }
    }

    private void sendAckFlush() {
        if (!ackPending || config.silentReceiver()) {
            return;
        }
        ackPending = false;
        int fecId = currentFecId();
        int m = fieldSizeFor(fecId);
        ByteBuf packet = ctx.output().allocate(FeedbackFlyweight.HEADER_LENGTH + 16);
        feedback.wrap(packet, packet.writerIndex(), packet.capacity());
        long response = grttResponse();
        feedback.writeFeedbackHeader(NormWire.TYPE_ACK, ctx.nextSequence(), ctx.nodeId(), nodeId, instanceId, NormWire.ACK_FLUSH, 0,
                response / 1_000_000L, response % 1_000_000L);
        feedback.headerLength(FeedbackFlyweight.HEADER_LENGTH);
        RxObject o = slot(ackObjectId);
        int blockLength = o != null && o.described && ackBlock < o.blockCount()
                ? o.partition.blockLength((int) ackBlock) : config.blockSize();
        int payload = FeedbackFlyweight.writeAckFlushPayload(packet, packet.writerIndex() + FeedbackFlyweight.HEADER_LENGTH,
                fecId, m, ackObjectId, ackBlock, ackSymbol, blockLength);
        packet.writerIndex(packet.writerIndex() + FeedbackFlyweight.HEADER_LENGTH + payload);
        sendFeedback(packet);
        ctx.counters().increment(Counter.ACKS_SENT);
    }

    // ---- inactivity ----------------------------------------------------------------------------------------------

    private void onActivityTimer() {
        long now = ctx.nanoTime();
        long timeout = config.senderTimeout().toNanos();
        long silentFor = now - lastHeardNanos;
        if (silentFor >= timeout) {
            LOG.info("{} silent for {} ms: gone", this, silentFor / 1_000_000);
            close(LossReason.SENDER_GONE);
            ctx.counters().increment(Counter.SENDERS_GONE);
            try {
                ctx.listener().onRemoteSenderGone(this);
            } catch (RuntimeException e) {
                LOG.warn("listener failed on sender gone {}", this, e);
            }
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
        ctx.timers().cancel(repairTimer);
        ctx.timers().cancel(ccTimer);
        ctx.timers().cancel(ackTimer);
        ctx.timers().cancel(activityTimer);
        if (synced && hasPosition) {
            int end = (posObject + 1) & 0xFFFF;
            loseUntil(end, reason);
        }
        for (int i = 0; i < slots.length; i++) {
            RxObject o = slots[i];
            if (o != null) {
                if (!o.complete) {
                    ctx.counters().increment(Counter.OBJECTS_LOST);
                    ctx.listener().onObjectLost(this, o.objectId, reason);
                }
                o.release();
                slots[i] = null;
            }
        }
        bufferedBytes = 0;
    }
}
