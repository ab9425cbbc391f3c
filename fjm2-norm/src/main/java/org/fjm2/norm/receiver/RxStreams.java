package org.fjm2.norm.receiver;

import org.fjm2.norm.api.LossReason;
import org.fjm2.norm.api.NormCounters.Counter;
import org.fjm2.norm.codec.CommandFlyweight;
import org.fjm2.norm.codec.Fti;
import org.fjm2.norm.codec.HeaderExtensions;
import org.fjm2.norm.codec.NormWire;
import org.fjm2.norm.codec.ObjectMessageFlyweight;
import org.fjm2.norm.fec.BlockDecoder;
import org.fjm2.norm.protocol.ProtocolContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stream (NORM_OBJECT_STREAM) a receiver follows for one remote sender: at most one at a time, so that a sender
 * costs one stream window however many stream ids it uses. The first NORM_DATA of a stream with its FTI opens it
 * (its object id is then passed in the sender's object order, see {@link RxWindow#markStream}); a newer stream id
 * replaces the current stream (reported closed, {@link LossReason#UNSUPPORTED}); messages of an older or finished
 * stream are ignored. Routes the sender's stream messages, FLUSHes and SQUELCHes naming the stream, and the
 * stream's part of the repair cycle. A stream's NORM_INFO is delivered once per stream id as it arrives (before the
 * stream opens, too: NRL sends it ahead of the data); when the stream's data says it has info and none came, the
 * stream asks for it. Owned by the session's event loop.
 */
final class RxStreams {

    private static final Logger LOG = LoggerFactory.getLogger(RxStreams.class);

    private final ProtocolContext ctx;
    private final RxWindow window;
    private final BlockDecoder decoder;
    private final Fti fti;
    private final LossReason[] refusal;
    private RxStream current;
    /** Id of the last stream that ended or was given up (its late messages are ignored), -1 before any. */
    private int lastId = -1;
    /** Id of the last stream whose NORM_INFO was delivered, -1 before any. */
    private int infoId = -1;

    RxStreams(ProtocolContext ctx, RxWindow window, BlockDecoder decoder, ReceiverScratch scratch) {
        this.ctx = ctx;
        this.window = window;
        this.decoder = decoder;
        this.fti = scratch.fti;
        this.refusal = scratch.refusal;
    }

    /** The stream followed now, or null. */
    RxStream current() {
        if (current != null && current.isClosed()) {
            lastId = current.streamId;
            current = null;
        }
        return current;
    }

    /** Whether {@code objectId} is the stream followed now. */
    boolean isCurrent(int objectId) {
        RxStream stream = current();
        return stream != null && stream.streamId == objectId;
    }

    /**
     * A validated NORM_DATA or NORM_INFO with NORM_FLAG_STREAM. Returns true when it shows symbols missing that the
     * sender already sent (the repair cycle should start).
     */
    boolean onMessage(ObjectMessageFlyweight msg) {
        if (msg.type() == NormWire.TYPE_INFO) {
            onInfo(msg);
            return false;
        }
        if (msg.type() != NormWire.TYPE_DATA) {
            return false;
        }
        int id = msg.objectId();
        RxStream stream = current();
        if (stream != null && stream.streamId != id) {
            if (((id - stream.streamId) & 0xFFFF) >= 0x8000) {
                ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);     // an older stream of this sender
                return false;
            }
            LOG.debug("{}: stream {} replaced by stream {}", window.sender(), stream.streamId, id);
            stream.delivery().close(LossReason.UNSUPPORTED);
            stream = current();
        }
        int extEnd = msg.offset() + msg.headerLength();
        int ftiIndex = HeaderExtensions.find(msg.buffer(), msg.extensionsIndex(), extEnd, NormWire.EXT_FTI);
        boolean hasFti = ftiIndex >= 0 && HeaderExtensions.readFti(msg.buffer(), ftiIndex, extEnd, msg.fecId(), fti);
        if (stream == null) {
            if (lastId >= 0 && ((id - lastId - 1) & 0xFFFF) >= 0x7FFF) {
                ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);     // the last stream, or one before it
                return false;
            }
            if (!hasFti) {
                ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);    // wait for a message with its FTI
                return false;
            }
            stream = RxStream.open(ctx, window, decoder, id, fti, refusal);
            if (stream == null) {
                refuse(id, refusal[0]);
                return false;
            }
            current = stream;
            window.markStream(id);
            if (infoId == id) {
                stream.infoArrived();
            }
        } else if (hasFti && !stream.matches(fti)) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return false;
        }
        if (msg.fecId() != stream.fecId) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return false;
        }
        boolean infoMissed = (msg.flags() & NormWire.FLAG_INFO) != 0 && stream.infoAnnounced();
        boolean gap = stream.onData(msg);
        current();
        return gap || infoMissed;
    }

    /** A stream's NORM_INFO: delivered once per stream id, unless it is of a stream older than the one followed. */
    private void onInfo(ObjectMessageFlyweight msg) {
        int id = msg.objectId();
        RxStream stream = current();
        boolean older = stream != null ? ((id - stream.streamId) & 0xFFFF) >= 0x8000
                : lastId >= 0 && ((id - lastId - 1) & 0xFFFF) >= 0x7FFF;
        if (older || id == infoId || (stream != null && stream.streamId == id && stream.hasInfo())) {
            ctx.counters().increment(Counter.DUPLICATE_SEGMENTS);
            return;
        }
        int length = msg.payloadLength();
        if (length > RxStream.MAX_INFO_BYTES) {
            ctx.counters().increment(Counter.MALFORMED_DROPPED);
            return;
        }
        infoId = id;
        if (stream != null && stream.streamId == id) {
            stream.infoArrived();
        }
        try {
            ctx.listener().onStreamInfo(window.sender(), id, msg.buffer().slice(msg.payloadIndex(), length));
        } catch (RuntimeException e) {
            LOG.warn("listener failed on the info of stream {} of {}", id, window.sender(), e);
        }
    }

    private void refuse(int id, LossReason reason) {
        lastId = id;
        ctx.counters().increment(Counter.UNSUPPORTED_OBJECTS);
        LOG.debug("{}: stream {} refused: {}", window.sender(), id, reason.description());
        window.markStream(id);
        try {
            ctx.listener().onStreamClosed(window.sender(), id, 0, reason);
        } catch (RuntimeException e) {
            LOG.warn("listener failed on the refusal of stream {} of {}", id, window.sender(), e);
        }
    }

    /** A FLUSH naming the current stream at (block, symbol); true when something up to it is missing. */
    boolean onFlush(long block, int symbol) {
        RxStream stream = current();
        boolean missing = stream != null && stream.onFlush(block, symbol);
        current();
        return missing;
    }

    /**
     * A SQUELCH: when it names the current stream, blocks before its block can no longer be repaired; when it names
     * a later object, the sender no longer holds the stream at all.
     */
    void onSquelch(CommandFlyweight cmd) {
        RxStream stream = current();
        if (stream == null) {
            return;
        }
        int id = cmd.objectId();
        if (id == stream.streamId) {
            stream.onSquelch(cmd.blockNumber(stream.fieldSize));
        } else if (((id - stream.streamId) & 0xFFFF) < 0x8000) {
            stream.delivery().close(LossReason.SQUELCHED);
        }
        current();
    }

    /** Whether the current stream misses anything the sender already sent. */
    boolean hasMissing() {
        RxStream stream = current();
        return stream != null && stream.hasMissing();
    }

    /** Appends the current stream's repair requests; false once the NACK cycle is full. */
    boolean appendRequests(NackBuilder nacks) {
        RxStream stream = current();
        return stream == null || stream.appendRequests(nacks);
    }

    /** Gives the current stream up (sender gone, session closed). */
    void close(LossReason reason) {
        RxStream stream = current();
        if (stream != null) {
            stream.delivery().close(reason);
            current();
        }
    }
}
