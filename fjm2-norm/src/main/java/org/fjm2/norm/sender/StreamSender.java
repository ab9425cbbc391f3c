package org.fjm2.norm.sender;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.NormConfig;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.FeedbackFlyweight;
import org.fjm2.norm.codec.StreamPayloadFlyweight;
import org.fjm2.norm.fec.ParityEncoder;
import org.fjm2.norm.protocol.ProtocolContext;
import org.fjm2.norm.protocol.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sending side of a session's stream (NORM_OBJECT_STREAM), one at a time, beside the object transmit loop: packs
 * what the application hands over ({@link StreamWriter}) into the stream buffer ({@link TxStreamRing}) as it makes
 * room, sends segments, proactive parity and repairs in block order paced by the session's rate controller, answers
 * the NACKs naming the stream ({@link StreamRepairs}) and squelches blocks it no longer holds, and after an active
 * flush or the end of the stream sends NORM_CMD(FLUSH)es naming the last segment, robust factor times while nothing
 * else goes out (NRL's flush behaviour). A stream whose end went out and was flushed is finished; it keeps serving
 * repairs until another stream opens or the session closes. Owned by the session's event loop.
 */
final class StreamSender {

    private static final Logger LOG = LoggerFactory.getLogger(StreamSender.class);

    /** NRL NORM's smallest flow-control delay: no stream block is reused sooner after it was sent or asked for. */
    static final long MIN_FLOW_CONTROL_NANOS = 20_000_000L;

    private final ProtocolContext ctx;
    private final NormConfig config;
    private final GrttEstimator grtt;
    private final RateController rate;
    private final ProbeSchedule probes;
    private final ParityEncoder encoder;
    private final StreamPackets packets;
    private final StreamRepairs repairs;
    private final Timer flushTimer;
    private final Timer packTimer;

    private volatile StreamWriter writer;
    private TxStreamRing ring;
    private int streamId;
    private StreamWriter.Chunk current;
    private boolean flushing;
    private boolean flushDue;
    private int flushesSent;
    private boolean endWritten;
    private boolean sentAny;
    private long lastSendNanos;
    /** The stream's NORM_INFO (null: none), due before its first data and again when a receiver asks for it. */
    private ByteBuf info;
    private boolean infoDue;
    private boolean infoSent;
    private long infoSentNanos;

    /** {@code noObjects}: whether the sender holds no object (see {@link StreamRepairs}). */
    StreamSender(ProtocolContext ctx, int instanceId, GrttEstimator grtt, AdvertisedBackoff backoff,
                 RateController rate, ProbeSchedule probes, ParityEncoder encoder,
                 java.util.function.BooleanSupplier noObjects) {
        this.ctx = ctx;
        this.config = ctx.config();
        this.grtt = grtt;
        this.rate = rate;
        this.probes = probes;
        this.encoder = encoder;
        this.packets = new StreamPackets(ctx, instanceId, grtt, backoff);
        this.repairs = new StreamRepairs(ctx, grtt, backoff, ctx::wakeTransmitter, noObjects);
        this.flushTimer = new Timer("sender-stream-flush", this::onFlushTimer);
        this.packTimer = new Timer("sender-stream-pack", ctx::wakeTransmitter);
    }

    /**
     * Opens a stream with transport id {@code id} and a buffer of {@code bufferBytes} (N = bufferBytes / (B * E)
     * blocks, at least 2), replacing a finished one.
     */
    StreamWriter open(int id, long bufferBytes, byte[] streamInfo) {
        if (isOpen()) {
            throw new IllegalStateException("stream " + streamId + " is open: end it first");
        }
        int e = config.segmentSize();
        if (streamInfo != null && streamInfo.length > e) {
            throw new IllegalArgumentException("stream info of " + streamInfo.length + " bytes is longer than a "
                    + "segment (" + e + " bytes)");
        }
        int b = config.blockSize();
        int p = config.parity();
        long blocks = TxStreamRing.blocksFor(bufferBytes, e, b);
        long symbols = (long) e + StreamPayloadFlyweight.HEADER_LENGTH;
        if (blocks * b * symbols > Integer.MAX_VALUE - 64 || blocks > (TxStreamRing.BLOCK_MASK + 1) / 4) {
            throw new IllegalArgumentException("stream buffer of " + bufferBytes + " bytes is too large");
        }
        release();
        ByteBuf data = ctx.output().allocateHeap((int) (blocks * b * symbols));
        ByteBuf parityData = null;
        if (p > 0) {
            parityData = ctx.output().allocateHeap((int) (blocks * p * symbols));
            parityData.writerIndex(parityData.capacity());
        }
        data.writerIndex(data.capacity());
        ring = new TxStreamRing(e, b, p, config.autoParity(), encoder, data, parityData, blocks);
        streamId = id;
        current = null;
        flushing = false;
        flushDue = false;
        flushesSent = 0;
        endWritten = false;
        info = streamInfo == null ? null : ctx.output().allocateHeap(streamInfo.length).writeBytes(streamInfo);
        infoDue = info != null;
        infoSent = false;
        packets.streamHasInfo(info != null);
        repairs.follow(ring, id);
        writer = new StreamWriter(id, ring, ctx::wakeTransmitter);
        LOG.debug("stream {} opened: {} blocks of {} x {} bytes", id, blocks, b, e);
        return writer;
    }

    /** Whether a stream is open and not finished (any thread). */
    boolean isOpen() {
        StreamWriter w = writer;
        return w != null && !w.isFinished();
    }

    /** Whether any stream data went out (the session then ends with EOT). */
    boolean hasSent() {
        return sentAny;
    }

    /**
     * Whether the object repair path must leave requests for this object id alone: the stream's, and while the
     * stream is held and no object is, any (they are for objects gone: the stream squelches them, naming itself).
     */
    boolean handles(int objectId, boolean noObjects) {
        return ring != null && (objectId == streamId || noObjects);
    }

    /** A NACK of this sender instance. */
    void onNack(FeedbackFlyweight nack) {
        repairs.onNack(nack);
    }

    /**
     * How long a stream block must have been quiet (neither sent nor asked for) before it is reused: the hold time
     * of objects cached without acknowledgements, holdFactor receiver repair cycles (back-off B*GRTT, hold-off
     * (B+2)*GRTT, aggregation (B+1)*GRTT) and at least holdMin. NRL uses 2 * GRTT * (B+1), at least 20 ms, which on
     * a loaded host (a receiver's NACK cycle then takes several times its GRTTs) let blocks go before a lossy
     * receiver's second request came. A stream thus moves at most its buffer per hold time while blocks wait.
     */
    private long flowControlNanos() {
        double cycles = config.holdFactor() * grtt.advertisedNanos() * (3.0 * config.backoffFactor() + 3);
        return Math.max(MIN_FLOW_CONTROL_NANOS, Math.max(config.holdMin().toNanos(), (long) cycles));
    }

    // ---- transmission -------------------------------------------------------------------------------------------

    /**
     * Sends what pacing allows; returns when it wants to run again for pacing, {@code now} when its burst is spent,
     * Long.MAX_VALUE when only timers or new data can wake it.
     */
    long transmit(long now) {
        if (ring == null) {
            return Long.MAX_VALUE;
        }
        pack(now);
        long budget = TransmitLoop.TRANSMIT_BURST_BYTES;
        if (info != null && repairs.takeInfoRequest() && now - infoSentNanos >= grtt.advertisedNanos()) {
            infoDue = true;     // once per GRTT however many receivers ask
        }
        while (true) {
            boolean control = repairs.squelchDue() || flushDue || infoDue;
            int slot = control ? -1 : ring.firstPendingSlot();
            if (!control && slot < 0) {
                break;
            }
            if (budget <= 0) {
                return now;
            }
            long delay = rate.delayNanos(config.segmentSize() + SenderPackets.HEADER_ROOM, now);
            if (delay > 0) {
                return now + delay;
            }
            int bytes;
            if (infoDue) {
                infoDue = false;
                bytes = packets.sendInfo(streamId, ring, info, infoSent);
                infoSent = true;
                infoSentNanos = now;
            } else if (repairs.takeSquelch()) {
                bytes = packets.sendSquelch(streamId, ring.lowBlock(), ring.blockSize);
            } else if (flushDue) {
                flushDue = false;
                bytes = packets.sendFlush(streamId, ring.lastClosedBlock(), ring.lastClosedSegment(),
                        ring.blockSize);
            } else {
                bytes = sendSymbol(slot, now);
            }
            budget -= bytes;
            rate.onSent(bytes, now);
            lastSendNanos = now;
        }
        if (flushing && !flushTimer.isActive()) {
            ctx.timers().schedule(flushTimer, Math.max(now, lastSendNanos) + flushInterval());
        }
        return Long.MAX_VALUE;
    }

    private int sendSymbol(int slot, long now) {
        int symbol = ring.firstPendingSymbol(slot);
        boolean repair = ring.take(slot, symbol, now);
        int bytes = packets.sendData(streamId, ring, slot, symbol, repair);
        if (!repair) {
            flushesSent = 0;        // new data: a pending flush starts its repetitions again once idle
            ctx.counters().add(Counter.STREAM_BYTES_SENT, packets.lastDataLength());
        }
        sentAny = true;
        probes.onData(now);
        if (current != null) {
            pack(now);      // a segment left: the buffer may take more now
        }
        return bytes;
    }

    private long flushInterval() {
        return Math.max(2 * grtt.advertisedNanos(), 1_000_000L);
    }

    private void onFlushTimer() {
        if (ring == null || !flushing) {
            return;
        }
        long now = ctx.nanoTime();
        if (ring.hasPending() || !ring.anyClosed()) {
            if (ring.hasPending()) {
                ctx.timers().schedule(flushTimer, now + flushInterval());
            }
            return;
        }
        flushDue = true;
        ctx.wakeTransmitter();
        if (++flushesSent >= config.robustFactor()) {
            flushing = false;
            if (endWritten) {
                writer.finished();
                LOG.debug("stream {} finished: its end was sent and flushed", streamId);
            }
        } else {
            ctx.timers().schedule(flushTimer, now + flushInterval());
        }
    }

    // ---- what the application handed over ---------------------------------------------------------------------

    /** Moves queued bytes and marks into the buffer while it has room; retries from a timer when it has none. */
    private void pack(long now) {
        long flowControl = flowControlNanos();
        while (true) {
            if (current == null) {
                current = writer.poll();
                if (current == null) {
                    return;
                }
            }
            ByteBuf data = current.data();
            if (data != null && data.isReadable()) {
                ring.write(data, data.readableBytes(), now, flowControl);
                if (data.isReadable()) {
                    retryPacking(now, flowControl);
                    return;
                }
            }
            int marks = current.marks();
            writer.packed(current);
            current = null;
            if ((marks & StreamWriter.MESSAGE_END) != 0) {
                ring.markMessageStart();
            }
            if ((marks & (StreamWriter.FLUSH_PASSIVE | StreamWriter.FLUSH_ACTIVE)) != 0) {
                ring.closeOpenSegment();
            }
            if ((marks & StreamWriter.FLUSH_ACTIVE) != 0) {
                flushing = true;
                flushesSent = 0;
            }
            if ((marks & StreamWriter.END) != 0) {
                if (!ring.writeEndOfStream(now, flowControl)) {
                    current = new StreamWriter.Chunk(null, StreamWriter.END, 0);
                    retryPacking(now, flowControl);
                    return;
                }
                endWritten = true;
                flushing = true;
                flushesSent = 0;
            }
        }
    }

    /** The buffer is full: try again once its oldest block may have aged past the flow-control delay. */
    private void retryPacking(long now, long flowControl) {
        if (!packTimer.isActive()) {
            ctx.timers().schedule(packTimer, now + Math.max(1_000_000L, flowControl / 4));
        }
    }

    // ---- closing ----------------------------------------------------------------------------------------------------

    private void release() {
        if (current != null && current.data() != null) {
            current.data().release();
        }
        current = null;
        if (writer != null) {
            writer.abort();
        }
        if (ring != null) {
            ring.release();
        }
        ring = null;
        if (info != null) {
            info.release();
            info = null;
        }
        infoDue = false;
        packets.streamHasInfo(false);
        repairs.follow(null, 0);
        ctx.timers().cancel(flushTimer);
        ctx.timers().cancel(packTimer);
    }

    /** Frees the stream (session closing): writers waiting get an IllegalStateException. */
    void close() {
        release();
    }
}
