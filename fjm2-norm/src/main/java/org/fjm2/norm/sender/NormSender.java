package org.fjm2.norm.sender;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.buffer.ByteBuf;
import io.netty.util.internal.PlatformDependent;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.codec.Quantizer;
import org.fjm2.norm.codec.RepairRequestReader;
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
 * <p>{@link #enqueue} and {@link #requestAcknowledgement} are thread-safe; everything else runs on the session's
 * event loop.
 */
public final class NormSender {

    private static final Logger LOG = LoggerFactory.getLogger(NormSender.class);

    /** JMS priorities 0..9 map to ten transmit queues; higher is sent first. */
    public static final int PRIORITIES = 10;
    /** Header room reserved in every datagram buffer (common header, payload id, FTI, slack). */
    static final int HEADER_ROOM = 64;
    /** fec_id the sender uses: RS8 (RFC 5510), the one NRL NORM and this engine both encode. */
    static final int FEC_ID = NormWire.FEC_RS8;
    static final int FEC_M = 8;
    /** SQUELCH repetitions announcing the first object id of a new sender instance. */
    static final int START_SQUELCHES = 5;

    private final NormContext ctx;
    private final NormConfig config;
    private final int instanceId;
    private final TxAdmission admission;
    private final Queue<Submission> inbox = PlatformDependent.newMpscQueue();
    private final AtomicInteger queuedObjects = new AtomicInteger();
    private final AtomicLong nextTicket = new AtomicLong();
    private final Queue<int[]> ackRequests = PlatformDependent.newMpscQueue();
    private final ArrayDeque<Submission>[] queues;
    private final ArrayDeque<TxObject> freeObjects = new ArrayDeque<>();
    private final RateController rate;
    private final GrttEstimator grtt;
    private final ParityEncoder parityEncoder;

    // The repair cache: a ring of objects indexed by object id, oldest..next-1.
    private final TxObject[] slots;
    private final int slotMask;
    private final long[] pendingSlots;
    private final long[] repairSlots;
    private int oldestId;
    private int nextObjectId;
    private int windowCount;

    private long bytesInCache;

    // Repair cycle (section 5.3): aggregate NACKs, then hold off for one GRTT.
    private final Timer repairTimer;
    private boolean holdoff;
    private final Timer flushTimer;
    private final Timer probeTimer;
    private final Timer evictTimer;
    private int flushCount;
    private boolean idle = true;
    private boolean idleReported = true;
    private boolean squelchDue;
    /**
     * SQUELCH messages still to send before the first data of this instance: they tell receivers that started
     * before us where our objects begin, so one that loses the whole first object still asks for it.
     */
    private int startSquelches = START_SQUELCHES;
    private boolean probeDue;
    private boolean eotDue;
    /** Whether this sender has started transmitting an object (it then announces its end with EOT). */
    private boolean started;
    private boolean dataSinceProbe;
    private long probeIntervalNanos;
    private int ccSequence;
    private long lastTransmitNanos;

    // Receiver progress: watermark rounds and tracked receivers (flow control, and user acknowledgement requests).
    private final Acknowledgements acks = new Acknowledgements(true);
    private boolean flushDue;

    private final ObjectMessageFlyweight dataMessage = new ObjectMessageFlyweight();
    private final CommandFlyweight command = new CommandFlyweight();
    private final RepairRequestReader requestReader = new RepairRequestReader();
    private final int backoffFactor;
    private final int groupSizeQuantized;

    @SuppressWarnings("unchecked")
    public NormSender(NormContext ctx, ParityEncoder parityEncoder) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.parityEncoder = parityEncoder;
        if (config.parity() > 0 && parityEncoder == null) {
            throw new IllegalArgumentException("parity: no FEC encoder available");
        }
        this.instanceId = ThreadLocalRandom.current().nextInt(1, 0x10000);
        this.admission = new TxAdmission(config.txCacheBytes(), config.txCacheObjects(), ctx::wakeTransmitter);
        this.queues = new ArrayDeque[PRIORITIES];
        for (int i = 0; i < PRIORITIES; i++) {
            queues[i] = new ArrayDeque<>();
        }
        this.rate = new FixedRateController(config.txRate());
        this.grtt = new GrttEstimator(seconds(config.grttInitial()), seconds(config.grttMin()), seconds(config.grttMax()));
        grtt.packetInterval((config.segmentSize() + HEADER_ROOM) * 8.0 / config.txRate());
        int capacity = Integer.highestOneBit(Math.max(2, config.txCacheObjects()) * 2 - 1);
        this.slots = new TxObject[capacity];
        this.slotMask = capacity - 1;
        this.pendingSlots = new long[(capacity + 63) >>> 6];
        this.repairSlots = new long[(capacity + 63) >>> 6];
        this.nextObjectId = ThreadLocalRandom.current().nextInt(0x10000);
        this.oldestId = nextObjectId;
        this.backoffFactor = config.backoffFactor();
        this.groupSizeQuantized = Quantizer.quantizeGroupSize(config.groupSize());
        this.repairTimer = new Timer("sender-repair", this::onRepairTimer);
        this.flushTimer = new Timer("sender-flush", this::onFlushTimer);
        this.probeTimer = new Timer("sender-probe", this::onProbeTimer);
        this.evictTimer = new Timer("sender-evict", () -> ctx.wakeTransmitter());
        this.probeIntervalNanos = config.probeIntervalMin().toNanos();
        this.flushCount = config.robustFactor();
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
            queuedObjects.incrementAndGet();
            inbox.offer(new Submission(ticket, data, info, priority, size));
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
        return queuedObjects.get();
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
        if (needsRoom()) {
            evict(now);
        }
        while (true) {
            if (!hasWork()) {
                onIdle(now);
                return Long.MAX_VALUE;
            }
            long delay = rate.delayNanos(config.segmentSize() + HEADER_ROOM, now);
            if (delay > 0) {
                return now + delay;
            }
            int bytes = sendNext(now);
            if (bytes <= 0) {
                onIdle(now);
                return Long.MAX_VALUE;
            }
            rate.onSent(bytes, now);
            lastTransmitNanos = now;
        }
    }

    private boolean hasWork() {
        return probeDue || squelchDue || eotDue || flushDue || firstPending() != null || hasQueued();
    }

    private boolean hasQueued() {
        for (int p = PRIORITIES - 1; p >= 0; p--) {
            if (!queues[p].isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private void drainInbox() {
        Submission s;
        while ((s = inbox.poll()) != null) {
            queues[s.priority].addLast(s);
        }
        int[] request;
        while ((request = ackRequests.poll()) != null) {
            startUserRequest(request);
        }
    }

    /** Sends one datagram; returns its length, or 0 when there was nothing to send. */
    private int sendNext(long now) {
        if (probeDue) {
            probeDue = false;
            return sendProbe(now);
        }
        if (squelchDue) {
            squelchDue = false;
            return sendSquelch();
        }
        if (startSquelches > 0 && windowCount > 0) {
            startSquelches--;
            return sendSquelch();
        }
        if (eotDue) {
            eotDue = false;
            return sendEot();
        }
        if (flushDue) {
            flushDue = false;
            int bytes = sendFlush();
            if (bytes > 0) {
                return bytes;
            }
        }
        TxObject object = firstPending();
        if (object == null) {
            object = startNextObject(now);
            if (object == null) {
                return 0;
            }
        }
        idle = false;
        idleReported = false;
        flushCount = 0;
        dataSinceProbe = true;
        if (!probeTimer.isActive()) {
            probeDue = true;
            ctx.timers().schedule(probeTimer, now + probeIntervalNanos);
        }
        object.lastActivityNanos = now;
        if (object.infoPending) {
            object.infoPending = false;
            int length = sendInfo(object);
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
        int length = sendData(object, block, symbol, object.firstPassDone);
        afterSend(object);
        return length;
    }

    private void afterSend(TxObject object) {
        if (!object.hasPending()) {
            clearSlot(pendingSlots, object.objectId);
            if (!object.firstPassDone) {
                object.firstPassDone = true;
                object.firstPassEndNanos = ctx.nanoTime();
                ctx.counters().increment(Counter.OBJECTS_SENT);
            }
        }
    }

    /** An application thread waits for room, or a queued object waits for a place in the cache window. */
    private boolean needsRoom() {
        return admission.hasWaiters() || (windowFull() && hasQueued());
    }

    private boolean windowFull() {
        return windowCount >= slots.length - 1 || windowCount >= config.txCacheObjects();
    }

    private TxObject startNextObject(long now) {
        if (windowFull()) {
            return null;
        }
        Submission next = null;
        for (int p = PRIORITIES - 1; p >= 0 && next == null; p--) {
            next = queues[p].pollFirst();
        }
        if (next == null) {
            return null;
        }
        queuedObjects.decrementAndGet();
        started = true;
        TxObject object = freeObjects.isEmpty() ? new TxObject() : freeObjects.pollFirst();
        object.ticket = next.ticket;
        object.priority = next.priority;
        object.data = next.data;
        object.info = next.info;
        object.size = next.size;
        object.objectId = nextObjectId;
        object.prepare(config.segmentSize(), config.blockSize(), config.parity(), config.autoParity());
        object.lastActivityNanos = now;
        nextObjectId = (nextObjectId + 1) & 0xFFFF;
        slots[object.objectId & slotMask] = object;
        windowCount++;
        bytesInCache += object.size;
        setSlot(pendingSlots, object.objectId);
        ctx.counters().increment(Counter.OBJECTS_ENQUEUED);
        ctx.listener().onTxObjectStarted(object.ticket, object.objectId);
        if (acks.userRequested() && acks.userTicket() == object.ticket) {
            acks.userObject(object.objectId);
        }
        return object;
    }

    private TxObject firstPending() {
        if (windowCount == 0) {
            return null;
        }
        int start = oldestId & slotMask;
        int slot = nextSet(pendingSlots, start, slots.length);
        if (slot < 0 && start > 0) {
            slot = nextSet(pendingSlots, 0, start);
        }
        return slot < 0 ? null : slots[slot];
    }

    private static int nextSet(long[] bits, int from, int limit) {
        int w = from >>> 6;
        if (from >= limit) {
            return -1;
        }
        long word = bits[w] & (-1L << from);
        while (true) {
            if (word != 0) {
                int bit = (w << 6) + Long.numberOfTrailingZeros(word);
                return bit < limit ? bit : -1;
            }
            if (++w >= bits.length || (w << 6) >= limit) {
                return -1;
            }
            word = bits[w];
        }
    }

    private void setSlot(long[] bits, int objectId) {
        int slot = objectId & slotMask;
        bits[slot >>> 6] |= 1L << slot;
    }

    private void clearSlot(long[] bits, int objectId) {
        int slot = objectId & slotMask;
        bits[slot >>> 6] &= ~(1L << slot);
    }

    private boolean testSlot(long[] bits, int objectId) {
        int slot = objectId & slotMask;
        return (bits[slot >>> 6] & (1L << slot)) != 0;
    }

    /** The cached object with this id, or null when it is not (any longer) in the cache. */
    private TxObject find(int objectId) {
        int age = (objectId - oldestId) & 0xFFFF;
        if (age >= windowCount) {
            return null;
        }
        return slots[objectId & slotMask];
    }

    // ---- building datagrams ----------------------------------------------------------------------------------------

    private int nextSequence() {
        return ctx.nextSequence();
    }

    private int sendData(TxObject object, int block, int symbol, boolean repair) {
        int segmentSize = config.segmentSize();
        ByteBuf packet = ctx.output().allocate(HEADER_ROOM + segmentSize);
        dataMessage.wrap(packet, packet.writerIndex(), packet.capacity());
        int flags = (repair ? NormWire.FLAG_REPAIR : 0) | (object.info != null ? NormWire.FLAG_INFO : 0);
        dataMessage.writeObjectHeader(NormWire.TYPE_DATA, nextSequence(), ctx.nodeId(), instanceId,
                grtt.quantized(), backoffFactor, groupSizeQuantized, flags, FEC_ID, object.objectId);
        int k = object.partition.blockLength(block);
        dataMessage.writePayloadId(FEC_M, block, symbol, k);
        int header = ObjectMessageFlyweight.baseHeaderLength(NormWire.TYPE_DATA, FEC_ID);
        header += writeFti(packet, packet.writerIndex() + header, object);
        dataMessage.headerLength(header);
        int payloadIndex = packet.writerIndex() + header;
        int length;
        if (symbol < k) {
            length = object.partition.segmentLength(block, symbol);
            int offset = (int) object.partition.segmentOffset(block, symbol);
            packet.setBytes(payloadIndex, object.data, object.data.readerIndex() + offset, length);
            ctx.counters().increment(repair ? Counter.REPAIRS_SENT : Counter.DATA_SENT);
        } else {
            // As long as the block's longest source symbol (what NRL NORM sends too).
            length = object.partition.segmentLength(block, 0);
            ByteBuf parity = parityOf(object, block);
            packet.setBytes(payloadIndex, parity, parityIndex(object, block, symbol - k), length);
            ctx.counters().increment(Counter.PARITY_SENT);
            if (repair) {
                ctx.counters().increment(Counter.REPAIRS_SENT);
            }
        }
        packet.writerIndex(packet.writerIndex() + header + length);
        int total = packet.readableBytes();
        ctx.output().sendToGroup(packet);
        return total;
    }

    private int writeFti(ByteBuf packet, int index, TxObject object) {
        // NRL NORM reads the last field as the parity count (see docs/nrl-interop.md); we write what it expects.
        return HeaderExtensions.writeFti(packet, index, FEC_ID, FEC_M, object.size, config.segmentSize(),
                config.blockSize(), config.parity());
    }

    private int sendInfo(TxObject object) {
        int infoLength = object.info.readableBytes();
        ByteBuf packet = ctx.output().allocate(HEADER_ROOM + infoLength);
        dataMessage.wrap(packet, packet.writerIndex(), packet.capacity());
        // FLAG_INFO on the NORM_INFO itself too: an NRL receiver that creates the object from this message takes
        // the flag as "the object has info" and otherwise ignores the info it carries.
        int flags = NormWire.FLAG_INFO | (object.firstPassDone ? NormWire.FLAG_REPAIR : 0);
        dataMessage.writeObjectHeader(NormWire.TYPE_INFO, nextSequence(), ctx.nodeId(), instanceId,
                grtt.quantized(), backoffFactor, groupSizeQuantized, flags, FEC_ID, object.objectId);
        int header = ObjectMessageFlyweight.INFO_HEADER_LENGTH;
        header += writeFti(packet, packet.writerIndex() + header, object);
        dataMessage.headerLength(header);
        packet.setBytes(packet.writerIndex() + header, object.info, object.info.readerIndex(), infoLength);
        packet.writerIndex(packet.writerIndex() + header + infoLength);
        int total = packet.readableBytes();
        ctx.output().sendToGroup(packet);
        ctx.counters().increment(Counter.INFO_SENT);
        return total;
    }

    /** The encoded parity of a block (computed on first use and cached with the object). */
    private ByteBuf parityOf(TxObject object, int block) {
        int parity = config.parity();
        int perBlock = parity * config.segmentSize();
        if (object.parityCache == null) {
            object.parityCache = ctx.output().allocateHeap(perBlock * object.blockCount());
            object.parityCache.writerIndex(object.parityCache.capacity());
        }
        if (!object.isParityEncoded(block)) {
            parityEncoder.encodeBlock(object.data, object.partition, block, parity, object.parityCache,
                    block * perBlock);
            object.markParityEncoded(block);
        }
        return object.parityCache;
    }

    private int parityIndex(TxObject object, int block, int parityNumber) {
        return (block * config.parity() + parityNumber) * config.segmentSize();
    }

    private CommandFlyweight startCommand(ByteBuf packet, int flavor) {
        command.wrap(packet, packet.writerIndex(), packet.capacity());
        return command.writeCommandHeader(flavor, nextSequence(), ctx.nodeId(), instanceId, grtt.quantized(),
                backoffFactor, groupSizeQuantized);
    }

    private int finishCommand(ByteBuf packet, int length) {
        packet.writerIndex(packet.writerIndex() + length);
        ctx.output().sendToGroup(packet);
        return length;
    }

    private int sendProbe(long now) {
        ByteBuf packet = ctx.output().allocate(64);
        startCommand(packet, NormWire.CMD_CC);
        long micros = ctx.micros();
        command.writeCc(0, ccSequence, micros / 1_000_000L, micros % 1_000_000L);
        ccSequence = (ccSequence + 1) & 0xFFFF;
        int header = CommandFlyweight.CC_HEADER_LENGTH;
        header += HeaderExtensions.writeCcRate(packet, packet.writerIndex() + header,
                Quantizer.quantizeRate(rate.rateBitsPerSecond() / 8.0));
        command.headerLength(header);
        ctx.counters().increment(Counter.PROBES_SENT);
        return finishCommand(packet, header);
    }

    private int sendSquelch() {
        ByteBuf packet = ctx.output().allocate(64);
        startCommand(packet, NormWire.CMD_SQUELCH);
        // The squelch point is the oldest object still held: receivers give up everything before it.
        int header = command.writeObjectPosition(FEC_ID, FEC_M, windowCount > 0 ? oldestId : nextObjectId, 0, 0,
                config.blockSize());
        command.headerLength(header);
        ctx.counters().increment(Counter.SQUELCHES_SENT);
        return finishCommand(packet, header);
    }

    private int sendEot() {
        ByteBuf packet = ctx.output().allocate(32);
        startCommand(packet, NormWire.CMD_EOT);
        command.headerLength(CommandFlyweight.SHORT_HEADER_LENGTH);
        return finishCommand(packet, CommandFlyweight.SHORT_HEADER_LENGTH);
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
        } else if (windowCount > 0) {
            objectId = (nextObjectId - 1) & 0xFFFF;
        } else {
            return 0;
        }
        TxObject last = find(objectId);
        if (last == null) {
            return 0;
        }
        List<Integer> nodes = round ? acks.pendingNodes() : List.of();
        int maxNodes = Math.max(1, config.segmentSize() / 4);
        ByteBuf packet = ctx.output().allocate(64 + 4 * Math.min(nodes.size(), maxNodes));
        startCommand(packet, NormWire.CMD_FLUSH);
        int finalBlock = (int) last.partition.finalBlock();
        int k = last.partition.blockLength(finalBlock);
        int header = command.writeObjectPosition(FEC_ID, FEC_M, objectId, finalBlock, k - 1, k);
        command.headerLength(header);
        int length = header;
        for (int i = 0; i < nodes.size() && i < maxNodes; i++) {
            packet.setInt(packet.writerIndex() + length, nodes.get(i));
            length += 4;
        }
        ctx.counters().increment(Counter.FLUSHES_SENT);
        return finishCommand(packet, length);
    }

    // ---- idle, flush, probe --------------------------------------------------------------------------------------

    private void onIdle(long now) {
        if (!idle) {
            idle = true;
            flushCount = 0;
            // End of transmission: the flushes ask tracked receivers to acknowledge the newest object.
            if (!acks.roundActive() && acks.hasReceivers() && windowCount > 0) {
                int newest = (nextObjectId - 1) & 0xFFFF;
                if (!acks.acknowledged(newest)) {
                    acks.startRound(newest, config.robustFactor());
                }
            }
            scheduleFlush(now);
        }
        if (!idleReported && queuedObjects.get() == 0) {
            idleReported = true;
            ctx.listener().onTransmitIdle();
        }
        if (acks.roundActive() && !flushTimer.isActive()) {
            scheduleFlush(now);
        }
    }

    /**
     * Starts a watermark round when one is needed and none runs: a user's acknowledgement request whose object has
     * been sent, or (flow control) room is needed and tracked receivers have not acknowledged the oldest object.
     */
    private void maybeStartRound(long now) {
        if (acks.roundActive()) {
            return;
        }
        if (acks.userRequested() && acks.userObject() >= 0) {
            TxObject target = find(acks.userObject());
            if (target != null && target.firstPassDone) {
                acks.startRound(target.objectId, config.robustFactor());
                flushDue = true;
                scheduleFlush(now);
                return;
            }
        }
        if (acks.hasReceivers() && needsRoom() && windowCount > 0 && !acks.acknowledged(oldestId)) {
            TxObject newestSent = newestSent();
            if (newestSent != null) {
                acks.startRound(newestSent.objectId, config.robustFactor());
                flushDue = true;
                scheduleFlush(now);
            }
        }
    }

    /** The newest object whose first transmission is complete, or null. */
    private TxObject newestSent() {
        for (int i = windowCount - 1; i >= 0; i--) {
            TxObject o = slots[(oldestId + i) & slotMask];
            if (o.firstPassDone) {
                return o;
            }
        }
        return null;
    }

    private void scheduleFlush(long now) {
        long interval = Math.max(2 * grtt.advertisedNanos(), 1_000_000L);
        ctx.timers().schedule(flushTimer, Math.max(now, lastTransmitNanos) + interval);
    }

    private void onFlushTimer() {
        long now = ctx.nanoTime();
        if (acks.roundActive()) {
            if (acks.takeFlush()) {
                flushDue = true;
                ctx.wakeTransmitter();
                scheduleFlush(now);
            } else {
                acks.expireRound();
                reportUserRound();
                ctx.wakeTransmitter();      // room may be needed: the next round starts from the transmit loop
            }
            return;
        }
        if (!idle || hasWork()) {
            return;
        }
        if (flushCount < config.robustFactor()) {
            flushCount++;
            flushDue = true;
            ctx.wakeTransmitter();
            scheduleFlush(now);
        }
    }

    private void reportUserRound() {
        if (acks.userDone()) {
            long ticket = acks.userTicket();
            int objectId = acks.userObject();
            ctx.listener().onAcknowledgementComplete(new AckResult(ticket, objectId, acks.takeUserResult()));
        }
    }

    private void onProbeTimer() {
        if (!dataSinceProbe && idle) {
            probeIntervalNanos = config.probeIntervalMin().toNanos();
            return;     // quiet: resume probing when data flows again
        }
        grtt.onProbeInterval();
        dataSinceProbe = false;
        probeDue = true;
        ctx.wakeTransmitter();
        ctx.timers().schedule(probeTimer, ctx.nanoTime() + probeIntervalNanos);
        probeIntervalNanos = Math.min((long) (probeIntervalNanos * 1.5), config.probeIntervalMax().toNanos());
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
        acks.heardFrom(nack.sourceId());
        updateRtt(nack);
        long now = ctx.nanoTime();
        int start = nack.payloadIndex();
        requestReader.reset(nack.buffer(), start, start + nack.payloadLength(), FEC_ID, FEC_M);
        boolean squelch = false;
        boolean applied = false;
        while (requestReader.nextRequest()) {
            int form = requestReader.form();
            int flags = requestReader.flags();
            int lastBlock = -1;
            TxObject lastObject = null;
            int erasures = 0;
            while (requestReader.nextItem()) {
                int objectId = requestReader.objectId();
                long blockNumber = requestReader.blockNumber();
                int symbol = requestReader.symbolId();
                int lastObjectId = objectId;
                long lastBlockNumber = blockNumber;
                int lastSymbol = symbol;
                if (form == NormWire.FORM_RANGES) {
                    if (!requestReader.nextItem()) {
                        break;
                    }
                    lastObjectId = requestReader.objectId();
                    lastBlockNumber = requestReader.blockNumber();
                    lastSymbol = requestReader.symbolId();
                } else if (form == NormWire.FORM_ERASURES) {
                    lastSymbol = symbol;
                }
                if ((flags & NormWire.REPAIR_SEGMENT) != 0) {
                    TxObject object = find(objectId);
                    if (object == null) {
                        squelch |= isOlderThanCache(objectId);
                        if (LOG.isDebugEnabled()) {
                            LOG.debug("NACK from {} for object {} not in cache [{}, +{})",
                                    Integer.toUnsignedString(nack.sourceId()), objectId, oldestId, windowCount);
                        }
                        continue;
                    }
                    object.lastActivityNanos = now;
                    if ((flags & NormWire.REPAIR_INFO) != 0) {
                        applied |= repairInfo(object);
                    }
                    if (blockNumber >= object.blockCount()) {
                        continue;
                    }
                    int block = (int) blockNumber;
                    if (object != lastObject || block != lastBlock) {
                        if (lastObject != null && erasures > 0) {
                            applied |= repairParity(lastObject, lastBlock, erasures);
                        }
                        erasures = 0;
                        lastObject = object;
                        lastBlock = block;
                    }
                    int k = object.partition.blockLength(block);
                    int limit = Math.min(lastSymbol, k + config.parity() - 1);
                    for (int s = symbol; s <= limit; s++) {
                        if (s < k || config.parity() == 0) {
                            if (s < k) {
                                applied |= repairSymbol(object, block, s);
                            }
                        } else {
                            erasures++;
                        }
                    }
                } else if ((flags & NormWire.REPAIR_BLOCK) != 0) {
                    TxObject object = find(objectId);
                    if (object == null) {
                        squelch |= isOlderThanCache(objectId);
                        continue;
                    }
                    object.lastActivityNanos = now;
                    if ((flags & NormWire.REPAIR_INFO) != 0) {
                        applied |= repairInfo(object);
                    }
                    long lastB = Math.min(lastBlockNumber, object.blockCount() - 1L);
                    for (long b = blockNumber; b <= lastB; b++) {
                        applied |= repairBlock(object, (int) b);
                    }
                } else if ((flags & (NormWire.REPAIR_OBJECT | NormWire.REPAIR_INFO)) != 0) {
                    int count = ((lastObjectId - objectId) & 0xFFFF) + 1;
                    if (count > windowCount + 1024) {
                        continue;   // nonsense range
                    }
                    for (int i = 0; i < count; i++) {
                        int id = (objectId + i) & 0xFFFF;
                        TxObject object = find(id);
                        if (object == null) {
                            squelch |= isOlderThanCache(id);
                            continue;
                        }
                        object.lastActivityNanos = now;
                        if ((flags & NormWire.REPAIR_INFO) != 0) {
                            applied |= repairInfo(object);
                        }
                        if ((flags & NormWire.REPAIR_OBJECT) != 0) {
                            for (int b = 0; b < object.blockCount(); b++) {
                                applied |= repairBlock(object, b);
                            }
                        }
                    }
                }
            }
            if (lastObject != null && erasures > 0) {
                applied |= repairParity(lastObject, lastBlock, erasures);
            }
        }
        if (requestReader.malformed()) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
        }
        if (squelch) {
            squelchDue = true;
            ctx.wakeTransmitter();
        }
        if (applied && !holdoff && !repairTimer.isActive()) {
            long aggregate = (config.parity() > 0 || backoffFactor > 0)
                    ? (long) (grtt.advertisedNanos() * (backoffFactor + 1.0)) : 0L;
            ctx.timers().schedule(repairTimer, now + aggregate);
        }
        if (applied && holdoff) {
            ctx.wakeTransmitter();
        }
    }

    private boolean isOlderThanCache(int objectId) {
        // Within half the id space behind the oldest cached object: it was ours and is gone.
        int behind = (oldestId - objectId) & 0xFFFF;
        return windowCount == 0 ? ((nextObjectId - objectId) & 0xFFFF) < 0x8000 : behind > 0 && behind < 0x8000;
    }

    /** True when the (object, block) lies at or after the current transmit position (repairs during hold-off). */
    private boolean aheadOfTransmitPosition(TxObject object, int block) {
        TxObject current = firstPending();
        if (current == null) {
            return false;
        }
        int objectDelta = (object.objectId - current.objectId) & 0xFFFF;
        if (objectDelta != 0) {
            return objectDelta < 0x8000;
        }
        int currentBlock = current.firstPendingBlock();
        return currentBlock >= 0 && block > currentBlock;
    }

    private boolean repairSymbol(TxObject object, int block, int symbol) {
        if (holdoff) {
            if (aheadOfTransmitPosition(object, block) && object.pending.set(block, symbol)) {
                activate(object, block);
                return true;
            }
            return false;
        }
        if (object.repair.set(block, symbol)) {
            markRepair(object);
            return true;
        }
        return false;
    }

    private boolean repairBlock(TxObject object, int block) {
        int k = object.partition.blockLength(block);
        boolean any = false;
        for (int s = 0; s < k; s++) {
            any |= repairSymbol(object, block, s);
        }
        return any;
    }

    private boolean repairInfo(TxObject object) {
        if (object.info == null) {
            return false;
        }
        if (holdoff) {
            return false;
        }
        if (!object.infoRepair) {
            object.infoRepair = true;
            markRepair(object);
            return true;
        }
        return false;
    }

    /** A receiver is missing {@code erasures} symbols of a block: send that many fresh parity symbols. */
    private boolean repairParity(TxObject object, int block, int erasures) {
        if (holdoff) {
            if (!aheadOfTransmitPosition(object, block)) {
                return false;
            }
            return scheduleParity(object, block, erasures);
        }
        if (erasures > object.parityRepair[block]) {
            object.parityRepair[block] = erasures;
            markRepair(object);
            return true;
        }
        return false;
    }

    /** Marks fresh parity (or, when it ran out, source symbols again) pending for transmission. */
    private boolean scheduleParity(TxObject object, int block, int erasures) {
        int k = object.partition.blockLength(block);
        int parity = config.parity();
        int fresh = parity - object.nextFreshParity[block];
        boolean any = false;
        int count = Math.min(erasures, fresh);
        for (int i = 0; i < count; i++) {
            any |= object.pending.set(block, k + object.nextFreshParity[block]++);
        }
        if (erasures > fresh) {
            // Fresh parity exhausted: resend all parity (different receivers lack different ones).
            for (int i = 0; i < parity; i++) {
                any |= object.pending.set(block, k + i);
            }
        }
        if (any) {
            activate(object, block);
        }
        return any;
    }

    private void markRepair(TxObject object) {
        object.hasRepairs = true;
        setSlot(repairSlots, object.objectId);
    }

    private void activate(TxObject object, int block) {
        object.markBlockPending(block);
        setSlot(pendingSlots, object.objectId);
        ctx.wakeTransmitter();
    }

    private void onRepairTimer() {
        if (holdoff) {
            holdoff = false;
            return;
        }
        // Aggregation ended: everything requested becomes pending, then hold off new cycles for one GRTT.
        for (int i = 0; i < windowCount; i++) {
            int id = (oldestId + i) & 0xFFFF;
            if (!testSlot(repairSlots, id)) {
                continue;
            }
            clearSlot(repairSlots, id);
            TxObject object = slots[id & slotMask];
            object.hasRepairs = false;
            if (object.infoRepair) {
                object.infoRepair = false;
                object.infoPending = true;
                setSlot(pendingSlots, id);
            }
            int blocks = object.blockCount();
            int limit = config.blockSize() + config.parity();
            for (int b = 0; b < blocks; b++) {
                boolean any = false;
                for (int s = object.repair.nextSet(b, 0, limit); s >= 0; s = object.repair.nextSet(b, s + 1, limit)) {
                    object.pending.set(b, s);
                    any = true;
                }
                if (any) {
                    object.repair.clearBlock(b);
                    activate(object, b);
                }
                if (object.parityRepair[b] > 0) {
                    scheduleParity(object, b, object.parityRepair[b]);
                    object.parityRepair[b] = 0;
                }
            }
        }
        holdoff = true;
        if (LOG.isDebugEnabled()) {
            LOG.debug("repairs activated; first pending object {}, grtt {} ms", firstPending() == null ? -1
                    : firstPending().objectId, grtt.advertised() * 1e3);
        }
        ctx.timers().schedule(repairTimer, ctx.nanoTime() + grtt.advertisedNanos());
        ctx.wakeTransmitter();
    }

    /** A NORM_ACK addressed to this sender. */
    public void onAck(FeedbackFlyweight ack) {
        ctx.counters().increment(Counter.ACKS_RECEIVED);
        if (ack.instanceId() != instanceId) {
            return;
        }
        updateRtt(ack);
        if (ack.ackType() == NormWire.ACK_FLUSH) {
            if (ack.ackFlushFecId() != FEC_ID) {
                return;
            }
            boolean ended = acks.onAck(ack.sourceId(), ack.ackFlushObjectId());
            reportUserRound();
            if (ended) {
                ctx.wakeTransmitter();
            }
        } else {
            acks.heardFrom(ack.sourceId());
        }
    }

    private void updateRtt(FeedbackFlyweight feedback) {
        if (!feedback.hasGrttResponse()) {
            return;
        }
        long echoed = feedback.grttResponseSeconds() * 1_000_000L + feedback.grttResponseMicros();
        long rttMicros = ctx.micros() - echoed;
        if (rttMicros >= 0 && rttMicros < config.grttMax().toNanos() / 1000 * 4) {
            grtt.onRtt(rttMicros / 1e6);
        }
    }

    // ---- positive acknowledgement ----------------------------------------------------------------------------------

    private void startUserRequest(int[] request) {
        if (acks.userRequested()) {
            ctx.listener().onAcknowledgementComplete(new AckResult(acks.userTicket(), acks.userObject(),
                    acks.takeUserResult()));
        }
        long ticket = ((long) request[0] << 32) | (request[1] & 0xFFFFFFFFL);
        int[] nodes = java.util.Arrays.copyOfRange(request, 2, request.length);
        acks.requestUser(ticket, nodes);
        for (int i = 0; i < windowCount; i++) {
            TxObject object = slots[(oldestId + i) & slotMask];
            if (object.ticket == ticket) {
                acks.userObject(object.objectId);
            }
        }
        if (nodes.length == 0) {
            ctx.listener().onAcknowledgementComplete(new AckResult(ticket, acks.userObject(), acks.takeUserResult()));
        }
    }

    // ---- cache eviction ------------------------------------------------------------------------------------------

    /** Gives up the oldest quiescent objects while an application thread waits for room. */
    private void evict(long now) {
        long hold = holdNanos();
        long maxHold = config.maxHold().toNanos();
        while (windowCount > 0 && needsRoom()) {
            TxObject oldest = slots[oldestId & slotMask];
            if (!oldest.firstPassDone || (acks.userRequested() && acks.userObject() == oldest.objectId)) {
                return;
            }
            long forcedAt = oldest.firstPassEndNanos + maxHold;
            if (forcedAt - now > 0) {
                boolean busy = oldest.hasPending() || oldest.hasRepairs;
                long quietUntil;
                if (acks.hasReceivers()) {
                    // Tracked receivers say when they are done; a short quiet time covers late NACKs in flight.
                    busy |= !acks.acknowledged(oldest.objectId);
                    quietUntil = oldest.lastActivityNanos + 2 * grtt.advertisedNanos();
                } else {
                    quietUntil = oldest.lastActivityNanos + hold;
                }
                if (busy || quietUntil - now > 0) {
                    long retry = busy ? forcedAt : Math.min(quietUntil, forcedAt);
                    if (!evictTimer.isActive() || evictTimer.deadlineNanos() - retry > 0) {
                        ctx.timers().schedule(evictTimer, retry);
                    }
                    return;
                }
            } else if (acks.hasReceivers() && !acks.acknowledged(oldest.objectId)) {
                LOG.warn("object {} evicted {} ms after it was sent, before every receiver acknowledged it",
                        oldest.objectId, maxHold / 1_000_000);
            }
            purgeOldest();
        }
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
        TxObject oldest = slots[oldestId & slotMask];
        slots[oldestId & slotMask] = null;
        clearSlot(pendingSlots, oldestId);
        clearSlot(repairSlots, oldestId);
        oldestId = (oldestId + 1) & 0xFFFF;
        windowCount--;
        bytesInCache -= oldest.size;
        long ticket = oldest.ticket;
        int id = oldest.objectId;
        admission.release(oldest.size);
        oldest.recycle();
        freeObjects.addLast(oldest);
        ctx.counters().increment(Counter.OBJECTS_PURGED);
        ctx.listener().onTxObjectPurged(ticket, id);
    }

    /** Bytes the sender holds (queued and cached), as admission accounts them; any thread. */
    public long cachedBytesHeld() {
        return admission.bytesHeld();
    }

    /** Objects currently cached for repair. */
    public int cachedObjects() {
        return windowCount;
    }

    public long cachedBytes() {
        return bytesInCache;
    }

    /** Whether everything enqueued has been sent and no repair or flush is pending. */
    public boolean isIdle() {
        return idle && queuedObjects.get() == 0 && !hasWork();
    }

    /** Whether the end-of-transmission FLUSH repetitions are done (or a watermark round ended). */
    public boolean flushed() {
        if (!isIdle() || acks.roundActive() || acks.userRequested()) {
            return false;
        }
        return flushCount >= config.robustFactor()
                || (acks.hasReceivers() && windowCount > 0 && acks.acknowledged((nextObjectId - 1) & 0xFFFF));
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
        Submission s;
        while ((s = inbox.poll()) != null) {
            s.release();
        }
        for (ArrayDeque<Submission> q : queues) {
            while ((s = q.pollFirst()) != null) {
                s.release();
            }
        }
        while (windowCount > 0) {
            TxObject oldest = slots[oldestId & slotMask];
            slots[oldestId & slotMask] = null;
            oldestId = (oldestId + 1) & 0xFFFF;
            windowCount--;
            oldest.recycle();
        }
        if (acks.userRequested()) {
            ctx.listener().onAcknowledgementComplete(new AckResult(acks.userTicket(), acks.userObject(),
                    acks.takeUserResult()));
        }
        LOG.debug("sender {} closed", Integer.toUnsignedString(ctx.nodeId()));
    }

    /** An object handed over by an application thread. */
    private record Submission(long ticket, ByteBuf data, ByteBuf info, int priority, int size) {
        void release() {
            data.release();
            if (info != null) {
                info.release();
            }
        }
    }

    /** Used by tests: ids the window holds. */
    List<Integer> cachedObjectIds() {
        List<Integer> ids = new ArrayList<>();
        for (int i = 0; i < windowCount; i++) {
            ids.add((oldestId + i) & 0xFFFF);
        }
        return ids;
    }
}
