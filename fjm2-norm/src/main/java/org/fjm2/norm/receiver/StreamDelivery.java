package org.fjm2.norm.receiver;

import io.netty.buffer.ByteBuf;
import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.api.RemoteSenderInfo;
import org.fjm2.norm.codec.StreamPayloadFlyweight;
import org.fjm2.norm.protocol.ProtocolContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read side of a received stream: its read position (block, segment), and the stream offset the next delivered
 * byte has. Hands segments to the listener in order as they become available, reports what can no longer arrive as
 * gaps (sized by the payload_offset of the next segment delivered), and ends the stream at its end-of-stream mark.
 * Checks each segment once more as it is delivered (a symbol rebuilt by FEC was never checked on arrival): a length
 * beyond the segment size, a message start outside the data, or a payload_offset that does not follow the bytes
 * delivered (more ahead than the skipped segments could hold, or behind) makes the segment count as malformed and
 * be passed over. Owned by the session's event loop.
 */
final class StreamDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(StreamDelivery.class);
    /** Largest plausible gap between two delivered segments of a stream, bytes (offsets are 32-bit). */
    static final long MAX_GAP = 1L << 31;

    private final ProtocolContext ctx;
    private final RemoteSenderInfo sender;
    private final RxStream stream;
    private final StreamPayloadFlyweight payload = new StreamPayloadFlyweight();
    private boolean synced;
    private long readBlock;
    private int readSegment;
    /** payload_offset (32 bits) the next segment continues from. */
    private long expectedOffset;
    /** Stream offset of the next byte delivered (unwrapped). */
    private long offset;
    /** Segment positions passed without delivery since the last delivered segment (saturating). */
    private long skipped;
    private boolean ended;

    StreamDelivery(ProtocolContext ctx, RemoteSenderInfo sender, RxStream stream) {
        this.ctx = ctx;
        this.sender = sender;
        this.stream = stream;
    }

    boolean isSynced() {
        return synced;
    }

    long readBlock() {
        return readBlock;
    }

    int readSegment() {
        return readSegment;
    }

    /** The stream offset after the last byte delivered. */
    long offset() {
        return offset;
    }

    /** Whether the stream's end-of-stream mark was delivered. */
    boolean ended() {
        return ended;
    }

    /** Joins the stream at (block, segment), whose data starts at {@code streamOffset}: delivery starts there. */
    void syncTo(long block, int segment, long streamOffset) {
        synced = true;
        readBlock = block;
        readSegment = segment;
        expectedOffset = streamOffset;
        offset = streamOffset;
        skipped = 0;
        try {
            ctx.listener().onStreamOpened(sender, stream.streamId, offset);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on the opening of stream {} of {}", stream.streamId, sender, e);
        }
    }

    /**
     * Whether a data segment arriving for (block, symbol) can follow what was delivered: its payload_offset lies
     * no further ahead than the segments from the read position to it (and those skipped before) could hold, and not
     * behind. Segments before the read position in its block are kept for decoding only and pass.
     */
    boolean plausible(long block, int symbol, StreamPayloadFlyweight segment) {
        long ahead = stream.relative(block) * stream.blockSize + symbol - readSegment;
        if (ahead < 0 || segment.isControl()) {
            return true;
        }
        long delta = (segment.streamOffset() - expectedOffset) & 0xFFFFFFFFL;
        return delta < MAX_GAP && delta <= room(skipped + ahead);
    }

    /** Bytes {@code segments} segments can hold, saturating. */
    private long room(long segments) {
        return segments >= MAX_GAP / stream.segmentSize ? MAX_GAP : segments * stream.segmentSize;
    }

    /** Delivers the segments present from the read position on, in order, up to the first missing one. */
    void deliverReady() {
        while (synced && !stream.isClosed()) {
            RxStreamBlock block = stream.held(readBlock);
            ByteBuf segment = block == null || !block.state.has(readSegment) ? null : block.segment(readSegment);
            if (segment == null) {
                return;
            }
            deliver(segment);
            if (stream.isClosed()) {
                return;
            }
            step();
        }
    }

    /**
     * Moves the read position forward to the start of block {@code target} (ahead of it): what the blocks passed
     * hold is delivered, what they lack is skipped (reported as a gap with the next segment delivered).
     */
    void forceTo(long target) {
        long distance = stream.relative(target);
        if (!synced || distance <= 0) {
            return;
        }
        long blocks = Math.min(distance, stream.windowBlocks);
        for (long r = 0; r < blocks; r++) {
            RxStreamBlock block = stream.held(readBlock);
            while (readSegment < stream.blockSize) {
                ByteBuf segment = block == null || !block.state.has(readSegment) ? null
                        : block.segment(readSegment);
                if (segment != null) {
                    deliver(segment);
                    if (stream.isClosed()) {
                        return;
                    }
                } else {
                    skipped = Math.min(MAX_GAP, skipped + 1);
                }
                readSegment++;
            }
            stream.free(readBlock);
            readBlock = (readBlock + 1) & stream.blockMask;
            readSegment = 0;
        }
        if (distance > blocks) {
            skipped = Math.min(MAX_GAP, skipped + (distance - blocks) * stream.blockSize);
            readBlock = target;
        }
        deliverReady();
    }

    private void step() {
        if (++readSegment >= stream.blockSize) {
            stream.free(readBlock);
            readBlock = (readBlock + 1) & stream.blockMask;
            readSegment = 0;
        }
    }

    private void deliver(ByteBuf segment) {
        payload.wrap(segment, segment.readerIndex(), segment.readableBytes());
        if (!payload.fits(stream.segmentSize) || !payload.messageStartValid()) {
            passOver();
            return;
        }
        if (payload.isControl()) {
            if (payload.isEndOfStream()) {
                ended = true;
                close(null);
            } else {
                ctx.counters().increment(Counter.MALFORMED_DROPPED);   // a control code we do not know: skipped
            }
            return;
        }
        long segmentOffset = payload.streamOffset();
        long delta = (segmentOffset - expectedOffset) & 0xFFFFFFFFL;
        if (delta >= MAX_GAP || delta > room(skipped)) {
            passOver();
            return;
        }
        if (delta > 0) {
            ctx.counters().add(Counter.STREAM_BYTES_LOST, delta);
            try {
                ctx.listener().onStreamGap(sender, stream.streamId, offset, delta);
            } catch (RuntimeException e) {
                LOG.warn("listener failed on a gap in stream {} of {}", stream.streamId, sender, e);
            }
            offset += delta;
        }
        int length = payload.dataLength();
        int messageStart = payload.messageStart();
        ByteBuf data = segment.slice(payload.dataIndex(), length);
        ctx.counters().add(Counter.STREAM_BYTES_RECEIVED, length);
        try {
            ctx.listener().onStreamData(sender, stream.streamId, offset, data, messageStart > 0 ? messageStart - 1
                    : -1);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on data of stream {} of {}", stream.streamId, sender, e);
        }
        offset += length;
        expectedOffset = (segmentOffset + length) & 0xFFFFFFFFL;
        skipped = 0;
    }

    /** A segment that cannot be what the stream holds at its place: counted, and its place counts as skipped. */
    private void passOver() {
        ctx.counters().increment(Counter.MALFORMED_DROPPED);
        skipped = Math.min(MAX_GAP, skipped + 1);
    }

    /**
     * Ends the stream: frees what it holds and tells the listener ({@code reason} null: the sender ended it).
     * Idempotent.
     */
    void close(LossReason reason) {
        if (stream.isClosed()) {
            return;
        }
        stream.close();
        try {
            ctx.listener().onStreamClosed(sender, stream.streamId, offset, reason);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on the end of stream {} of {}", stream.streamId, sender, e);
        }
    }
}
